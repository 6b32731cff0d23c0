package scoring

import "github.com/drill-dev/drill/event"

// Judged is a finished run's summary with its hypotheses judged: what
// `drill run --json` prints for a drill with hypotheses.
type Judged struct {
	Summary
	Hypotheses []Verdict `json:"hypotheses,omitempty"`
}

// RunVerdict is a finished run judged: every hypothesis's verdict, the
// ones that failed, how the run ended, and whether a model answered. The
// exit code of `drill run` and `drill compare` comes from it, most serious
// first: Interrupted (130), Aborted (3), Failed or NoModelAnswered (1).
type RunVerdict struct {
	// Verdicts are the hypotheses' verdicts, in the order given.
	Verdicts []Verdict
	// Failed are the verdicts that did not hold.
	Failed []Verdict
	// Interrupted and Aborted say the run did not end on its own: the
	// user stopped it, or a safeguard or its time ceiling did.
	Interrupted, Aborted bool
	// NoModelAnswered is a run that served emails, every one of them by
	// the canned reply or a failure: the endpoint is likely wrong.
	NoModelAnswered bool
}

// JudgeSummary judges hyps on a summary's figures (FiguresOf, then Judge):
// every verdict on a finished run comes from here. The error is only a
// summary whose figures cannot be read.
func JudgeSummary(sum Summary, hyps []Expr) ([]Verdict, error) {
	figs, err := FiguresOf(sum)
	if err != nil {
		return nil, err
	}
	return Judge(figs, hyps), nil
}

// JudgeRun judges the hypotheses on a finished run's summary, whose
// run_end status is status. The error is only a summary whose figures
// cannot be read.
func JudgeRun(sum Summary, status string, hyps []Expr) (RunVerdict, error) {
	vs, err := JudgeSummary(sum, hyps)
	if err != nil {
		return RunVerdict{}, err
	}
	return RunVerdict{
		Verdicts:        vs,
		Failed:          Failed(vs),
		Interrupted:     status == event.StatusInterrupted,
		Aborted:         status == event.StatusAborted,
		NoModelAnswered: sum.Served.Total() > 0 && sum.Served.Primary+sum.Served.Backup == 0,
	}, nil
}
