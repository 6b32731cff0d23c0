package report_test

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/journal/journaltest"
	"github.com/drill-dev/drill/internal/report"
)

// TestAlertsOnTheTimeAxis: an alert the run received is in the report, placed
// against the outage and the breaker's first open by the fold, and marked on
// the charts' time axis.
func TestAlertsOnTheTimeAxis(t *testing.T) {
	alert := event.Event{At: 5 * time.Second, Kind: event.AlertReceived,
		Alert: &event.Alert{Name: "BreakerOpen", Status: event.AlertFiring, Fingerprint: "f"}}
	var evs []event.Event
	for _, e := range journaltest.Run(journaltest.Options{Emails: 20, From: 2, To: 8, Follow: 6, Breaker: true, Seed: 11}) {
		if alert.Alert != nil && e.At > alert.At {
			evs, alert.Alert = append(evs, alert), nil
		}
		evs = append(evs, e)
	}
	path := filepath.Join(t.TempDir(), "alerted.jsonl")
	writeJournal(t, path, nil, evs, event.StatusCompleted)
	rep, err := report.Build([]string{path})
	if err != nil {
		t.Fatal(err)
	}
	run := rep.Runs[0]
	if len(run.Alerts) != 1 || run.Alerts[0].IntoOutage == nil || *run.Alerts[0].IntoOutage != 3*time.Second {
		t.Fatalf("alerts %+v, want BreakerOpen 3 s into the outage", run.Alerts)
	}
	first := run.Summary.BreakerFirstOpenS
	if first == nil || run.Alerts[0].AfterOpen == nil ||
		math.Abs(run.Alerts[0].AfterOpen.Seconds()-(3-*first)) > 0.001 {
		t.Errorf("after the open %v, want 3 s - first open (%v s)", run.Alerts[0].AfterOpen, *first)
	}
	rep.DPI = testDPI
	out := filepath.Join(t.TempDir(), "r.md")
	if err := rep.WriteFile(out); err != nil {
		t.Fatal(err)
	}
	md, _ := os.ReadFile(out)
	if !strings.Contains(string(md), "Alert received: alert BreakerOpen firing 3.0 s into the outage") {
		t.Errorf("report lacks the alert:\n%s", md)
	}
	// The mark draws on both time-axis charts.
	if _, err := report.RenderCharts(run, testDPI); err != nil {
		t.Fatal(err)
	}
}
