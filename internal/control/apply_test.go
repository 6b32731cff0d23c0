package control

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
)

// TestIDsRememberTheLast4096: an ID is seen until RememberedIDs newer ones
// have come.
func TestIDsRememberTheLast4096(t *testing.T) {
	var ids IDs
	for i := range RememberedIDs {
		ids.Add(fmt.Sprint(i))
	}
	ids.Add("0") // already there: does not push the oldest out
	if !ids.Seen("0") || !ids.Seen(fmt.Sprint(RememberedIDs-1)) {
		t.Fatal("an ID among the last 4096 is not seen")
	}
	ids.Add("new")
	if ids.Seen("0") || !ids.Seen("1") || !ids.Seen("new") {
		t.Errorf("after one more: 0 seen %v, 1 seen %v, new seen %v; want false, true, true", ids.Seen("0"), ids.Seen("1"), ids.Seen("new"))
	}
	if len(ids.set) != RememberedIDs {
		t.Errorf("%d IDs kept, want %d", len(ids.set), RememberedIDs)
	}
}

// TestCheck: what every run refuses alike is ErrInvalid.
func TestCheck(t *testing.T) {
	ok := Command{ID: "a", Op: OpStart, Fault: event.FaultSpec{Kind: "hang"}, For: time.Minute}
	if err := ok.Check(); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]Command{
		"no id":      {Op: OpStop},
		"long id":    {ID: string(make([]byte, MaxIDLength+1)), Op: OpStop},
		"no kind":    {ID: "a", Op: OpStart},
		"negative":   {ID: "a", Op: OpStart, Fault: event.FaultSpec{Kind: "hang"}, For: -1},
		"too long":   {ID: "a", Op: OpStart, Fault: event.FaultSpec{Kind: "hang"}, For: MaxFor + 1},
		"empty name": {ID: "a", Op: OpStart, Fault: event.FaultSpec{Kind: "hang"}, Models: []string{" "}},
		"op":         {ID: "a", Op: "pause"},
	} {
		if err := c.Check(); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: %v, want ErrInvalid", name, err)
		}
	}
}

func TestWithPort(t *testing.T) {
	for in, want := range map[string]string{"127.0.0.1": "127.0.0.1:8475", "localhost": "localhost:8475", "[::1]": "[::1]:8475",
		"::1": "[::1]:8475", "127.0.0.1:9000": "127.0.0.1:9000", ":9000": ":9000", "": ""} {
		if got := WithPort(in); got != want {
			t.Errorf("WithPort(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestOutageJSONKeepsItsCommand: an outage read back from JSON keeps its
// window and its command.
func TestOutageJSONKeepsItsCommand(t *testing.T) {
	in := Outage{Window: event.Window{FaultSpec: event.FaultSpec{Kind: "hang"}, From: time.Second, To: -1, ByHand: true, Index: 2},
		Command: &event.Command{ID: "x", Who: "ana@127.0.0.1:1", For: time.Minute}}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var out Outage
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(in, out) {
		t.Errorf("read back %+v, want %+v (from %s)", out, in, b)
	}
}
