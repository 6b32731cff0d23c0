package plain

import (
	"slices"
	"testing"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/sweep"
	"github.com/drill-dev/drill/scoring"
)

// TestServedColumnsAddWhatHappened: the four servers always, handed over
// and rejected only when some email went their way, each with its count.
func TestServedColumnsAddWhatHappened(t *testing.T) {
	s := scoring.Served{Primary: 1, Backup: 2, Canned: 3, Error: 4, Rules: 5, HandedOver: 6, Rejected: 7, Cancelled: 8}
	want := []string{event.ServedPrimary, event.ServedBackup, event.ServedCanned, event.ServedError, event.ServedHandedOver, event.ServedRejected}
	if got := ServedColumnsOf(s); !slices.Equal(got, want) {
		t.Errorf("columns %v, want %v", got, want)
	}
	for i, server := range append(want, event.ServedRules) {
		if n := ServedOf(s, server); n != []int{1, 2, 3, 4, 6, 7, 5}[i] {
			t.Errorf("ServedOf(%s) = %d", server, n)
		}
	}
	if got := ServedColumnsOf(scoring.Served{Primary: 9}); !slices.Equal(got, want[:4]) {
		t.Errorf("a run without handovers or rejections: columns %v, want %v", got, want[:4])
	}
}

// TestSweepServedColumn: the sweep table's served column adds handed over
// and rejected when any row had some, with each row's medians.
func TestSweepServedColumn(t *testing.T) {
	row := func(primary, backup, rejected float64) sweep.Row {
		return sweep.Row{Figures: map[string]scoring.Stat{
			"served.primary": {Median: primary, Min: primary, Max: primary, N: 1},
			"served.backup":  {Median: backup, Min: backup, Max: backup, N: 1},
			"served.canned":  {N: 1}, "served.error": {N: 1}, "served.handed_over": {N: 1},
			"served.rejected": {Median: rejected, Min: rejected, Max: rejected, N: 1},
		}}
	}
	cell := func(tb Table, row int, head string) string {
		t.Helper()
		i := slices.Index(tb.Head, head)
		if i < 0 {
			t.Fatalf("no column %q in %q", head, tb.Head)
		}
		return tb.Rows[row][i]
	}
	res := &sweep.Result{Settings: 2, Repeats: 1, Clock: "virtual", Rows: []sweep.Row{row(322, 20, 258), row(29, 571, 0)}}
	tb := SweepRows(res)
	head := "primary / backup / canned / error / rejected"
	if got := cell(tb, 0, head); got != "322 / 20 / 0 / 0 / 258" {
		t.Errorf("row 1 served %q", got)
	}
	if got := cell(tb, 1, head); got != "29 / 571 / 0 / 0 / 0" {
		t.Errorf("row 2 served %q", got)
	}
	res.Rows = res.Rows[1:]
	if got := cell(SweepRows(res), 0, "primary / backup / canned / error"); got != "29 / 571 / 0 / 0" {
		t.Errorf("no rejections: served %q", got)
	}
}

// TestServedColumnsOfFigures: rows of aggregated figures add a column for
// handed over or rejected when any run of any row had some.
func TestServedColumnsOfFigures(t *testing.T) {
	rows := []map[string]scoring.Stat{
		{"served.primary": {Median: 9, Max: 9}},
		{"served.rejected": {Median: 0, Max: 2}},
	}
	want := []string{event.ServedPrimary, event.ServedBackup, event.ServedCanned, event.ServedError, event.ServedRejected}
	if got := ServedColumnsOfFigures(rows); !slices.Equal(got, want) {
		t.Errorf("columns %v, want %v", got, want)
	}
	if got := ServedColumnsOfFigures(rows[:1]); !slices.Equal(got, want[:4]) {
		t.Errorf("no row with rejections: columns %v, want %v", got, want[:4])
	}
}
