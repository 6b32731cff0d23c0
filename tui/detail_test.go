package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/drill-dev/drill/event"
)

// TestDetailColumnsAligned: an outcome wider than the column's head
// ("http_5xx 503 (busy)") widens the column, so "breaker met" starts on
// the same column on every call's row.
func TestDetailColumnsAligned(t *testing.T) {
	evs := []event.Event{
		{At: 0, Kind: event.RunStart, Run: &event.RunInfo{Emails: 1, Rate: 1, Outage: "busy"}},
		{At: 0, Kind: event.EmailSent, Email: 1},
		{At: 0, Kind: event.RungStart, Email: 1, Rung: "primary", Model: "gpt-5.4-mini"},
		{At: 0, Kind: event.AttemptStart, Email: 1, Rung: "primary", Model: "gpt-5.4-mini"},
		{At: 0, Kind: event.Fault, Email: 1, Rung: "primary", Model: "gpt-5.4-mini", Fault: "busy"},
		{At: sec(0.1), Kind: event.AttemptEnd, Email: 1, Rung: "primary", Model: "gpt-5.4-mini", Outcome: event.HTTP5xx, Status: 503},
		{At: sec(0.1), Kind: event.RungEnd, Email: 1, Rung: "primary", Model: "gpt-5.4-mini", Outcome: event.HTTP5xx},
		{At: sec(0.1), Kind: event.RungStart, Email: 1, Rung: "backup", Model: "gpt-5.4-nano"},
		{At: sec(0.1), Kind: event.AttemptStart, Email: 1, Rung: "backup", Model: "gpt-5.4-nano"},
		{At: sec(1.1), Kind: event.AttemptEnd, Email: 1, Rung: "backup", Model: "gpt-5.4-nano", Outcome: event.OK, Status: 200},
		{At: sec(1.1), Kind: event.RungEnd, Email: 1, Rung: "backup", Model: "gpt-5.4-nano", Outcome: event.OK},
		{At: sec(1.1), Kind: event.EmailDone, Email: 1, Result: &event.Result{ServedBy: "backup", Wait: sec(1.1)}},
	}
	for i := range evs {
		evs[i].Seq = int64(i)
	}
	s := newState(nil)
	s.addAll(evs)
	lines := renderDetail(asciiStyles(), s, 1, sec(2))
	col := -1
	rows := 0
	for _, l := range lines {
		l = ansi.Strip(l)
		if i := strings.Index(l, "breaker met"); i >= 0 {
			col = ansi.StringWidth(l[:i])
			continue
		}
		if col < 0 || !(strings.HasPrefix(l, "primary") || strings.HasPrefix(l, "backup")) {
			continue
		}
		rows++
		if !strings.Contains(l, "http_5xx 503 (busy)") && !strings.Contains(l, "ok 200") {
			t.Errorf("row lacks its whole outcome: %q", l)
		}
		r := []rune(l)
		if col >= len(r) || r[col-1] != ' ' || r[col] == ' ' {
			t.Errorf("breaker met not at column %d: %q", col, l)
		}
	}
	if rows != 2 {
		t.Fatalf("%d call rows under the head (col %d):\n%s", rows, col, strings.Join(lines, "\n"))
	}
}
