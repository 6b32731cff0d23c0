package session

import (
	"errors"
	"fmt"

	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/internal/redact"
	"github.com/drill-dev/drill/scoring"
)

// Judge judges hypotheses on a finished run's summary. The error is
// non-nil (exit 1) when one failed, and names each failed one with its
// measured value.
func Judge(sum scoring.Summary, hyps []scoring.Expr) ([]scoring.Verdict, error) {
	if len(hyps) == 0 {
		return nil, nil
	}
	vs, err := scoring.JudgeSummary(sum, hyps)
	if err != nil {
		return nil, err
	}
	failed := scoring.Failed(vs)
	if len(failed) == 0 {
		return vs, nil
	}
	return vs, errors.New(plain.FailedHypotheses(sum, scoring.RunVerdict{Verdicts: vs, Failed: failed}))
}

// Verdict judges one finished run and returns the error its exit code
// comes from: nil (0), a failed hypothesis or a run nothing answered (1),
// exit.ErrAborted (3) with the fold's abort reason, or exit.ErrInterrupted
// (130). warning, if not "", is for the user to read (stderr): nothing
// answered, while hypotheses decide the exit code.
func Verdict(sum scoring.Summary, status string, hyps []scoring.Expr) (verdicts []scoring.Verdict, warning string, err error) {
	v, err := scoring.JudgeRun(sum, status, hyps)
	switch {
	case err != nil:
		return nil, "", err
	case v.Interrupted:
		return v.Verdicts, "", exit.ErrInterrupted
	case v.Aborted:
		return v.Verdicts, "", fmt.Errorf("%w %s", exit.ErrAborted, plain.AbortReason(sum))
	case len(v.Failed) > 0:
		return v.Verdicts, "", errors.New(plain.FailedHypotheses(sum, v))
	case v.NoModelAnswered && len(hyps) == 0:
		return v.Verdicts, "", errors.New(plain.NoModelAnswered(sum))
	case v.NoModelAnswered:
		return v.Verdicts, plain.NoModelAnswered(sum), nil
	}
	return v.Verdicts, "", nil
}

// Rejudge judges a journal's recorded hypotheses on the summary recomputed
// from its events, ignoring the values and verdicts the journal recorded.
func Rejudge(sum scoring.Summary, recorded []scoring.Verdict) ([]scoring.Verdict, error) {
	exprs := make([]scoring.Expr, len(recorded))
	for i, v := range recorded {
		e, err := scoring.ParseExpr(v.Expr)
		if err != nil {
			return nil, fmt.Errorf("the summary line's hypothesis %q: %w", redact.Terminal(v.Expr), err)
		}
		exprs[i] = e
	}
	return scoring.JudgeSummary(sum, exprs)
}
