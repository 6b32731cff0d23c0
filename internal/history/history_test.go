package history_test

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/drill-dev/drill/breaker"
	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/history"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

// record runs cfg to its end in the current synctest bubble (the
// in-process fake model) and records it at path as a run started at date.
func record(t *testing.T, cfg workload.Config, path string, date time.Time) scoring.Summary {
	t.Helper()
	cfg.Endpoint.Transport = fakemodel.New(fakemodel.Options{Seed: cfg.Seed, LatencyScale: 1}).Transport()
	cfg.Clock = event.ClockVirtual
	run, err := workload.Start(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	h, err := journal.NewHeader(cfg, date)
	if err != nil {
		t.Fatal(err)
	}
	h.Clock = event.ClockVirtual
	w, err := journal.Create(path, h, run.Log(), journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	status := run.Wait()
	f := scoring.NewFold()
	f.AddLog(run.Log())
	sum := f.Summary()
	if err := w.Finish(sum, status); err != nil {
		t.Fatal(err)
	}
	return sum
}

func month(m time.Month) time.Time { return time.Date(2026, m, 2, 9, 30, 0, 0, time.UTC) }

// monthlyDrills records the chapter's busy/breaker drill three months
// running with different settings — January seed 1, February seed 2,
// March seed 3 with the breaker loosened to 20 failures (the regression) —
// and one hang/breaker drill, a group of its own. File names do not sort
// by date.
func monthlyDrills(t *testing.T) (dir string, sums map[string]scoring.Summary) {
	dir = t.TempDir()
	sums = map[string]scoring.Summary{}
	synctest.Test(t, func(t *testing.T) {
		jan := workload.DefaultConfig()
		sums["jan"] = record(t, jan, filepath.Join(dir, "c-jan.jsonl"), month(time.January))
		feb := workload.DefaultConfig()
		feb.Seed = 2
		sums["feb"] = record(t, feb, filepath.Join(dir, "b-feb.jsonl"), month(time.February))
		mar := workload.DefaultConfig()
		mar.Seed = 3
		loose := *mar.Policy.Primary.Breaker
		loose.Trip = breaker.Trip{Failures: 20, Window: 10 * time.Second}
		mar.Policy.Primary.Breaker = &loose
		sums["mar"] = record(t, mar, filepath.Join(dir, "a-mar.jsonl"), month(time.March))
		hang := workload.DefaultConfig()
		hang.Outage = "hang"
		sums["hang"] = record(t, hang, filepath.Join(dir, "d-hang.jsonl"), month(time.March))
	})
	return dir, sums
}

// TestHistoryFlagsTheRegression: three months of the same drill are one
// group in date order, March's loosened breaker is flagged on calls to the
// broken model and the breaker's first open, and the expectation against
// the previous month fails with exit 1.
func TestHistoryFlagsTheRegression(t *testing.T) {
	dir, sums := monthlyDrills(t)
	if j, m := sums["jan"].CallsToBrokenOutage, sums["mar"].CallsToBrokenOutage; m <= j*12/10 {
		t.Fatalf("March's drill is no regression: calls to the broken model %d, January %d", m, j)
	}
	groups, err := history.Load(t.Context(), []string{dir}, history.ByOutagePolicy)
	if err != nil {
		t.Fatal(err)
	}
	if len(groups) != 2 || groups[0].Key != "busy × breaker" || groups[1].Key != "hang × breaker" {
		t.Fatalf("groups = %v, want busy × breaker and hang × breaker", keys(groups))
	}
	busy := groups[0]
	if len(busy.Runs) != 3 || !busy.Runs[0].Date.Equal(month(time.January)) || !busy.Runs[2].Date.Equal(month(time.March)) {
		t.Fatalf("busy runs = %v, want January, February, March", busy.Runs)
	}
	flagged := map[string]int{} // figure -> run flagged
	for _, r := range busy.Regressions() {
		flagged[r.Figure.Name] = r.Run
	}
	for _, f := range []string{"calls_to_broken_outage", "breaker_first_open_s"} {
		if run, ok := flagged[f]; !ok || run != 2 {
			t.Errorf("%s: flagged on run %d (%v), want March (2); flags %v", f, run, ok, flagged)
		}
	}

	var out bytes.Buffer
	err = history.Report(t.Context(), &out, []string{dir}, history.ByOutagePolicy,
		[]string{"calls_to_broken_outage <= previous * 1.2", "all4_right >= 0.5"})
	text := out.String()
	t.Logf("drill history:\n%s", text)
	// The hang drill's lone run has nothing to compare with: exit 2.
	if err == nil || exit.Code(err) != exit.Usage || !strings.Contains(err.Error(), "hang × breaker: calls_to_broken_outage <= previous * 1.2") {
		t.Errorf("Report = %v (exit %d), want exit 2 naming the lone hang run's expectation", err, exit.Code(err))
	}
	busyOnly := []string{filepath.Join(dir, "a-mar.jsonl"), filepath.Join(dir, "b-feb.jsonl"), filepath.Join(dir, "c-jan.jsonl")}
	err = history.Report(t.Context(), &bytes.Buffer{}, busyOnly, history.ByOutagePolicy, []string{"calls_to_broken_outage <= previous * 1.2"})
	if err == nil || exit.Code(err) != exit.Failed || !strings.Contains(err.Error(), "calls_to_broken_outage <= previous * 1.2") {
		t.Errorf("Report = %v (exit %d), want exit 1 naming the failed expectation", err, exit.Code(err))
	}
	for _, want := range []string{
		"busy × breaker (3 runs)", "2026-01-02", "2026-02-02", "2026-03-02",
		"regression: 2026-03-02 calls_to_broken_outage",
		"calls_to_broken_outage <= previous * 1.2  busy × breaker  FAIL",
		"calls_to_broken_outage <= previous * 1.2  hang × breaker  no history",
		"all4_right >= 0.5                         busy × breaker  PASS",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	row := line(text, "calls_to_broken_outage ")
	if !strings.HasSuffix(strings.TrimSpace(row), history.RegressionMark[1:]) {
		t.Errorf("the calls_to_broken_outage row does not end with March's flag: %q", row)
	}

	// Without March, the history holds.
	if err := history.Report(t.Context(), &bytes.Buffer{}, []string{filepath.Join(dir, "c-jan.jsonl"), filepath.Join(dir, "b-feb.jsonl")},
		history.ByOutagePolicy, []string{"calls_to_broken_outage <= previous * 1.2"}); err != nil {
		t.Errorf("January and February: %v, want no failure", err)
	}
}

// TestExpectationBounds: each reference resolves against the earlier runs.
func TestExpectationBounds(t *testing.T) {
	run := func(calls float64) history.Run {
		return history.Run{Figures: map[string]any{"calls_to_broken_outage": calls, "breaker_first_open_s": nil}}
	}
	g := history.Group{Key: "g", Runs: []history.Run{run(10), run(20), run(12), run(15)}}
	for _, c := range []struct {
		expr  string
		bound float64
		pass  bool
	}{
		{"calls_to_broken_outage <= previous * 1.2", 14.4, false},
		{"calls_to_broken_outage <= max", 20, true},
		{"calls_to_broken_outage <= min + 4", 14, false},
		{"calls_to_broken_outage <= mean", 14, false},
		{"calls_to_broken_outage <= median + 3", 15, true},
		{"calls_to_broken_outage >= first - 1", 9, true},
		{"calls_to_broken_outage < 16", 16, true},
	} {
		e, err := history.ParseExpectation(c.expr)
		if err != nil {
			t.Fatal(err)
		}
		j := history.Judge([]history.Group{g}, []history.Expectation{e})[0]
		if !j.Judged || j.Bound == nil || *j.Bound-c.bound > 1e-9 || c.bound-*j.Bound > 1e-9 || j.Pass != c.pass {
			t.Errorf("%s: judged %v, bound %v, pass %v; want bound %v, pass %v", c.expr, j.Judged, j.Bound, j.Pass, c.bound, c.pass)
		}
	}
	e, _ := history.ParseExpectation("breaker_first_open_s <= previous")
	if j := history.Judge([]history.Group{g}, []history.Expectation{e})[0]; j.Judged {
		t.Errorf("a figure no earlier run measured was judged: %+v", j)
	}
	for _, bad := range []string{"calls_to_broken_outage <= last", "calls_to_broken_outage <= previous * x",
		"calls_to_brokn <= previous", "calls_to_broken_outage previous"} {
		if _, err := history.ParseExpectation(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
	if err := history.Report(t.Context(), &bytes.Buffer{}, []string{t.TempDir()}, history.ByOutagePolicy, []string{"x <= previous"}); exit.Code(err) != exit.Usage {
		t.Errorf("a bad expectation: %v, want a usage error", err)
	}
}

// TestNothingToCompareIsAUsageError: an expectation against the earlier
// runs (previous, max, min…) on a lone run, or on runs none of which
// measured the figure, checked nothing: exit 2 saying so, never a pass.
func TestNothingToCompareIsAUsageError(t *testing.T) {
	one := history.Group{Key: "busy × breaker", Runs: []history.Run{{Figures: map[string]any{"calls_to_broken_outage": 10.0, "breaker_first_open_s": nil}}}}
	two := history.Group{Key: "hang × breaker", Runs: []history.Run{
		{Figures: map[string]any{"calls_to_broken_outage": 10.0, "breaker_first_open_s": nil}},
		{Figures: map[string]any{"calls_to_broken_outage": 12.0, "breaker_first_open_s": 3.0}}}}
	for _, c := range []struct {
		group history.Group
		expr  string
		why   string
	}{
		{one, "calls_to_broken_outage <= previous", "one run"},
		{one, "calls_to_broken_outage <= max + 2", "one run"},
		{one, "calls_to_broken_outage >= min", "one run"},
		{two, "breaker_first_open_s <= previous", "did not measure"},
		{two, "breaker_first_open_s <= max", "none of the 1 earlier runs"},
	} {
		e, err := history.ParseExpectation(c.expr)
		if err != nil {
			t.Fatal(err)
		}
		tr := history.Trend{Groups: []history.Group{c.group}, Judgements: history.Judge([]history.Group{c.group}, []history.Expectation{e})}
		err = tr.Err()
		if exit.Code(err) != exit.Usage || !strings.Contains(err.Error(), "nothing to compare") || !strings.Contains(err.Error(), c.why) {
			t.Errorf("%s on %s: %v (exit %d), want exit 2 saying nothing to compare (%s)", c.expr, c.group.Key, err, exit.Code(err), c.why)
		}
	}
	// A plain number needs no history.
	e, _ := history.ParseExpectation("calls_to_broken_outage <= 20")
	if err := (history.Trend{Judgements: history.Judge([]history.Group{one}, []history.Expectation{e})}).Err(); err != nil {
		t.Errorf("a plain bound on one run: %v", err)
	}
}

// TestDatesNameEachRun: runs on one day are told apart by the minute,
// runs in one minute by the second, runs in one second by a number.
func TestDatesNameEachRun(t *testing.T) {
	at := func(h, m, s int) history.Run { return history.Run{Date: time.Date(2026, 12, 4, h, m, s, 0, time.UTC)} }
	g := history.Group{Runs: []history.Run{at(9, 0, 0), at(16, 20, 5), at(16, 20, 41), at(16, 20, 41), {Date: time.Date(2026, 11, 4, 9, 0, 0, 0, time.UTC)}}}
	got := history.Dates(g)
	want := []string{"2026-12-04 09:00", "2026-12-04 16:20:05", "2026-12-04 16:20:41 #1", "2026-12-04 16:20:41 #2", "2026-11-04"}
	if !slices.Equal(got, want) {
		t.Errorf("Dates = %q, want %q", got, want)
	}
}

func keys(gs []history.Group) []string {
	var out []string
	for _, g := range gs {
		out = append(out, g.Key)
	}
	return out
}

// line is the first line of text that starts with prefix.
func line(text, prefix string) string {
	for l := range strings.SplitSeq(text, "\n") {
		if strings.HasPrefix(l, prefix) {
			return l
		}
	}
	return ""
}

// TestHeadlineCostOnlyWhenPriced: a drill whose models have no price (the
// built-in fake model) shows no cost row of zeros; one priced run of the
// drill brings the row back.
func TestHeadlineCostOnlyWhenPriced(t *testing.T) {
	hasCost := func(g history.Group) bool {
		return slices.ContainsFunc(g.Headline(), func(f history.Figure) bool { return f.Name == "cost.total" })
	}
	unpriced := history.Run{Summary: scoring.Summary{Cost: scoring.CostSummary{ByRung: map[string]float64{"primary": 0}, Unpriced: []string{"gpt-5.4-mini"}}}}
	priced := history.Run{Summary: scoring.Summary{Cost: scoring.CostSummary{Total: 0.12, ByRung: map[string]float64{"primary": 0.12}}}}
	if hasCost(history.Group{Runs: []history.Run{unpriced, unpriced}}) {
		t.Error("unpriced runs show a cost row")
	}
	if !hasCost(history.Group{Runs: []history.Run{unpriced, priced}}) {
		t.Error("a priced run shows no cost row")
	}
}
