package report_test

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/journal/journaltest"
	"github.com/drill-dev/drill/internal/report"
	"github.com/drill-dev/drill/scoring"
)

var (
	update         = flag.Bool("update", false, "rewrite the golden report from the testdata journals")
	updateJournals = flag.Bool("update-journals", false, "record the testdata journals again (the inputs the golden report is read from)")
)

// testDPI keeps chart drawing quick under the race detector; drawing at
// full size is the same code.
const testDPI = 24

// smallConfig is the configuration recorded in the small test journals.
type smallConfig struct {
	Outage  string `json:"outage"`
	Policy  string `json:"policy"`
	Emails  int    `json:"emails"`
	Breaker bool   `json:"breaker"`
	Seed    uint64 `json:"seed"`
}

// record writes a synthetic run as a journal through the journal writer.
func record(t *testing.T, path string, o journaltest.Options, cfg any, status string) {
	t.Helper()
	writeJournal(t, path, cfg, journaltest.Run(o), status)
}

// writeJournal writes events as a journal at path through the journal
// writer, its header recording cfg (nil for none), a fixed start and
// fixed versions (for the golden file).
func writeJournal(t *testing.T, path string, cfg any, evs []event.Event, status string) {
	t.Helper()
	h, err := journal.NewHeader(cfg, time.Date(2026, 10, 1, 9, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	h.DrillVersion, h.GoVersion = "v0.1.0", "go1.26.8"
	if err := journaltest.Write(path, h, evs, status); err != nil {
		t.Fatal(err)
	}
}

// htmlOf is the report's HTML page.
func htmlOf(t *testing.T, rep *report.Report) string {
	t.Helper()
	var b strings.Builder
	if err := rep.WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// markdownOf writes the report as Markdown in a temporary directory (its
// charts beside it) and returns the file's path and text.
func markdownOf(t *testing.T, rep *report.Report) (path, text string) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "r.md")
	if err := rep.WriteMarkdown(path); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, string(b)
}

var smallRuns = []struct {
	file string
	opts journaltest.Options
}{
	{"testdata/small-fallback.jsonl", journaltest.Options{Emails: 20, From: 2, To: 8, Follow: 6, Seed: 11}},
	{"testdata/small-breaker.jsonl", journaltest.Options{Emails: 20, From: 2, To: 8, Follow: 6, Breaker: true, Seed: 11}},
}

func smallPaths(t *testing.T) []string {
	t.Helper()
	var paths []string
	for _, r := range smallRuns {
		if *updateJournals {
			o := r.opts
			record(t, r.file, o, smallConfig{Outage: "busy", Policy: o.Info().Policy, Emails: o.Emails, Breaker: o.Breaker, Seed: o.Seed}, event.StatusCompleted)
		}
		paths = append(paths, r.file)
	}
	return paths
}

func TestMarkdownGolden(t *testing.T) {
	rep, err := report.Build(smallPaths(t))
	if err != nil {
		t.Fatal(err)
	}
	rep.DPI = testDPI
	dir := t.TempDir()
	out := filepath.Join(dir, "report.md")
	if err := rep.WriteFile(out); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	golden := "testdata/report.md.golden"
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("Markdown report differs from %s (run with -update to accept):\n%s", golden, got)
	}
	// Every image the Markdown links is a PNG beside it.
	for _, m := range regexp.MustCompile(`!\[[^]]*\]\(([^)]+)\)`).FindAllStringSubmatch(string(got), -1) {
		data, err := os.ReadFile(filepath.Join(dir, m[1]))
		if err != nil {
			t.Errorf("linked image %s: %v", m[1], err)
			continue
		}
		if !bytes.HasPrefix(data, []byte("\x89PNG")) {
			t.Errorf("%s is not a PNG", m[1])
		}
	}
}

func TestHTMLSelfContained(t *testing.T) {
	rep, err := report.Build(smallPaths(t))
	if err != nil {
		t.Fatal(err)
	}
	rep.DPI = testDPI
	out := filepath.Join(t.TempDir(), "report.html")
	if err := rep.WriteFile(out); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	html := string(data)
	for _, m := range regexp.MustCompile(`(?i)(src|href)\s*=\s*"([^"]*)"`).FindAllStringSubmatch(html, -1) {
		if !strings.HasPrefix(m[2], "data:image/png;base64,") && !strings.HasPrefix(m[2], "#") {
			t.Errorf("external reference %s=%q", m[1], m[2][:min(len(m[2]), 60)])
		}
	}
	if strings.Contains(strings.ToLower(html), "http://") || strings.Contains(strings.ToLower(html), "https://") {
		t.Error("the HTML mentions an http URL")
	}
	if n := strings.Count(html, `: email by email" src="data:image/png;base64,`); n != 2 {
		t.Errorf("%d email-by-email charts, want 2", n)
	}
	for _, want := range []string{"p (McNemar, exact)", "What differs between the runs", "<td>breaker</td>", "fallback &#43; breaker"} {
		if !strings.Contains(html, want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
}

func TestPairsAndDifferences(t *testing.T) {
	rep, err := report.Build(smallPaths(t))
	if err != nil {
		t.Fatal(err)
	}
	rep.DPI = testDPI
	if len(rep.Pairs) != 1 {
		t.Fatalf("%d pairs, want 1", len(rep.Pairs))
	}
	p := rep.Pairs[0]
	a, b := rep.Runs[0], rep.Runs[1]
	if p.N != 20 || math.Abs(p.All4A-a.Summary.All4Right) > 1e-3 || math.Abs(p.All4B-b.Summary.All4Right) > 1e-3 {
		t.Errorf("pair %+v disagrees with the summaries (%v, %v)", p, a.Summary.All4Right, b.Summary.All4Right)
	}
	names := map[string]bool{}
	for _, d := range rep.Diffs {
		names[d.Name] = true
	}
	if !names["breaker"] || !names["policy"] || names["outage"] || names["seed"] {
		t.Errorf("differences = %v, want breaker and policy only among the settings", names)
	}
}

func TestCutShortJournalInReport(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "cut.jsonl")
	record(t, path, journaltest.Options{Emails: 10, From: 1, To: 3}, nil, event.StatusCompleted)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data[:len(data)*2/3], 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := report.Build([]string{path})
	if err != nil {
		t.Fatal(err)
	}
	rep.DPI = testDPI
	out := filepath.Join(dir, "r.md")
	if err := rep.WriteFile(out); err != nil {
		t.Fatal(err)
	}
	md, _ := os.ReadFile(out)
	if !strings.Contains(string(md), "(journal cut short)") || !strings.Contains(string(md), "cut in the middle") {
		t.Errorf("report does not say the run was cut short:\n%s", md)
	}
}

func TestKeyNeverInReport(t *testing.T) {
	const key = "sk-test-report-0123456789abcdefghij"
	t.Setenv("OPENAI_API_KEY", key)
	dir := t.TempDir()
	cfg := struct {
		Outage string `json:"outage"`
		APIKey string `json:"api_key"`
		Header string `json:"authorization"`
	}{"busy", key, "Bearer " + key}
	path := filepath.Join(dir, "k.jsonl")
	record(t, path, journaltest.Options{Emails: 8, From: 1, To: 2}, cfg, event.StatusCompleted)
	rep, err := report.Build([]string{path, path})
	if err != nil {
		t.Fatal(err)
	}
	rep.DPI = testDPI
	for _, out := range []string{filepath.Join(dir, "r.md"), filepath.Join(dir, "r.html")} {
		if err := rep.WriteFile(out); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(out)
		if bytes.Contains(data, []byte(key)) || bytes.Contains(data, []byte("Bearer")) {
			t.Errorf("%s contains the API key", out)
		}
	}
	j, _ := os.ReadFile(path)
	if bytes.Contains(j, []byte(key)) {
		t.Error("the journal contains the API key")
	}
}

func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(path, []byte("meeting notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := report.Build([]string{path}); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("err = %v, want one naming %s", err, path)
	}
	rep, err := report.Build(smallPaths(t)[:1])
	if err != nil {
		t.Fatal(err)
	}
	rep.DPI = testDPI
	if err := rep.WriteFile(filepath.Join(dir, "r.pdf")); err == nil {
		t.Error("a .pdf output was accepted")
	}
}

// TestObservedOutageInReport: a journal of a real outage (the model failed
// on its own; drill injected nothing) reports its figures relative to the
// observed failure window, labelled as such, and shades that window.
func TestObservedOutageInReport(t *testing.T) {
	var evs []event.Event
	for _, e := range journaltest.Run(journaltest.Options{Emails: 20, From: 2, To: 8, Follow: 6, Breaker: true, Seed: 11}) {
		if e.Kind != event.OutageStart && e.Kind != event.OutageEnd && e.Kind != event.Fault {
			evs = append(evs, e)
		}
	}
	path := filepath.Join(t.TempDir(), "real.jsonl")
	writeJournal(t, path, nil, evs, event.StatusCompleted)
	rep, err := report.Build([]string{path})
	if err != nil {
		t.Fatal(err)
	}
	run := rep.Runs[0]
	s := run.Summary
	if s.OutageBasis != scoring.BasisObserved || len(s.OutageWindows) != 0 || len(s.Observed) != 1 {
		t.Fatalf("basis %q, injected %v, observed %v", s.OutageBasis, s.OutageWindows, s.Observed)
	}
	if s.BreakerFirstOpenS == nil || s.CallsToBrokenOutage == 0 || s.CallsToBrokenOutage != s.Observed[0].CallsInWindow {
		t.Errorf("first open %v, calls to broken %d (observed window %d)", s.BreakerFirstOpenS, s.CallsToBrokenOutage, s.Observed[0].CallsInWindow)
	}
	if len(run.Windows) != 1 || run.Windows[0].Basis != scoring.BasisObserved {
		t.Errorf("shaded windows %+v, want the observed one", run.Windows)
	}
	out := filepath.Join(t.TempDir(), "r.md")
	rep.DPI = testDPI
	if err := rep.WriteFile(out); err != nil {
		t.Fatal(err)
	}
	md, _ := os.ReadFile(out)
	for _, want := range []string{"(observed)", "Observed failures of the primary model"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report lacks %q", want)
		}
	}
}

// Only meaningful pairs are compared by default: runs of the same outage,
// each against the first listed; --pair names others, and bad names say
// which runs there are.
func TestMeaningfulAndNamedPairs(t *testing.T) {
	paths := smallPaths(t)
	// The first run three times: all the same outage, so R2 and R3 are each
	// compared with R1, not with each other.
	rep, err := report.Build([]string{paths[0], paths[1], paths[0]})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range rep.Pairs {
		got = append(got, fmt.Sprintf("R%d-R%d", p.A+1, p.B+1))
	}
	if want := []string{"R1-R2", "R1-R3"}; !slices.Equal(got, want) {
		t.Errorf("default pairs %v, want %v (every pair would be %d)", got, want, len(report.Pairs(rep.Runs)))
	}
	if err := rep.SetPairs([]string{"R2,3"}); err != nil || len(rep.Pairs) != 1 || rep.Pairs[0].A != 1 || rep.Pairs[0].B != 2 {
		t.Errorf("--pair R2,3: %v, %+v", err, rep.Pairs)
	}
	for spec, want := range map[string]string{
		"R1":      "write two runs",
		"R1,R9":   "the runs are R1 to R3",
		"R1,R1":   "itself",
		"x/y,R1":  "no run x/y",
		"R1,R2,3": "write two runs",
	} {
		if err := rep.SetPairs([]string{spec}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("--pair %s: %v, want %q", spec, err, want)
		}
	}
}

// Hypotheses are judged on every run in the overview.
func TestHypothesesInReport(t *testing.T) {
	rep, err := report.Build(smallPaths(t))
	if err != nil {
		t.Fatal(err)
	}
	rep.DPI = testDPI
	hyps, err := scoring.ParseExprs([]string{"served.error == 0", "calls_to_broken_outage < 20"})
	if err != nil {
		t.Fatal(err)
	}
	rep.Hypotheses = hyps
	html := htmlOf(t, rep)
	// R1 (fallback) made 33 calls to the broken model, R2 (breaker) 15.
	for _, want := range []string{"served.error == 0", `class="pass">PASS (0)`, `class="fail">FAIL (33)`, `class="pass">PASS (15)`, `id="overview"`, `href="#R2"`} {
		if !strings.Contains(html, want) {
			t.Errorf("HTML report lacks %q", want)
		}
	}
	if strings.Index(html, `id="overview"`) > strings.Index(html, `id="pairs"`) {
		t.Error("the overview is not first")
	}
}
