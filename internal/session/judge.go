package session

import (
	"fmt"
	"strings"

	"github.com/drill-dev/drill/scoring"
)

// Judge judges hypotheses on a finished run's summary. The error is
// non-nil (exit 1) when one failed, and names each failed one with its
// measured value.
func Judge(sum scoring.Summary, hyps []scoring.Expr) ([]scoring.Verdict, error) {
	if len(hyps) == 0 {
		return nil, nil
	}
	figs, err := scoring.FiguresOf(sum)
	if err != nil {
		return nil, err
	}
	vs := scoring.Judge(figs, hyps)
	failed := scoring.Failed(vs)
	if len(failed) == 0 {
		return vs, nil
	}
	var lines []string
	for _, v := range failed {
		lines = append(lines, fmt.Sprintf("  %s (measured %s)", v.Expr, scoring.FormatValue(v.Value)))
	}
	return vs, fmt.Errorf("%s/%s: %d of %d hypotheses failed:\n%s", sum.Outage, sum.Policy, len(failed), len(vs), strings.Join(lines, "\n"))
}
