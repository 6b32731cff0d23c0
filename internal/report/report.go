package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/scoring"
)

// Report is a report over one or more runs, ready to write as HTML or
// Markdown.
type Report struct {
	Runs         []*Run
	Diffs        []SettingDiff // settings that differ between the runs
	SameSettings int           // settings every run shares
	// Pairs are the paired comparisons shown: by default MeaningfulPairs
	// (runs of the same outage, each against the first listed), or the
	// pairs named with SetPairs.
	Pairs []Pair
	// Hypotheses are judged on every run in the overview (PASS or FAIL).
	Hypotheses []scoring.Expr
	// TradeOff is the runs' settings when they form a sweep (tradeoff.go);
	// nil if not.
	TradeOff *TradeOff
	// tradeOffImages are the trade-off charts' image sources in Markdown.
	tradeOffImages []string
	// classImages are the waits-by-class charts' sources in Markdown, per
	// run ("" for a run without routes; classes.go).
	classImages []string
	// DPI is the resolution charts are drawn at; DefaultDPI if 0.
	DPI int
	// ChartedRuns is how many runs, the first listed, get charts;
	// MaxChartedRuns if 0.
	ChartedRuns int
}

// Build loads the journals and computes everything a report shows.
func Build(paths []string) (*Report, error) {
	runs, err := LoadAll(paths)
	if err != nil {
		return nil, err
	}
	return FromRuns(runs), nil
}

// FromRuns computes a report over runs already loaded.
func FromRuns(runs []*Run) *Report {
	diffs, same := Differences(runs)
	return &Report{Runs: runs, Diffs: diffs, SameSettings: same, Pairs: MeaningfulPairs(runs), TradeOff: TradeOffOf(runs)}
}

// SetPairs replaces the paired comparisons by the ones named: each spec is
// "A,B", a run named by its tag (R1), its number (1) or its label
// (hang/breaker, spaces optional). Runs given different emails cannot be
// paired.
func (r *Report) SetPairs(specs []string) error {
	var pairs []Pair
	for _, spec := range specs {
		parts := strings.Split(spec, ",")
		if len(parts) != 2 {
			return fmt.Errorf("--pair %q: write two runs, A,B (e.g. R1,R3 or hang/primary-only,hang/breaker)", spec)
		}
		var idx [2]int
		for k, name := range parts {
			i, err := r.runIndex(strings.TrimSpace(name))
			if err != nil {
				return fmt.Errorf("--pair %q: %w", spec, err)
			}
			idx[k] = i
		}
		if idx[0] == idx[1] {
			return fmt.Errorf("--pair %q: a run compared with itself", spec)
		}
		p, ok := pairOf(r.Runs, idx[0], idx[1])
		if !ok {
			return fmt.Errorf("--pair %q: %s and %s were not given the same emails", spec, runTag(idx[0]), runTag(idx[1]))
		}
		pairs = append(pairs, p)
	}
	r.Pairs = pairs
	return nil
}

// runIndex finds a run by tag (R2), number (2) or label (hang/breaker).
func (r *Report) runIndex(name string) (int, error) {
	n := strings.TrimPrefix(strings.ToUpper(name), "R")
	if i, err := strconv.Atoi(n); err == nil {
		if i < 1 || i > len(r.Runs) {
			return 0, fmt.Errorf("no run %s: the runs are R1 to R%d", name, len(r.Runs))
		}
		return i - 1, nil
	}
	want := strings.ReplaceAll(name, " ", "")
	found := -1
	var labels []string
	for i, run := range r.Runs {
		l := strings.ReplaceAll(run.Label(), " ", "")
		labels = append(labels, l)
		if l == want {
			if found >= 0 {
				return 0, fmt.Errorf("%s names two runs (%s and %s): use their tags", name, runTag(found), runTag(i))
			}
			found = i
		}
	}
	if found < 0 {
		return 0, fmt.Errorf("no run %s: the runs are %s (or R1 to R%d)", name, strings.Join(labels, ", "), len(r.Runs))
	}
	return found, nil
}

// table is a table for either output format: plain's, which a command
// also prints as aligned text (SummaryTable, FleetTable). The report
// writes it with its own Markdown (mdTable, escaped) and HTML writers.
type table = plain.Table

// runTag names run i (0-based) in column heads: R1, R2, ...
func runTag(i int) string { return fmt.Sprintf("R%d", i+1) }

// runsTable is the chapter-style table across all runs.
func (r *Report) runsTable() table {
	sums := make([]scoring.Summary, len(r.Runs))
	for i, run := range r.Runs {
		sums[i] = run.Summary
	}
	t := SummaryTable(sums)
	t.Head = append([]string{"Run"}, t.Head...)
	for i, run := range r.Runs {
		t.Rows[i] = append([]string{runTag(i)}, t.Rows[i]...)
		if run.Meta.CutShort() {
			last := len(t.Rows[i]) - 1
			t.Rows[i][last] += " (journal cut short)"
		}
	}
	return t
}

// SummaryTable is the chapter's table, one row per run summary: the
// report's, and what a command prints as text or Markdown.
func SummaryTable(sums []scoring.Summary) plain.Table {
	followed := "Followed email" // none followed (a proxy's run has no emails)
	if len(sums) > 0 && sums[0].Followed.Email > 0 {
		followed = fmt.Sprintf("Email %d", sums[0].Followed.Email)
	}
	t := table{Head: []string{
		"Outage", "Policy", "primary / backup / canned / error", "All 4 right (95% CI)",
		"Typical wait, outage", "p95 wait, outage", followed, "Calls to broken model, outage",
		"Breaker first open", "Primary back after", "Status",
	}}
	for _, s := range sums {
		basis := plain.Basis(s)
		t.Rows = append(t.Rows, []string{
			format.Text(s.OutageLabel()), format.Text(s.Policy),
			plain.Served(s.Served), plain.All4(s),
			format.Seconds(s.MedianWaitOutageS) + basis, format.Seconds(s.P95WaitOutageS) + basis,
			plain.Followed(s.Followed), fmt.Sprint(s.CallsToBrokenOutage) + basis,
			format.Seconds(s.BreakerFirstOpenS) + basis, format.Seconds(s.PrimaryBackS) + basis,
			plain.Status(s),
		})
	}
	return t
}

// WriteSummaryTable writes the chapter's table for run summaries as
// Markdown (what `drill compare` prints to a file or a pipe).
func WriteSummaryTable(w io.Writer, sums []scoring.Summary) error {
	var b strings.Builder
	mdTable(&b, SummaryTable(sums))
	_, err := io.WriteString(w, b.String())
	return err
}

func orDash(s string) string { return format.Text(s) }

// diffTable lists the settings that differ, one column per run.
func (r *Report) diffTable() table {
	t := table{Head: []string{"Setting"}}
	for i := range r.Runs {
		t.Head = append(t.Head, runTag(i))
	}
	for _, d := range r.Diffs {
		t.Rows = append(t.Rows, append([]string{d.Name}, d.Values...))
	}
	return t
}

// pairsTable lists the paired comparisons.
func (r *Report) pairsTable() table {
	t := table{Head: []string{
		"Run A", "Run B", "Emails both answered", "All 4 right, A", "All 4 right, B", "All 4 right, B − A",
		"Right only in A", "Right only in B", "p (McNemar, exact)",
		"Median outage wait, A", "Median outage wait, B", "Median outage wait, B − A",
	}}
	for _, p := range r.Pairs {
		dw := format.Dash
		if d, ok := p.DiffMedianWait(); ok {
			dw = format.SignedSecs(d)
		}
		t.Rows = append(t.Rows, []string{
			runTag(p.A) + " " + r.Runs[p.A].Label(), runTag(p.B) + " " + r.Runs[p.B].Label(), fmt.Sprint(p.N), format.Percent(p.All4A), format.Percent(p.All4B),
			format.SignedPoints(p.DiffAll4()), fmt.Sprint(p.OnlyA), fmt.Sprint(p.OnlyB),
			format.PValue(p.P), format.Seconds(p.MedianWaitA), format.Seconds(p.MedianWaitB), dw,
		})
	}
	return t
}

// diffIntro is the sentence above the settings table.
func (r *Report) diffIntro() string {
	switch {
	case len(r.Runs) == 1:
		return "One run; there is nothing to compare its settings with."
	case len(r.Diffs) == 0:
		return fmt.Sprintf("All %d runs have the same settings (%d settings compared).", len(r.Runs), r.SameSettings)
	default:
		return fmt.Sprintf("These settings differ between the runs; the other %d are the same in every run.", r.SameSettings)
	}
}

// pairsIntro is the sentence above the paired comparisons.
func (r *Report) pairsIntro() string {
	if len(r.Pairs) == 0 {
		if len(r.Runs) < 2 {
			return "Paired comparisons need two or more runs of the same emails."
		}
		return "No two runs were given the same emails, so no paired comparison is possible."
	}
	return "Each row compares run B with run A over the same emails: runs of the same outage, each against the first listed " +
		"(or the pairs named with --pair). All 4 right is each run's share over the emails it answered, as in the runs table; " +
		"the test counts the emails right in one run and wrong in the other."
}

// pValueNote explains the p-value in one sentence.
const pValueNote = "p is the chance of a split between \"right only in A\" and \"right only in B\" at least this uneven if the two runs were equally good " +
	"(McNemar's exact test): below 0.05 the difference is unlikely to be luck, above it the runs may well be equally good."

// runFacts describes one run above its charts, as plain sentences.
func runFacts(run *Run) []string {
	h := run.Meta.Header
	facts := []string{
		fmt.Sprintf("Journal %s, status %s.", run.Path, run.Status()),
		fmt.Sprintf("Recorded %s by drill %s (%s, openai-go %s).", h.Start.UTC().Format(time.RFC3339), orDash(h.DrillVersion), orDash(h.GoVersion), orDash(h.OpenAIGoVersion)),
	}
	if run.Summary.Clock == event.ClockVirtual {
		facts = append(facts, "Clock: virtual (run with --clock virtual in a testing/synctest bubble: every time is virtual time; the code is that of a real-time run).")
	}
	if run.Meta.CutShort() {
		cut := "it ends without a summary line"
		if run.Meta.Truncated {
			cut = "its last line was cut in the middle"
		}
		facts = append(facts, fmt.Sprintf("The run was cut short (%s); the figures cover the %d events up to the cut, %s.", cut, run.Meta.Events, format.Dur(run.End)))
	}
	if s := run.Summary; s.NotSent > 0 || s.NeverAnswered > 0 || s.Served.Rejected > 0 || s.Served.Cancelled > 0 {
		fact := fmt.Sprintf("Of %d emails, %d were sent and %d answered", s.Emails, s.EmailsSent, s.EmailsAnswered)
		var apart []string
		if s.NotSent > 0 {
			apart = append(apart, fmt.Sprintf("%d not sent: %s", s.NotSent, format.Text(s.NotSentReason)))
		}
		if n := s.Served.Rejected; n > 0 {
			apart = append(apart, fmt.Sprintf("%d rejected by the worker pool", n))
		}
		if n := s.Served.Cancelled; n > 0 {
			apart = append(apart, fmt.Sprintf("%d cut off by the run's end", n))
		}
		if len(apart) > 0 {
			fact += " (" + strings.Join(apart, "; ") + ")"
		}
		facts = append(facts, fact+fmt.Sprintf("; quality is over the %d answered.", s.EmailsAnswered))
	}
	for i, w := range run.Windows {
		if w.Basis != scoring.BasisInjected {
			continue // observed windows are listed below
		}
		how := "scheduled"
		if w.ByHand {
			how = "by hand"
		}
		span := format.DurSpan(w.From, w.To)
		if i < len(run.StillOn) && run.StillOn[i] {
			span = "from " + format.Dur(w.From) + ", still on when the journal ends at " + format.Dur(w.To)
		}
		facts = append(facts, fmt.Sprintf("Outage %s on the %s model %s (injected, %s).", orDash(w.Kind), orDash(w.Target), span, how))
	}
	for _, o := range run.Summary.Observed {
		facts = append(facts, fmt.Sprintf("Observed failures of the %s model (%s): %s, %d failed calls.", o.Rung, orDash(o.Model), format.Span(o.StartS, o.EndS), o.FailedAttempts))
	}
	var open []string
	for _, s := range run.BreakerOpen {
		open = append(open, format.DurSpan(s.Start, s.End))
	}
	if len(open) > 0 {
		facts = append(facts, "Breaker open: "+strings.Join(open, ", ")+".")
	}
	for _, a := range run.Alerts {
		facts = append(facts, "Alert received: "+plain.AlertNote(a)+".")
	}
	facts = append(facts, predictedFacts(run.Summary)...)
	facts = append(facts, baselineFacts(run.Summary)...)
	return append(facts, proxyFacts(run.Proxy)...)
}
