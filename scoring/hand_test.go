package scoring

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
)

// TestHandChangesTimeline: the timeline a baseline plays is the live
// run's: a scheduled window ended early by hand ends there, a window
// started by hand is open until the hand ends it, and scheduled events
// change nothing.
func TestHandChangesTimeline(t *testing.T) {
	s := time.Second
	scheduled := []event.Window{{FaultSpec: event.FaultSpec{Kind: "busy"}, From: 5 * s, To: 20 * s}}
	var h HandChanges
	steps := []struct {
		e       event.Event
		changed bool
	}{
		{event.Event{Kind: event.OutageStart, At: 5 * s, Window: &event.Window{FaultSpec: event.FaultSpec{Kind: "busy"}, From: 5 * s, To: 20 * s}}, false},
		{event.Event{Kind: event.OutageEnd, At: 8 * s, Detail: event.ByHand,
			Window: &event.Window{FaultSpec: event.FaultSpec{Kind: "busy"}, From: 5 * s, To: 8 * s, ByHand: true}}, true},
		{event.Event{Kind: event.OutageStart, At: 10 * s, Detail: event.ByHand,
			Window: &event.Window{FaultSpec: event.FaultSpec{Kind: "hang"}, From: 10 * s, To: -1, ByHand: true, Index: 1}}, true},
	}
	for i, st := range steps {
		if got := h.Add(st.e); got != st.changed {
			t.Errorf("step %d: changed %v, want %v", i, got, st.changed)
		}
	}
	want := []event.Window{
		{FaultSpec: event.FaultSpec{Kind: "busy"}, From: 5 * s, To: 8 * s},
		{FaultSpec: event.FaultSpec{Kind: "hang"}, From: 10 * s, To: -1, Index: 1},
	}
	if got := h.Timeline(scheduled); !reflect.DeepEqual(got, want) {
		t.Errorf("open: timeline %+v, want %+v", got, want)
	}
	h.Add(event.Event{Kind: event.OutageEnd, At: 15 * s, Detail: event.ByHand,
		Window: &event.Window{FaultSpec: event.FaultSpec{Kind: "hang"}, From: 10 * s, To: 15 * s, ByHand: true, Index: 1}})
	want[1].To = 15 * s
	if got := h.Timeline(scheduled); !reflect.DeepEqual(got, want) {
		t.Errorf("ended: timeline %+v, want %+v", got, want)
	}
	if scheduled[0].To != 20*s {
		t.Error("Timeline changed the scheduled windows it was given")
	}
	if h.NotComparable() != "" {
		t.Errorf("outages by hand replay: not comparable %q", h.NotComparable())
	}
}

// TestHandChangesPauseIsNotComparable: a pause by hand cannot be replayed
// and says so, with when.
func TestHandChangesPauseIsNotComparable(t *testing.T) {
	var h HandChanges
	if !h.Add(event.Event{Kind: event.Paused, At: 12 * time.Second}) || h.Add(event.Event{Kind: event.Paused, At: 20 * time.Second}) {
		t.Error("the first pause is a change, a second is not")
	}
	if got := h.NotComparable(); !strings.Contains(got, "paused by hand at 12") {
		t.Errorf("not comparable %q, want the pause and its time", got)
	}
}
