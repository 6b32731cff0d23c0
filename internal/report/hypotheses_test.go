package report_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drill-dev/drill/internal/report"
	"github.com/drill-dev/drill/scoring"
)

// TestHypothesesTableFirst: the hypotheses the runs' journals recorded open
// the report's overview as a PASS/FAIL table judged on every run, in
// Markdown and HTML; a report of runs without hypotheses has no such table.
func TestHypothesesTableFirst(t *testing.T) {
	rep, err := report.Build(smallPaths(t))
	if err != nil {
		t.Fatal(err)
	}
	rep.DPI = testDPI
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain.md")
	if err := rep.WriteFile(plain); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(plain); strings.Contains(string(data), "| Hypothesis |") {
		t.Error("a report without hypotheses has a hypotheses table")
	}
	if rep.Runs[1].Meta.Summary == nil {
		t.Fatal("test journal has no summary line")
	}
	rep.Runs[1].Meta.Summary.Hypotheses = []scoring.Verdict{
		{Expr: "served.error == 0", Value: 0.0, Pass: true},
		{Expr: "p95_wait_outage_s <= 1", Value: 2.25, Pass: false},
	}
	md := filepath.Join(dir, "report.md")
	html := filepath.Join(dir, "report.html")
	for _, out := range []string{md, html} {
		if err := rep.WriteFile(out); err != nil {
			t.Fatal(err)
		}
	}
	data, _ := os.ReadFile(md)
	s := string(data)
	// The recorded hypotheses are judged again, by the same function, on the
	// run that recorded them ("—" on the other), in the overview, before the
	// runs table.
	i, j := strings.Index(s, "| Hypothesis |"), strings.Index(s, "| Run | Outage |")
	if i < 0 || j < i || i > strings.Index(s, "## Paired comparisons") {
		t.Fatalf("the hypotheses do not open the overview:\n%s", s[:min(len(s), 900)])
	}
	for i, want := range []string{"| served.error == 0 |", `| p95\_wait\_outage\_s <= 1 |`} {
		row := s[strings.Index(s, want):]
		row = row[:strings.Index(row, "\n")]
		if !strings.Contains(row, "PASS (") && !strings.Contains(row, "FAIL (") || strings.Count(row, "(") != 1 || !strings.Contains(row, "| — |") {
			t.Errorf("hypothesis %d is not judged on its run alone: %s", i, row)
		}
	}
	data, _ = os.ReadFile(html)
	h := string(data)
	if i, j := strings.Index(h, "<th>Hypothesis</th>"), strings.Index(h, `<h2 id="pairs">`); i < 0 || j < i ||
		!strings.Contains(h[i:j], "<td>p95_wait_outage_s &lt;= 1</td>") {
		t.Errorf("HTML hypotheses missing or not in the overview")
	}
}

// TestExpectFailed: the report's exit code comes from the hypotheses given
// to it: nil when each passes on every run, an error naming every FAIL cell
// (run, hypothesis, measured value) when one does not. Hypotheses only the
// journals recorded do not decide it.
func TestExpectFailed(t *testing.T) {
	rep, err := report.Build(smallPaths(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := rep.ExpectFailed(); err != nil {
		t.Errorf("no hypotheses: %v, want nil", err)
	}
	rep.Runs[0].Meta.Summary.Hypotheses = []scoring.Verdict{{Expr: "emails_sent > 100000", Value: 0.0, Pass: false}}
	if err := rep.ExpectFailed(); err != nil {
		t.Errorf("a recorded hypothesis decided the exit code: %v", err)
	}
	pass, err := scoring.ParseExprs([]string{"emails_sent >= 0"})
	if err != nil {
		t.Fatal(err)
	}
	rep.Hypotheses = pass
	if err := rep.ExpectFailed(); err != nil {
		t.Errorf("a passing hypothesis: %v, want nil", err)
	}
	fail, err := scoring.ParseExprs([]string{"emails_sent >= 0", "emails_sent > 100000"})
	if err != nil {
		t.Fatal(err)
	}
	rep.Hypotheses = fail
	err = rep.ExpectFailed()
	if err == nil {
		t.Fatal("a hypothesis failing on every run: nil error")
	}
	msg := err.Error()
	for _, want := range []string{"2 of 4", "R1 ", "R2 ", "emails_sent > 100000 (measured "} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q does not say %q", msg, want)
		}
	}
	if strings.Contains(msg, "emails_sent >= 0") {
		t.Errorf("message %q names a passing hypothesis", msg)
	}
}
