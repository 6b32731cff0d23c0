package present

import (
	"io"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/cli"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/internal/plan"
	"github.com/drill-dev/drill/internal/report"
	"github.com/drill-dev/drill/internal/session"
	"github.com/drill-dev/drill/internal/vclock"
	"github.com/drill-dev/drill/scoring"
)

// verdict judges one finished run (session.Verdict) and returns the error
// its exit code comes from; a warning goes to stderr.
func verdict(stderr io.Writer, sum scoring.Summary, status string, c plan.Expectations) ([]scoring.Verdict, error) {
	vs, warning, err := session.Verdict(sum, status, c.Hypotheses)
	if warning != "" {
		cli.PrintWarning(stderr, warning)
	}
	return vs, err
}

// Finished is a run at its end, as a command prints it.
type Finished struct {
	Summary scoring.Summary
	// Status is the run's end: completed, aborted, interrupted.
	Status string
	// Failed are the calls that did not answer, per model and outcome.
	Failed map[string]map[event.Outcome]int
}

// PrintJudged judges a finished run (verdict) and prints it to out: as
// JSON with its hypotheses (asJSON), or as printRun does. The error is the
// run's exit code.
func PrintJudged(out, stderr io.Writer, r Finished, chk plan.Expectations, asJSON bool) error {
	verdicts, verr := verdict(stderr, r.Summary, r.Status, chk)
	if asJSON {
		return cli.FirstErr(plain.JSON(out, scoring.Judged{Summary: r.Summary, Hypotheses: verdicts}), verr)
	}
	return cli.FirstErr(printRun(out, r.Summary, verdicts, r.Failed), verr)
}

// printRun prints a finished run: its hypotheses, its summary table and
// the calls that did not answer.
func printRun(out io.Writer, sum scoring.Summary, verdicts []scoring.Verdict, failed map[string]map[event.Outcome]int) error {
	if err := plain.Verdicts(out, verdicts); err != nil {
		return err
	}
	if err := plain.SummaryWidth(out, sum, session.TerminalWidth(out)); err != nil {
		return err
	}
	plain.FailedCalls(out, failed)
	return nil
}

// WriteJudged judges finished runs and prints them: a JSON array of
// summaries with their hypotheses, or each run's PASS/FAIL table and then
// the comparison table (text or Markdown, as --format asks). It returns
// the error of the most serious exit code across the runs (exit.Worst).
func WriteJudged(out, stderr io.Writer, outs []vclock.Outcome, c plan.Expectations, asJSON bool, tables cli.TableFormat) error {
	results := make([]scoring.Judged, len(outs))
	sums := make([]scoring.Summary, len(outs))
	errs := make([]error, len(outs))
	for i, o := range outs {
		vs, err := verdict(stderr, o.Summary, o.Status, c)
		results[i], sums[i], errs[i] = scoring.Judged{Summary: o.Summary, Hypotheses: vs}, o.Summary, err
	}
	if asJSON {
		if err := plain.JSON(out, results); err != nil {
			return err
		}
	} else if err := plain.JudgedRuns(out, results); err != nil {
		return err
	} else if err := tables.Write(out, report.SummaryTable(sums), func() error { return report.WriteSummaryTable(out, sums) }); err != nil {
		return err
	}
	return exit.Worst(errs)
}
