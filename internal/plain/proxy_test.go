package plain

import (
	"slices"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/scoring"
)

// TestProxyWindowsSoFar: the windows so far are those that closed and the
// one still on (the stop summary left it out, and the dashboard said "so
// far: none" during an outage).
func TestProxyWindowsSoFar(t *testing.T) {
	tl := scoring.NewProxyTally()
	tl.Step(event.Event{At: 2 * time.Second, Kind: event.OutageStart, Fault: "busy"})
	tl.Step(event.Event{At: 5 * time.Second, Kind: event.OutageEnd, Fault: "busy"})
	tl.Step(event.Event{At: 7 * time.Second, Kind: event.OutageStart, Fault: "hang"})
	want := []string{"busy 2.0s–5.0s", "hang 7.0s– (still on)"}
	if got := ProxyWindows(tl); !slices.Equal(got, want) {
		t.Errorf("windows %q, want %q", got, want)
	}
}
