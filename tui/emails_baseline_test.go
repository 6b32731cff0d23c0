package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/drill-dev/drill/scoring"
)

// replayedBaseline is a replayed baseline over a log, read through the
// fold's own scoring.Baseline as session.Baseline reads it.
type replayedBaseline struct{ b *scoring.Baseline }

func (r replayedBaseline) Name() string { return "no-breakers" }
func (r replayedBaseline) At(at time.Duration, whole bool) (scoring.BaselineSummary, bool) {
	return r.b.At(at, whole), true
}
func (r replayedBaseline) Email(id int) (scoring.EmailRecord, bool) { return r.b.Email(id) }

// emailsLines are the Emails pane's lines of the model's frame: the rows
// between its column header and its bottom border.
func emailsLines(t *testing.T, m *Model) []string {
	t.Helper()
	m.View()
	return m.ep.content
}

// TestEmailsPaneBaselineBars: b draws, under each email's row, the same
// email in the replayed baseline (its record from the baseline's fold),
// and b again hides it; the default frame has no baseline rows.
func TestEmailsPaneBaselineBars(t *testing.T) {
	at := secs(8)
	m := modelAt(t, 12, at, 120, 40, nil)
	m.base = replayedBaseline{scoring.NewBaseline("no-breakers", synthRun(12))}
	m.ingest(time.Unix(0, 0))
	before := emailsLines(t, m)
	if strings.Contains(strings.Join(before, "\n"), "baseline") {
		t.Fatalf("baseline rows before b:\n%s", strings.Join(before, "\n"))
	}
	m.Update(keyMsg("b"))
	after := emailsLines(t, m)
	var pairs int
	for i := 1; i+1 < len(after); i++ {
		row, base := after[i], after[i+1]
		if !strings.Contains(base, "baseline") || strings.TrimSpace(row) == "" {
			continue
		}
		pairs++
		// The baseline played the same log: its bar has the live bar's
		// glyphs in the same columns.
		if barOf(row) != barOf(base) {
			t.Errorf("baseline bar differs from the live one for the same log:\n%s\n%s", row, base)
		}
	}
	if pairs < 3 {
		t.Fatalf("want a baseline line under each row, got %d:\n%s", pairs, strings.Join(after, "\n"))
	}
	m.Update(keyMsg("b"))
	if got := emailsLines(t, m); strings.Contains(strings.Join(got, "\n"), "baseline") {
		t.Errorf("baseline rows after b twice:\n%s", strings.Join(got, "\n"))
	}
}

// barOf is a row's text after its wait column: the tag and the bar.
func barOf(line string) string {
	f := strings.Fields(line)
	for i, w := range f {
		if strings.ContainsAny(w, "█▓▒×░") {
			return strings.Join(f[i-1:], " ")
		}
	}
	return ""
}

// TestBaselineBarsNeedAReplayedBaseline: against real endpoints the
// baseline is predicted and has no log, so b says so and draws nothing.
func TestBaselineBarsNeedAReplayedBaseline(t *testing.T) {
	at := secs(8)
	m := modelAt(t, 12, at, 120, 40, nil)
	calls := [2]float64{140, 150}
	m.base = baselineStub{scoring.BaselineSummary{Basis: scoring.BaselinePredicted, PredictedCallsToBroken: &calls}}
	m.ingest(time.Unix(0, 0))
	m.Update(keyMsg("b"))
	if !strings.Contains(m.flash, "no replayed baseline") {
		t.Errorf("b against a predicted baseline: flash %q", m.flash)
	}
	if m.ep.showBase || strings.Contains(strings.Join(emailsLines(t, m), "\n"), "baseline") {
		t.Error("baseline rows drawn for a predicted baseline")
	}
}
