package scoring

import (
	"testing"

	"github.com/drill-dev/drill/event"
)

// TestProxyAttemptsPairByRequestID: drill proxy's requests belong to no
// email, so two requests in flight at once differ only in the proxy's
// request id; each end pairs with its own start.
func TestProxyAttemptsPairByRequestID(t *testing.T) {
	req := func(id int) *event.ProxyCall { return &event.ProxyCall{ID: id} }
	evs := []event.Event{
		{At: sec(1), Kind: event.AttemptStart, Rung: "upstream", Model: "m", Proxy: req(1)},
		{At: sec(2), Kind: event.AttemptStart, Rung: "upstream", Model: "m", Proxy: req(2)},
		{At: sec(2.5), Kind: event.AttemptEnd, Rung: "upstream", Model: "m", Proxy: req(2), Outcome: event.OK},
		{At: sec(9), Kind: event.AttemptEnd, Rung: "upstream", Model: "m", Proxy: req(1), Outcome: event.Timeout},
	}
	got := FinishedAttempts(evs)
	if len(got) != 2 {
		t.Fatalf("%d attempts, want 2: %+v", len(got), got)
	}
	if got[0].Start != sec(2) || got[0].Duration != sec(0.5) || got[1].Start != sec(1) || got[1].Duration != sec(8) {
		t.Errorf("attempts %+v: want request 2 from 2 s for 0.5 s, request 1 from 1 s for 8 s", got)
	}
}
