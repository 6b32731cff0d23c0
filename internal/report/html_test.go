package report_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/drill-dev/drill/internal/report"
	"github.com/drill-dev/drill/scoring"
)

// TestHTMLMatchesTemplate checks the hand-written HTML page against the
// html/template page it replaced, byte for byte: a report of two runs with
// hypotheses and pairs, and a sweep's report with its trade-off.
func TestHTMLMatchesTemplate(t *testing.T) {
	small, err := report.Build(smallPaths(t))
	if err != nil {
		t.Fatal(err)
	}
	hyps, err := scoring.ParseExprs([]string{"served.error == 0", "calls_to_broken_outage < 20"})
	if err != nil {
		t.Fatal(err)
	}
	small.Hypotheses = hyps
	plain, err := report.Build(smallPaths(t))
	if err != nil {
		t.Fatal(err)
	}
	sweep, err := report.Build(recordSweep(t, t.TempDir(), 4, 2))
	if err != nil {
		t.Fatal(err)
	}
	for name, rep := range map[string]*report.Report{"hypotheses": small, "plain": plain, "sweep": sweep} {
		rep.DPI = testDPI
		var got, want bytes.Buffer
		if err := rep.WriteHTML(&got); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := report.WriteHTMLWithTemplate(rep, &want); err != nil {
			t.Fatalf("%s: template: %v", name, err)
		}
		if got.String() != want.String() {
			g, w := got.String(), want.String()
			i := 0
			for i < len(g) && i < len(w) && g[i] == w[i] {
				i++
			}
			t.Errorf("%s: the page differs from the template's at byte %d:\n got …%s…\nwant …%s…", name, i, excerpt(g, i), excerpt(w, i))
		}
	}
}

func excerpt(s string, i int) string {
	from, to := max(0, i-80), min(len(s), i+80)
	return strings.ReplaceAll(s[from:to], "\n", "⏎")
}

// TestHTMLEscapes checks the page escapes what a journal's path can hold.
func TestHTMLEscapes(t *testing.T) {
	rep, err := report.Build(smallPaths(t))
	if err != nil {
		t.Fatal(err)
	}
	rep.DPI = testDPI
	rep.Runs[0].Path = `a<b>&"c'+.jsonl`
	var got, want bytes.Buffer
	if err := rep.WriteHTML(&got); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got.String(), "<code>a&lt;b&gt;&amp;&#34;c&#39;&#43;.jsonl</code>") {
		t.Errorf("the path is not escaped:\n%s", excerpt(got.String(), strings.Index(got.String(), "<code>")))
	}
	if err := report.WriteHTMLWithTemplate(rep, &want); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Error("the escaped page differs from the template's")
	}
}
