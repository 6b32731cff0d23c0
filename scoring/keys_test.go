package scoring

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

// keyPaths lists the JSON key paths of a type: "served.error",
// "observed[].start_s". Maps and fixed arrays are leaves.
func keyPaths(t reflect.Type, prefix string) []string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Slice:
		return keyPaths(t.Elem(), prefix+"[]")
	case reflect.Struct:
		var out []string
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "" && f.Anonymous {
				// An embedded struct without a tag: encoding/json puts its
				// keys at this level.
				out = append(out, keyPaths(f.Type, prefix)...)
				continue
			}
			if name == "" || name == "-" {
				continue
			}
			p := name
			if prefix != "" {
				p = prefix + "." + name
			}
			out = append(out, p)
			out = append(out, keyPaths(f.Type, p)...)
		}
		return out
	}
	return nil
}

// TestEverySummaryKeyIsDocumented: every key path of the summary's JSON
// is documented (name, unit, definition) as a row of the summary keys
// tables in docs/keys.md, so drill-file hypotheses can name figures by path.
func TestEverySummaryKeyIsDocumented(t *testing.T) {
	b, err := os.ReadFile("../docs/keys.md")
	if err != nil {
		t.Fatalf("reading the summary keys page: %v", err)
	}
	docs := string(b)
	paths := keyPaths(reflect.TypeFor[Summary](), "")
	if len(paths) < 60 {
		t.Fatalf("found only %d key paths: %v", len(paths), paths)
	}
	for _, p := range paths {
		if !strings.Contains(docs, "| `"+p+"`") {
			t.Errorf("summary key %q is not documented as a table row", p)
		}
	}
}
