package session

import (
	"testing"

	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/scoring"
)

// TestRejudgeChat: the live run's check is judged again on the recomputed
// figures, not taken from the journal; --expect's are added; figures that
// differ from the summary line are said to; a check that does not parse is
// a usage error.
func TestRejudgeChat(t *testing.T) {
	recorded := scoring.ChatSummary{Over120s: 0, Hypotheses: []scoring.Verdict{{Expr: "over_120s == 0", Pass: true}}}
	j := &journal.Journal{Meta: journal.Meta{Summary: &journal.SummaryLine{Chat: &recorded}}}
	sum, differs, err := RejudgeChat(j, scoring.ChatSummary{Over120s: 3}, "run.jsonl", []string{"over_120s <= 5"})
	if err != nil {
		t.Fatal(err)
	}
	if !differs {
		t.Error("3 conversations over 120 s against the line's 0: not said to differ")
	}
	if len(sum.Hypotheses) != 2 || sum.Hypotheses[0].Pass || !sum.Hypotheses[1].Pass {
		t.Errorf("verdicts %+v, want the recorded check failing on the recomputed figure and --expect's passing", sum.Hypotheses)
	}
	_, _, err = RejudgeChat(j, scoring.ChatSummary{}, "run.jsonl", []string{"no such figure >"})
	if exit.Code(err) != 2 {
		t.Errorf("an --expect that does not parse: %v (exit %d), want a usage error", err, exit.Code(err))
	}
}
