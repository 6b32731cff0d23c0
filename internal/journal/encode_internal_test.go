package journal

import (
	"encoding"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/drill-dev/drill/event"
)

// TestEventsHaveNoPointerMarshalers checks what lets the writer encode an event
// through a pointer with json.Marshal's bytes for the event itself: no type
// an event holds has a JSON or text marshaler on its pointer only, which
// encoding/json would call on an addressable value but not on a copy.
func TestEventsHaveNoPointerMarshalers(t *testing.T) {
	jsonM := reflect.TypeFor[json.Marshaler]()
	textM := reflect.TypeFor[encoding.TextMarshaler]()
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type)
	walk = func(ty reflect.Type) {
		if seen[ty] {
			return
		}
		seen[ty] = true
		if ty.Implements(jsonM) || ty.Implements(textM) {
			return // marshalled alike by value and through a pointer
		}
		if p := reflect.PointerTo(ty); p.Implements(jsonM) || p.Implements(textM) {
			t.Errorf("%v has a marshaler on its pointer", ty)
		}
		switch ty.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array:
			walk(ty.Elem())
		case reflect.Map:
			walk(ty.Key())
			walk(ty.Elem())
		case reflect.Struct:
			for f := range ty.Fields() {
				walk(f.Type)
			}
		}
	}
	walk(reflect.TypeFor[event.Event]())
	if len(seen) < 10 {
		t.Errorf("walked %d types, want the event's many", len(seen))
	}
}
