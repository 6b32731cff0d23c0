package scoring

import (
	"testing"

	"github.com/drill-dev/drill/event"
)

// TestProxyTallyOutageState: the proxy's tally says which outage is on,
// whether by hand, which windows closed and when the proxy closed, so its
// lines and dashboard need not read the events themselves.
func TestProxyTallyOutageState(t *testing.T) {
	tl := NewProxyTally()
	s := tl.Step(event.Event{At: sec(2), Kind: event.OutageStart, Fault: "hang", Detail: event.ByHand})
	if s.Outage == nil || s.Outage.Ended || tl.Active != (ProxyOutage{Fault: "hang", At: sec(2), ByHand: true}) {
		t.Fatalf("after the start: step %+v, active %+v", s, tl.Active)
	}
	s = tl.Step(event.Event{At: sec(5), Kind: event.OutageEnd, Fault: "hang", Detail: event.ByHand})
	if s.Outage == nil || !s.Outage.Ended || tl.Active.Fault != "" {
		t.Fatalf("after the end: step %+v, active %+v", s, tl.Active)
	}
	if len(tl.Windows) != 1 || tl.Windows[0] != (ProxyWindow{Fault: "hang", Start: sec(2), End: sec(5)}) {
		t.Errorf("windows %+v", tl.Windows)
	}
	if s := tl.Step(event.Event{At: sec(6), Kind: event.RunEnd, Detail: "closed"}); s.Outage != nil || s.Request != nil || !tl.Closed {
		t.Errorf("run_end: step %+v, closed %v", s, tl.Closed)
	}
}
