package report_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/journal/journaltest"
	"github.com/drill-dev/drill/internal/report"
)

// sweepConfig is a sweep run's header config: a setting and repeat.
type sweepConfig struct {
	Outage string          `json:"outage"`
	Sweep  report.SweepTag `json:"sweep"`
}

// recordSweep writes settings × repeats synthetic runs tagged as a sweep:
// setting k (from 1) runs with a breaker when k is even, so the settings
// differ in their figures.
func recordSweep(t *testing.T, dir string, settings, repeats int) []string {
	t.Helper()
	var paths []string
	for k := 1; k <= settings; k++ {
		for r := 1; r <= repeats; r++ {
			path := filepath.Join(dir, fmt.Sprintf("%03d-r%d.jsonl", k, r))
			o := journaltest.Options{Emails: 30, From: 3, To: 10, Breaker: k%2 == 0, Seed: uint64(10*k + r)}
			record(t, path, o, sweepConfig{Outage: "busy", Sweep: report.SweepTag{Setting: k, Settings: settings,
				Flags: fmt.Sprintf("--outage busy --trip-failures %d", k), Repeat: r, Repeats: repeats}}, event.StatusCompleted)
			paths = append(paths, path)
		}
	}
	return paths
}

func TestTradeOffOfSweep(t *testing.T) {
	paths := recordSweep(t, t.TempDir(), 4, 2)
	rep, err := report.Build(paths)
	if err != nil {
		t.Fatal(err)
	}
	to := rep.TradeOff
	if to == nil {
		t.Fatal("a sweep's runs have no trade-off")
	}
	if len(to.Points) != 4 || len(to.Scenarios) != 1 || to.Scenarios[0] != "busy" {
		t.Fatalf("points %d scenarios %v", len(to.Points), to.Scenarios)
	}
	front := 0
	for i, p := range to.Points {
		if p.Setting != i+1 || len(p.Runs) != 2 || p.All4.N != 2 || p.Calls.N != 2 {
			t.Errorf("point %d: %+v", i, p)
		}
		if p.Runs[0] != 2*i || p.Runs[1] != 2*i+1 {
			t.Errorf("point %d: runs %v", i, p.Runs)
		}
		if !p.Dominated {
			front++
		}
	}
	if front == 0 {
		t.Error("no setting on the front")
	}
	rep.DPI = testDPI
	html := htmlOf(t, rep)
	for _, want := range []string{`<h2 id="tradeoff">Trade-off</h2>`, `alt="trade-off, busy outage"`, "<h3>The front</h3>", "--trip-failures"} {
		if !strings.Contains(html, want) {
			t.Errorf("HTML has no %q", want)
		}
	}
	md, text := markdownOf(t, rep)
	if !strings.Contains(text, "![trade-off, busy outage](r-charts/tradeoff-1.png)") {
		t.Errorf("Markdown has no trade-off chart:\n%s", text)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(md), "r-charts", "tradeoff-1.png")); err != nil {
		t.Error(err)
	}
}

func TestNoTradeOffWithoutSweep(t *testing.T) {
	rep, err := report.Build(smallPaths(t))
	if err != nil {
		t.Fatal(err)
	}
	if rep.TradeOff != nil {
		t.Errorf("runs not recorded by a sweep have a trade-off: %+v", rep.TradeOff)
	}
	one := recordSweep(t, t.TempDir(), 1, 2)
	if rep, err = report.Build(one); err != nil {
		t.Fatal(err)
	}
	if rep.TradeOff != nil {
		t.Error("one setting makes a trade-off chart")
	}
}

// TestFrontInsideSpread: two settings whose medians differ by less than
// their repeats' spread (setting 2 is setting 1's runs with its better run
// repeated, so its medians are better on every figure) are both on the
// front, as drill sweep's table and dashboard mark them (the same sweep in
// internal/sweep's and tui's tests).
func TestFrontInsideSpread(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for k, seeds := range [][]uint64{{6, 8}, {8, 6, 8}} {
		for r, seed := range seeds {
			path := filepath.Join(dir, fmt.Sprintf("%03d-r%d.jsonl", k+1, r+1))
			o := journaltest.Options{Emails: 40, From: 3, To: 12, Breaker: true, Seed: seed}
			record(t, path, o, sweepConfig{Outage: "busy", Sweep: report.SweepTag{Setting: k + 1, Settings: 2,
				Flags: fmt.Sprintf("--outage busy --trip-failures %d", k+5), Repeat: r + 1, Repeats: len(seeds)}}, event.StatusCompleted)
			paths = append(paths, path)
		}
	}
	rep, err := report.Build(paths)
	if err != nil {
		t.Fatal(err)
	}
	to := rep.TradeOff
	if to == nil || len(to.Points) != 2 {
		t.Fatalf("trade-off %+v", to)
	}
	a, b := to.Points[0], to.Points[1]
	if b.P95.Median >= a.P95.Median || b.Calls.Median >= a.Calls.Median || b.All4.Median < a.All4.Median {
		t.Fatalf("setting 2's medians are not better: %+v vs %+v", b, a)
	}
	if a.Dominated || b.Dominated {
		t.Errorf("dominated %v %v: a gap inside the repeats' spread makes no front", a.Dominated, b.Dominated)
	}
}
