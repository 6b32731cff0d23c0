package report_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drill-dev/drill/report"
	"github.com/drill-dev/drill/scoring"
)

// TestHypothesesTableFirst: the runs' judged hypotheses, as their journals
// recorded them, open the report as a PASS/FAIL table, in Markdown and
// HTML; a report of runs without hypotheses has no such section.
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
	if data, _ := os.ReadFile(plain); strings.Contains(string(data), "## Hypotheses") {
		t.Error("a report without hypotheses has a hypotheses section")
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
	i, j := strings.Index(s, "## Hypotheses"), strings.Index(s, "## What differs")
	if i < 0 || j < i {
		t.Fatalf("the hypotheses do not come first:\n%s", s[:min(len(s), 600)])
	}
	for _, want := range []string{"| R2 | served.error == 0 | PASS | 0 |", `| R2 | p95\_wait\_outage\_s <= 1 | FAIL | 2.25 |`} {
		if !strings.Contains(s[i:j], want) {
			t.Errorf("Markdown hypotheses lack %q:\n%s", want, s[i:j])
		}
	}
	data, _ = os.ReadFile(html)
	h := string(data)
	if i, j := strings.Index(h, "<h2>Hypotheses</h2>"), strings.Index(h, "<h2>What differs"); i < 0 || j < i ||
		!strings.Contains(h[i:j], "<td>p95_wait_outage_s &lt;= 1</td><td>FAIL</td><td>2.25</td>") {
		t.Errorf("HTML hypotheses missing or not first")
	}
}
