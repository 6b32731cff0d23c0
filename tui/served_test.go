package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/scoring"
)

// TestServedSegmentShowsRejectedAndHandedOver: the summary's served counts
// add the worker pool's rejections (R) and the emails handed to a person
// (H) when there are any, lettered as the Emails pane tags them, and keep
// the four counts alone otherwise.
func TestServedSegmentShowsRejectedAndHandedOver(t *testing.T) {
	for _, c := range []struct {
		served scoring.Served
		want   string
	}{
		{scoring.Served{Primary: 67, Backup: 53}, "served P/B/C/E 67/53/0/0"},
		{scoring.Served{Primary: 322, Backup: 20, Rejected: 258}, "served P/B/C/E/R 322/20/0/0/258"},
		{scoring.Served{Primary: 100, Backup: 10, Canned: 2, Error: 1, HandedOver: 7}, "served P/B/C/E/H 100/10/2/1/7"},
		{scoring.Served{Primary: 1, HandedOver: 2, Rejected: 3}, "served P/B/C/E/H/R 1/0/0/0/2/3"},
	} {
		segs := summarySegments(asciiStyles(), scoring.Summary{Served: c.served})
		if got := strings.Join(segs, " · "); !strings.Contains(got, c.want) {
			t.Errorf("%+v: summary %q lacks %q", c.served, got, c.want)
		}
	}
}

// TestSweepDashboardShowsRejected: the sweep dashboard's served column adds
// R when a run's worker pool rejected emails, the head and the cells
// aligned.
func TestSweepDashboardShowsRejected(t *testing.T) {
	l := event.NewLog(time.Unix(0, 0))
	l.AppendRecorded(event.Event{Kind: event.RunStart, Run: &event.RunInfo{Outage: "hang", Policy: "fallback", Emails: 3, Rate: 1, MaxInFlight: 1}})
	for id, by := range []string{event.ServedPrimary, event.ServedRejected, event.ServedRejected} {
		l.AppendRecorded(event.Event{At: time.Duration(id) * time.Second, Kind: event.EmailSent, Email: id + 1})
		l.AppendRecorded(event.Event{At: time.Duration(id)*time.Second + time.Millisecond, Kind: event.EmailDone, Email: id + 1,
			Result: &event.Result{ServedBy: by, Wait: time.Millisecond}})
	}
	l.AppendRecorded(event.Event{At: 4 * time.Second, Kind: event.RunEnd})
	src := SweepSource{Labels: []string{"--max-in-flight 1"}, Logs: func(int) []*event.Log { return []*event.Log{l} }}
	m := newSweepModel(src, time.Second, sweepState{}, asciiRenderer())
	view := m.View()
	var head, row string
	for line := range strings.SplitSeq(view, "\n") {
		switch {
		case strings.Contains(line, "progress"):
			head = line
		case strings.Contains(line, "3/3"):
			row = line
		}
	}
	if !strings.Contains(head, "P / B / C / E / R") || !strings.Contains(row, "1 / 0 / 0 / 0 / 2") {
		t.Fatalf("served column lacks the rejections:\n%s", view)
	}
	// The p95 wait column is right-aligned: its head and the row's dash
	// (no email waited in an outage) end in the same column.
	if end := strings.Index(head, "p95 wait") + len("p95 wait"); strings.Index(row, "—")+1 != end {
		t.Errorf("head and row not aligned:\n%s\n%s", head, row)
	}
}
