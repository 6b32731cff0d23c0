package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/scoring"
)

// TestRecordedHypothesesOnlyOnTheirRuns: a hypothesis one run's journal
// recorded is judged on that run only ("—" on a run that never had it,
// which once showed a red FAIL while the report exited 0); one given to the
// report is judged on every run.
func TestRecordedHypothesesOnlyOnTheirRuns(t *testing.T) {
	with := &Run{Summary: scoring.Summary{CallsToBrokenOutage: 30},
		Meta: journal.Meta{Summary: &journal.SummaryLine{Hypotheses: []scoring.Verdict{{Expr: "calls_to_broken_outage <= 40", Pass: true}}}}}
	without := &Run{Summary: scoring.Summary{CallsToBrokenOutage: 148}}
	given, err := scoring.ParseExpr("served.error == 0")
	if err != nil {
		t.Fatal(err)
	}
	r := &Report{Runs: []*Run{with, without}, Hypotheses: []scoring.Expr{given}}
	rows := map[string][]string{}
	for _, row := range r.hypothesesTable().Rows {
		rows[row[0]] = row[1:]
	}
	if got := rows["served.error == 0"]; len(got) != 2 || got[0][:4] != "PASS" || got[1][:4] != "PASS" {
		t.Errorf("given hypothesis: %v, want judged on both runs", got)
	}
	if got := rows["calls_to_broken_outage <= 40"]; len(got) != 2 || got[0][:4] != "PASS" || got[1] != "—" {
		t.Errorf("recorded hypothesis: %v, want PASS on its run and — on the other", got)
	}
}

// TestOutageStillOnAtTheEnd: a window still on when the journal ends (a
// proxy stopped mid-outage) is said to be, as the summary's null end says,
// not given the run's end as if it had ended then.
func TestOutageStillOnAtTheEnd(t *testing.T) {
	w := scoring.Window{Basis: scoring.BasisInjected, Target: "proxy"}
	w.Kind, w.From, w.To = "hang", 0, 4500*time.Millisecond
	run := &Run{Windows: []scoring.Window{w}, StillOn: []bool{true}, End: 4500 * time.Millisecond}
	got := strings.Join(runFacts(run), " ")
	if !strings.Contains(got, "still on when the journal ends at 4.5 s") {
		t.Errorf("facts: %s", got)
	}
}

// TestNotJudgedCellIsNotAFailure: on the page, a run a recorded hypothesis
// was not judged on ("—") is not painted as a FAIL.
func TestNotJudgedCellIsNotAFailure(t *testing.T) {
	var b bytes.Buffer
	writeHTMLPage(&b, &htmlData{Hyps: table{Head: []string{"Hypothesis", "R1", "R2"}, Rows: [][]string{{"served.error == 0", "PASS (0)", "—"}}}})
	if page := b.String(); strings.Contains(page, `class="fail">—`) || !strings.Contains(page, `class="pass">PASS (0)`) {
		t.Errorf("the overview paints a cell not judged as a failure:\n%.600s", page)
	}
}
