package report

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/scoring"
)

// Report is a report over one or more runs, ready to write as HTML or
// Markdown.
type Report struct {
	Runs         []*Run
	Diffs        []SettingDiff // settings that differ between the runs
	SameSettings int           // settings every run shares
	Pairs        []Pair        // paired comparisons of runs of the same emails
	// DPI is the resolution charts are drawn at; DefaultDPI if 0.
	DPI int
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
	return &Report{Runs: runs, Diffs: diffs, SameSettings: same, Pairs: Pairs(runs)}
}

// table is a table for either output format.
type table struct {
	Head []string
	Rows [][]string
}

// runTag names run i (0-based) in column heads: R1, R2, ...
func runTag(i int) string { return fmt.Sprintf("R%d", i+1) }

// secs formats an optional number of seconds.
func secs(p *float64) string {
	if p == nil {
		return "—"
	}
	return fmt.Sprintf("%.1f s", *p)
}

func pct(x float64) string { return fmt.Sprintf("%.0f%%", 100*x) }

// followed formats the followed email's fate, as the chapter's Marcus column.
func followed(f scoring.Followed) string {
	switch {
	case f.WaitS == nil && f.SentS == nil:
		return "not sent"
	case f.WaitS == nil:
		return "not answered"
	case f.ServedBy == event.ServedError:
		return fmt.Sprintf("error, %.1f s", *f.WaitS)
	default:
		return fmt.Sprintf("%.1f s (%s)", *f.WaitS, f.ServedBy)
	}
}

// runsTable is the chapter-style table across all runs.
func (r *Report) runsTable() table {
	sums := make([]scoring.Summary, len(r.Runs))
	for i, run := range r.Runs {
		sums[i] = run.Summary
	}
	t := summaryTable(sums)
	t.Head = append([]string{"Run"}, append(t.Head, "Status")...)
	for i, run := range r.Runs {
		status := run.Status()
		if run.Meta.CutShort() {
			status += " (cut short)"
		}
		t.Rows[i] = append([]string{runTag(i)}, append(t.Rows[i], status)...)
	}
	return t
}

// summaryTable is the chapter's table, one row per run summary.
func summaryTable(sums []scoring.Summary) table {
	follow := 0
	if len(sums) > 0 {
		follow = sums[0].Followed.Email
	}
	t := table{Head: []string{
		"Outage", "Policy", "primary / backup / canned / error", "All 4 right (95% CI)",
		"Typical wait, outage", "p95 wait, outage", fmt.Sprintf("Email %d", follow), "Calls to broken model, outage",
		"Breaker first open", "Primary back after",
	}}
	for _, s := range sums {
		t.Rows = append(t.Rows, []string{
			orDash(s.Outage), orDash(s.Policy),
			fmt.Sprintf("%d / %d / %d / %d", s.Served.Primary, s.Served.Backup, s.Served.Canned, s.Served.Error),
			fmt.Sprintf("%s (%.0f–%s)", pct(s.All4Right), 100*s.All4RightCI95[0], pct(s.All4RightCI95[1])),
			secs(s.MedianWaitOutageS), secs(s.P95WaitOutageS), followed(s.Followed), fmt.Sprint(s.CallsToBrokenOutage),
			secs(s.BreakerFirstOpenS), secs(s.PrimaryBackS),
		})
	}
	return t
}

// WriteSummaryTable writes the chapter's table for run summaries as
// Markdown (what `drill compare` prints).
func WriteSummaryTable(w io.Writer, sums []scoring.Summary) error {
	var b strings.Builder
	mdTable(&b, summaryTable(sums))
	_, err := io.WriteString(w, b.String())
	return err
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

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
		"A", "B", "Emails", "All 4 right, A", "All 4 right, B", "Difference (B − A)",
		"Right only in A", "Right only in B", "p (McNemar, exact)",
		"Median wait in outage, A", "B", "Difference (B − A)",
	}}
	for _, p := range r.Pairs {
		dw := "—"
		if d, ok := p.DiffMedianWait(); ok {
			dw = fmt.Sprintf("%+.1f s", noNegZero(d, 10))
		}
		t.Rows = append(t.Rows, []string{
			runTag(p.A), runTag(p.B), fmt.Sprint(p.N), pct(p.All4A), pct(p.All4B),
			fmt.Sprintf("%+.1f pp", noNegZero(100*p.DiffAll4(), 10)), fmt.Sprint(p.OnlyA), fmt.Sprint(p.OnlyB),
			pvalue(p.P), secs(p.MedianWaitA), secs(p.MedianWaitB), dw,
		})
	}
	return t
}

func pvalue(p float64) string {
	switch {
	case math.IsNaN(p):
		return "—"
	case p < 0.001:
		return "< 0.001"
	case p < 0.01:
		return fmt.Sprintf("%.3f", p)
	default:
		return fmt.Sprintf("%.2f", p)
	}
}

// noNegZero rounds x to 1/scale and drops the sign of a zero, so a
// difference too small to show prints as +0.0, not -0.0.
func noNegZero(x, scale float64) float64 {
	x = math.Round(x*scale) / scale
	if x == 0 {
		return 0
	}
	return x
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
	return "Each pair of runs of the same emails: the difference in all-4-right with McNemar's exact test over the same emails " +
		"(only emails right in one run and wrong in the other count), and the difference in median wait of emails sent during the outage."
}

// runFacts describes one run above its charts, as plain sentences.
func runFacts(run *Run) []string {
	h := run.Meta.Header
	facts := []string{
		fmt.Sprintf("Journal %s, status %s.", run.Path, run.Status()),
		fmt.Sprintf("Recorded %s by drill %s (%s, openai-go %s).", h.Start.UTC().Format(time.RFC3339), orDash(h.DrillVersion), orDash(h.GoVersion), orDash(h.OpenAIGoVersion)),
	}
	if run.Meta.CutShort() {
		cut := "it ends without a summary line"
		if run.Meta.Truncated {
			cut = "its last line was cut in the middle"
		}
		facts = append(facts, fmt.Sprintf("The run was cut short (%s); the figures cover the %d events up to the cut, %.1f s.", cut, run.Meta.Events, run.End.Seconds()))
	}
	for _, w := range run.Windows {
		facts = append(facts, fmt.Sprintf("Outage %s on the %s model from %.1f s to %.1f s.", orDash(w.Fault), orDash(w.Target), w.Start.Seconds(), w.End.Seconds()))
	}
	var open []string
	for _, s := range run.BreakerOpen {
		open = append(open, fmt.Sprintf("%.1f–%.1f s", s.Start.Seconds(), s.End.Seconds()))
	}
	if len(open) > 0 {
		facts = append(facts, "Breaker open: "+strings.Join(open, ", ")+".")
	}
	return append(facts, proxyFacts(run.Proxy)...)
}
