package scoring

import (
	"testing"

	"github.com/drill-dev/drill/event"
)

// TestJudgeRun: the verdicts, the failed ones, how the run ended and a run
// no model answered each come out of one call.
func TestJudgeRun(t *testing.T) {
	hyps, err := ParseExprs([]string{"served.canned == 0", "served.error == 0"})
	if err != nil {
		t.Fatal(err)
	}
	var sum Summary
	sum.Served.Canned = 3
	v, err := JudgeRun(sum, event.StatusAborted, hyps)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Verdicts) != 2 || len(v.Failed) != 1 || v.Failed[0].Expr != "served.canned == 0" {
		t.Errorf("verdicts %+v, failed %+v: want served.canned == 0 to fail alone", v.Verdicts, v.Failed)
	}
	if !v.Aborted || v.Interrupted || !v.NoModelAnswered {
		t.Errorf("aborted %v, interrupted %v, no model answered %v: want true, false, true", v.Aborted, v.Interrupted, v.NoModelAnswered)
	}
	sum.Served.Backup = 1
	if v, _ := JudgeRun(sum, event.StatusInterrupted, nil); v.NoModelAnswered || !v.Interrupted || v.Aborted || len(v.Verdicts) != 0 {
		t.Errorf("a run the backup answered, interrupted: %+v", v)
	}
}
