package history

import (
	"testing"

	"github.com/drill-dev/drill/scoring"
)

// A chat group shows the chat headline and flags its figures the way each
// gets worse; handovers are never flagged.
func TestChatGroupRegressions(t *testing.T) {
	run := func(answered, handed, silent int, p99 float64, opens map[string]int) Run {
		s := scoring.ChatSummary{Answered: answered, HandedOver: handed, Silent: silent, TimeP99S: p99, BreakerOpens: opens,
			Stopped: map[string]int{"turn limit": silent}}
		figs, _ := scoring.ChatFiguresOf(s)
		return Run{Chat: &s, Figures: figs}
	}
	g := Group{Chat: true, Runs: []Run{
		run(95, 0, 5, 30, nil),
		run(96, 0, 4, 31, map[string]int{"primary": 1}),
		run(80, 15, 5, 60, map[string]int{"primary": 2, "carrier": 1}),
	}}
	if got := g.Headline(); len(got) != len(ChatHeadline) || got[0].Name != "answered" {
		t.Fatalf("a chat group's headline is %v", got)
	}
	flagged := map[string]bool{}
	for _, r := range g.Regressions() {
		flagged[r.Figure.Name] = true
	}
	for name, want := range map[string]bool{"answered": true, "time_p99_s": true, "handed_over": false, "silent": false, "breaker_opens": false} {
		if flagged[name] != want {
			t.Errorf("%s flagged %v, want %v", name, flagged[name], want)
		}
	}
	f := g.Runs[2].Figures
	for name, want := range map[string]float64{"breaker_opens": 3, "breaker_opens.primary": 2, "breaker_opens.carrier": 1, "stopped.turn limit": 5, "silent": 5} {
		if v, ok := Number(f[name]); !ok || v != want {
			t.Errorf("figure %s = %v, want %v", name, f[name], want)
		}
	}
	if (Group{}).Headline()[0].Name != Headline[0].Name {
		t.Error("a triage group lost the triage headline")
	}
}

// An expectation may name a chat figure, judged on a chat group's latest
// run.
func TestChatExpectation(t *testing.T) {
	e, err := ParseExpectation("silent <= previous")
	if err != nil {
		t.Fatal(err)
	}
	run := func(silent int) Run {
		s := scoring.ChatSummary{Silent: silent}
		figs, _ := scoring.ChatFiguresOf(s)
		return Run{Chat: &s, Figures: figs}
	}
	js := Judge([]Group{{Key: "chat: mixed × agent-defaults", Chat: true, Runs: []Run{run(5), run(7)}}}, []Expectation{e})
	if len(js) != 1 || !js[0].Judged || js[0].Pass {
		t.Errorf("silent 7 after 5 judged %+v, want a failed expectation", js)
	}
}
