package report_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/journal/journaltest"
	"github.com/drill-dev/drill/internal/report"
)

// routedJournal writes a synthetic run whose every fifth email is a
// safety email, routed backup: never, the first of them handed over.
func routedJournal(t *testing.T) string {
	t.Helper()
	evs := journaltest.Run(journaltest.Options{Emails: 20, From: 2, To: 8, Follow: 6, Breaker: true, Seed: 11})
	class := func(id int) string {
		if id%5 == 0 {
			return "safety"
		}
		return "default"
	}
	handed := false
	for i := range evs {
		e := &evs[i]
		switch e.Kind {
		case event.RunStart:
			e.Run.Routes = []event.RouteInfo{{Class: "safety", Policy: "breaker", Hold: event.HoldPerson}, {Class: "default", Policy: "breaker"}}
		case event.EmailSent:
			e.Class, e.TruthClass = class(e.Email), class(e.Email)
		case event.EmailDone:
			if class(e.Email) == "safety" && !handed {
				handed = true
				e.Result.ServedBy, e.Result.Answer = event.ServedHandedOver, nil
				e.Result.Handover = &event.Handover{Mode: event.HoldPerson, Reason: string(event.BreakerOpen), Told: e.Result.Wait}
			}
		}
	}
	path := filepath.Join(t.TempDir(), "routed.jsonl")
	writeJournal(t, path, smallConfig{Outage: "busy", Policy: "breaker", Emails: 20, Breaker: true, Seed: 11}, evs, event.StatusCompleted)
	return path
}

// TestClassesInReport: a run with routes gets the per-class table (the
// handed-over email counted) and its waits-by-class chart, in HTML and
// Markdown; a run without routes gets neither.
func TestClassesInReport(t *testing.T) {
	r, err := report.Build([]string{routedJournal(t)})
	if err != nil {
		t.Fatal(err)
	}
	r.DPI = testDPI
	page := htmlOf(t, r)
	for _, want := range []string{`<h2 id="classes">Classes</h2>`, "<td>safety</td>", "breaker, backup never (person)", "R1: waits by class"} {
		if !strings.Contains(page, want) {
			t.Errorf("the HTML report lacks %q", want)
		}
	}
	md, text := markdownOf(t, r)
	if !strings.Contains(text, "## Classes") || !strings.Contains(text, "(r-charts/run-1-classes.png)") {
		t.Errorf("the Markdown report lacks the classes section:\n%s", text)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(md), "r-charts", "run-1-classes.png")); err != nil {
		t.Error(err)
	}
	if s := r.Runs[0].Summary; s.Classes["safety"].HandedOver != 1 || s.Classes["safety"].Emails != 4 {
		t.Errorf("safety: %+v", s.Classes["safety"])
	}

	plainRun, err := report.Build(smallPaths(t)[:1])
	if err != nil {
		t.Fatal(err)
	}
	plainRun.DPI = testDPI
	if strings.Contains(htmlOf(t, plainRun), `id="classes"`) {
		t.Error("a run without routes has a classes section")
	}
}
