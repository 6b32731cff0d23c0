package report_test

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drill-dev/drill/internal/report"
)

// manyJournals writes n small journals into a new directory, copies of the
// two recorded in testdata taken in turn, and returns their paths.
func manyJournals(tb testing.TB, n int) []string {
	tb.Helper()
	var src [2][]byte
	for i, name := range []string{"small-breaker.jsonl", "small-fallback.jsonl"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			tb.Fatal(err)
		}
		src[i] = b
	}
	dir := tb.TempDir()
	paths := make([]string, n)
	for i := range paths {
		paths[i] = filepath.Join(dir, fmt.Sprintf("run%05d.jsonl", i))
		if err := os.WriteFile(paths[i], src[i%2], 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return paths
}

// BenchmarkManyJournals reads 200 small journals and writes their HTML
// report; a report of n runs should cost about n times a run.
func BenchmarkManyJournals(b *testing.B) {
	paths := manyJournals(b, 200)
	for b.Loop() {
		r, err := report.Build(paths)
		if err != nil {
			b.Fatal(err)
		}
		if err := r.WriteHTML(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

// TestManyJournalsChartsCapped reports on three more runs than it draws
// charts for and checks that only the first ones have charts, in HTML and
// in Markdown, that every run still has its section, and that the report
// says so. The cap is set low to keep the test short; TestChartsCapDefault
// checks the default.
func TestManyJournalsChartsCapped(t *testing.T) {
	const charted = 2
	n := charted + 3
	r, err := report.Build(manyJournals(t, n))
	if err != nil {
		t.Fatal(err)
	}
	r.ChartedRuns = charted
	var html strings.Builder
	if err := r.WriteHTML(&html); err != nil {
		t.Fatal(err)
	}
	last, past := fmt.Sprintf("R%d", charted), fmt.Sprintf("R%d", charted+1)
	page := html.String()
	for _, want := range []string{`alt="` + last + `: email by email"`, `id="` + past + `"`, "Charts are drawn for the first 2 runs (R1–R2); the other 3"} {
		if !strings.Contains(page, want) {
			t.Errorf("HTML report lacks %q", want)
		}
	}
	if strings.Contains(page, `alt="`+past+`: email by email`) || strings.Contains(page, `alt="`+past+`: histogram`) {
		t.Errorf("HTML report draws charts for %s, past ChartedRuns (%d)", past, charted)
	}
	md := filepath.Join(t.TempDir(), "r.md")
	if err := r.WriteMarkdown(md); err != nil {
		t.Fatal(err)
	}
	charts, err := os.ReadDir(filepath.Join(filepath.Dir(md), "r-charts"))
	if err != nil {
		t.Fatal(err)
	}
	if len(charts) > 4*charted {
		t.Errorf("Markdown report wrote %d chart files for %d runs, want at most %d", len(charts), n, 4*charted)
	}
}
