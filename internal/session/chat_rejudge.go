package session

import (
	"fmt"
	"reflect"

	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/scoring"
)

// RejudgeChat judges a chat journal's summary recomputed from its events
// (sum) as drill replay does: the live run's checks judged again on the
// recomputed figures (never the verdicts the journal holds), then
// expect's. differs reports whether the recomputed figures differ from
// the journal's summary line. A check that does not parse is a usage
// error (exit 2); one that fails is in the summary's verdicts.
func RejudgeChat(j *journal.Journal, sum scoring.ChatSummary, path string, expect []string) (_ scoring.ChatSummary, differs bool, err error) {
	var hyps []string
	if j.Summary != nil && j.Summary.Chat != nil {
		for _, v := range j.Summary.Chat.Hypotheses {
			hyps = append(hyps, v.Expr)
		}
	}
	if err := JudgeChat(&sum, hyps); err != nil {
		return sum, false, exit.UsageError(fmt.Errorf("%s: %w", path, err))
	}
	differs = j.Summary != nil && j.Summary.Chat != nil && !reflect.DeepEqual(*j.Summary.Chat, sum)
	if len(expect) > 0 {
		if err := JudgeChat(&sum, append(hyps, expect...)); err != nil {
			return sum, differs, exit.UsageError(err)
		}
	}
	return sum, differs, nil
}
