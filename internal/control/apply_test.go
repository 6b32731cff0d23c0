package control

import (
	"errors"
	"fmt"
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
