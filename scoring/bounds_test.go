package scoring

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/drill-dev/drill/event"
)

// floodOfModels is n proxied requests, each naming a model of its own
// (1 KiB names), each using tokens no price covers, from n client
// libraries of their own.
func floodOfModels(n int) []event.Event {
	evs := []event.Event{{Kind: event.RunStart, Run: &event.RunInfo{Policy: "proxy", Outage: "none", Target: "upstream"}}}
	for i := 1; i <= n; i++ {
		model := fmt.Sprintf("m%05d-%s", i, strings.Repeat("x", 1018))
		pc := &event.ProxyCall{ID: i, Method: "POST", Path: "/v1/chat/completions", InputTokens: 10, OutputTokens: 5,
			SDK: "hostile", SDKVersion: fmt.Sprint(i)}
		evs = append(evs,
			event.Event{Kind: event.AttemptStart, Rung: "upstream", Model: model, Proxy: pc},
			event.Event{Kind: event.AttemptEnd, Rung: "upstream", Model: model, Outcome: event.OK, Status: 200, Proxy: pc})
	}
	return append(evs, event.Event{Kind: event.RunEnd, Detail: "proxy stopped"})
}

// TestModelsFromOutsideAreBounded: a proxy's clients name the models and
// the client libraries; however many they name, the summary's unpriced
// list and the tally's models and clients stay bounded, what is past the
// bound counted, so no summary line outgrows what readers accept.
func TestModelsFromOutsideAreBounded(t *testing.T) {
	const n = 5000
	evs := floodOfModels(n)
	sum := Summarize(evs)
	if got := len(sum.Cost.Unpriced); got != MaxUnpricedListed {
		t.Errorf("%d unpriced models listed, want %d", got, MaxUnpricedListed)
	}
	if got, want := sum.Cost.UnpricedMore, n-MaxUnpricedListed; got != want {
		t.Errorf("unpriced_more %d, want %d (the attempts of the models past the list)", got, want)
	}
	b, err := json.Marshal(sum)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > 1<<20 {
		t.Errorf("the summary of %d distinct models is %d bytes, want it bounded (under 1 MiB)", n, len(b))
	}
	tally := NewProxyTally()
	for _, e := range evs {
		tally.Add(e)
	}
	if len(tally.Models) > MaxProxyModels+1 || tally.Models[OtherModels] == nil || tally.Models[OtherModels].Calls != n-MaxProxyModels {
		t.Errorf("%d models in the tally, want at most %d and the rest (%d calls) as %q", len(tally.Models), MaxProxyModels+1, n-MaxProxyModels, OtherModels)
	}
	if len(tally.Clients) > MaxProxyClients+1 || tally.Clients[OtherClients] == nil {
		t.Errorf("%d clients in the tally, want at most %d and the rest as %q", len(tally.Clients), MaxProxyClients+1, OtherClients)
	}
	if tally.Requests != n {
		t.Errorf("%d requests, want %d", tally.Requests, n)
	}
}
