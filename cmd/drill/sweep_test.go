package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/report"
	"github.com/drill-dev/drill/internal/sweep"
	"github.com/drill-dev/drill/scoring"
)

// sweepJSON decodes drill sweep --json.
type sweepJSON struct {
	Axes     []sweep.Axis `json:"axes"`
	Settings int          `json:"settings"`
	Repeats  int          `json:"repeats"`
	Clock    string       `json:"clock"`
	Rows     []struct {
		Setting   map[string]string       `json:"setting"`
		Flags     string                  `json:"flags"`
		Outage    string                  `json:"outage"`
		Policy    string                  `json:"policy"`
		Seeds     []int64                 `json:"seeds"`
		Statuses  []string                `json:"statuses"`
		Figures   map[string]scoring.Stat `json:"figures"`
		Dominated bool                    `json:"dominated"`
		Journals  []string                `json:"journals"`
	} `json:"rows"`
}

// TestSweepVirtualJSON: a 2 × 2 × 2 grid in virtual time, repeated twice:
// one row per setting, served counts summing to the emails in every run,
// seeds seed and seed+1, one journal per run tagged with its setting.
func TestSweepVirtualJSON(t *testing.T) {
	dir := t.TempDir()
	stdout, stderr, code := execute(t.Context(), "sweep", "--clock", "virtual", "--json", "--no-tui",
		"--primary-timeout", "2s,5s", "--trip-failures", "3..5..2", "--outages", "busy,hang", "--repeat", "2",
		"--record", dir, "--emails", "40", "--rate", "4", "--outage-from", "2s", "--outage-to", "8s")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res sweepJSON
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("decoding %s: %v", stdout, err)
	}
	if res.Settings != 8 || len(res.Rows) != 8 || res.Repeats != 2 || res.Clock != "virtual" {
		t.Fatalf("settings %d, rows %d, repeats %d, clock %s; want 8, 8, 2, virtual", res.Settings, len(res.Rows), res.Repeats, res.Clock)
	}
	front := 0
	for _, r := range res.Rows {
		if r.Policy != "breaker" || r.Setting["outages"] != r.Outage {
			t.Errorf("row %s: outage %s policy %s", r.Flags, r.Outage, r.Policy)
		}
		if len(r.Seeds) != 2 || r.Seeds[0] != 1 || r.Seeds[1] != 2 {
			t.Errorf("row %s: seeds %v, want [1 2]", r.Flags, r.Seeds)
		}
		for _, rung := range []string{"primary", "backup", "canned", "error"} {
			if r.Figures["served."+rung].N != 2 {
				t.Errorf("row %s: served.%s measured %d times, want 2", r.Flags, rung, r.Figures["served."+rung].N)
			}
		}
		// With two repeats a median is the mean of both: check the sum on the extremes.
		sumMin := r.Figures["served.primary"].Min + r.Figures["served.backup"].Min + r.Figures["served.canned"].Min + r.Figures["served.error"].Min
		sum := r.Figures["served.primary"].Median + r.Figures["served.backup"].Median + r.Figures["served.canned"].Median + r.Figures["served.error"].Median
		if sum != 40 || sumMin > 40 {
			t.Errorf("row %s: served medians sum to %v, want 40", r.Flags, sum)
		}
		if !r.Dominated {
			front++
		}
		if len(r.Journals) != 2 {
			t.Fatalf("row %s: journals %v", r.Flags, r.Journals)
		}
		for k, path := range r.Journals {
			run, err := report.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			var cfg struct {
				Sweep report.SweepTag `json:"sweep"`
			}
			if err := json.Unmarshal(run.Meta.Header.Config, &cfg); err != nil {
				t.Fatal(err)
			}
			if cfg.Sweep.Repeat != k+1 || cfg.Sweep.Repeats != 2 || cfg.Sweep.Settings != 8 || cfg.Sweep.Flags != r.Flags {
				t.Errorf("journal %s: sweep tag %+v", path, cfg.Sweep)
			}
			if run.Summary.Seed != r.Seeds[k] || run.Summary.Clock != "virtual" {
				t.Errorf("journal %s: seed %d clock %s", path, run.Summary.Seed, run.Summary.Clock)
			}
		}
	}
	if front == 0 {
		t.Error("every row is dominated")
	}
}

// TestSweepFrontIsTheReports: the table marks the front the report marks
// from the same runs' journals (and the dashboard, which folds the same
// events): one rule with the same answers, McNemar's test included. With
// one repeat the table once judged all 4 right by its zero spread alone
// and put settings on the front the report called dominated.
func TestSweepFrontIsTheReports(t *testing.T) {
	dir := t.TempDir()
	stdout, stderr, code := execute(t.Context(), "sweep", "--clock", "virtual", "--json", "--no-tui",
		"--primary-timeout", "1s,2s,5s", "--trip-failures", "3,5", "--outages", "busy,hang", "--record", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res sweepJSON
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("decoding %s: %v", stdout, err)
	}
	var runs []*report.Run
	table := map[string]bool{}
	for _, r := range res.Rows {
		table[r.Flags] = r.Dominated
		for _, path := range r.Journals {
			run, err := report.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			runs = append(runs, run)
		}
	}
	to := report.TradeOffOf(runs)
	if to == nil || len(to.Points) != len(res.Rows) {
		t.Fatalf("the report found %v settings, the table %d", to, len(res.Rows))
	}
	front := 0
	for _, p := range to.Points {
		if d, ok := table[p.Flags]; !ok || d != p.Dominated {
			t.Errorf("%s: report dominated %v, table %v (listed %v)", p.Flags, p.Dominated, d, ok)
		}
		if !p.Dominated {
			front++
		}
	}
	if front == 0 || front == len(to.Points) {
		t.Errorf("%d of %d settings on the front: the rule decided nothing", front, len(to.Points))
	}
}

// TestSweepMarkdownSortTop: --sort and --top keep the best rows, in order.
func TestSweepMarkdownSortTop(t *testing.T) {
	stdout, stderr, code := execute(t.Context(), "sweep", "--clock", "virtual", "--primary-timeout", "1s..4s..1s",
		"--outages", "hang", "--emails", "30", "--rate", "3", "--outage-from", "2s", "--outage-to", "8s",
		"--sort", "p95_wait_outage_s", "--top", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rows []string
	for line := range strings.SplitSeq(stdout, "\n") {
		if strings.HasPrefix(line, "| ") && !strings.HasPrefix(line, "| #") && !strings.HasPrefix(line, "| ---") {
			rows = append(rows, line)
		}
	}
	if len(rows) != 2 {
		t.Fatalf("rows %q, want 2", rows)
	}
	if !strings.Contains(stdout, "Showing 2 of 4 rows") || !strings.Contains(stdout, "--primary-timeout") {
		t.Errorf("output:\n%s", stdout)
	}
	// The shortest time limit gives the shortest p95 wait in a hang.
	if !strings.HasPrefix(rows[0], "| 1 | 1s |") {
		t.Errorf("first row %q, want the 1s time limit", rows[0])
	}
}

func TestSweepDryRun(t *testing.T) {
	stdout, stderr, code := execute(t.Context(), "sweep", "--dry-run", "--primary-timeout", "1s,2s,3s,5s",
		"--primary-retries", "0..2", "--trip-failures", "3,5", "--outages", "busy,hang", "--repeat", "3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	first, _, _ := strings.Cut(stdout, "\n")
	want := "2 outages × 1 policies × 4 primary-timeout × 3 primary-retries × 2 trip-failures = 48 settings × 3 repeats = 144 drills"
	if first != want {
		t.Errorf("first line %q, want %q", first, want)
	}
	if !strings.Contains(stdout, "48  --outage hang --policy breaker --primary-timeout 5s --primary-retries 2 --trip-failures 5") {
		t.Errorf("the last setting is missing:\n%s", stdout)
	}
	stdout, _, code = execute(t.Context(), "sweep", "--dry-run", "--json", "--fault", "status=500,503", "--outages", "busy",
		"--policies", "breaker,fail-fast", "--rules=true,false")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var d sweep.DryRun
	if err := json.Unmarshal([]byte(stdout), &d); err != nil {
		t.Fatal(err)
	}
	if d.Settings != 8 || d.Runs != 8 || !strings.Contains(strings.Join(d.Grid, "\n"), "--policy fail-fast --fault status=503 --rules false") {
		t.Errorf("dry run %+v", d)
	}
}

func TestSweepDrillFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.yaml")
	if err := os.WriteFile(path, []byte(`workload:
  emails: 20
  rate: 4
outages:
  - kind: hang
    from: 1s
    to: 4s
policies:
  - preset: breaker
  - preset: fail-fast
sweep:
  primary-timeout: [1s, 2s]
  cooldown: 2s..4s..2s
`), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := execute(t.Context(), "sweep", "-f", path, "--dry-run", "--cooldown", "3s")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// 2 time limits × 1 cooldown (the flag replaces the file's axis) × the file's 2 policies.
	if !strings.Contains(stdout, "= 2 settings × the drill file's runs = 4 rows × 1 repeat = 4 drills") || !strings.Contains(stdout, "--outage hang --policy fail-fast --primary-timeout 2s --cooldown 3s") {
		t.Errorf("dry run:\n%s", stdout)
	}
	stdout, stderr, code = execute(t.Context(), "sweep", "-f", path, "--clock", "virtual", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res sweepJSON
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 8 {
		t.Fatalf("%d rows, want 8 (2 × 2 × the file's 2 policies)", len(res.Rows))
	}
	for _, r := range res.Rows {
		if r.Figures["emails"].Median != 20 || r.Outage != "hang" {
			t.Errorf("row %s: emails %v outage %s", r.Flags, r.Figures["emails"].Median, r.Outage)
		}
	}
}

func TestSweepBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("sweep:\n  primary-timeot: 1s,2s\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	nan := filepath.Join(dir, "nan.yaml")
	if err := os.WriteFile(nan, []byte("outages:\n  - {kind: hang, from: 15s, to: 40s}\nsweep:\n  trip-failure-rate: NaN..1..0.1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"bad range", []string{"--primary-retries", "2..0"}, []string{"--primary-retries", "ends before it starts"}},
		{"duration range without step", []string{"--primary-timeout", "1s..5s"}, []string{"needs a step"}},
		{"bad value", []string{"--primary-timeout", "1s,fast"}, []string{"fast", "duration"}},
		{"unknown outage", []string{"--outages", "busy,flood"}, []string{"flood", "hang"}},
		{"flag not for policy", []string{"--policies", "fallback", "--trip-failures", "3,5"}, []string{"--trip-failures", "fallback"}},
		{"unknown sort", []string{"--sort", "speed"}, []string{"speed", "p95_wait_outage_s"}},
		{"bad sort direction", []string{"--sort", "all4_right:up"}, []string{"asc, desc"}},
		{"repeat", []string{"--repeat", "0"}, []string{"--repeat"}},
		{"virtual with base URL", []string{"--clock", "virtual", "--base-url", "http://127.0.0.1:1/v1"}, []string{"real sockets"}},
		{"file axis not a flag", []string{"-f", bad}, []string{"bad.yaml:2: sweep.primary-timeot", "primary-timeout"}},
		{"file axis NaN range", []string{"-f", nan}, []string{"nan.yaml:4: sweep.trip-failure-rate", "NaN"}},
		{"bad bool", []string{"--rules=true,maybe"}, []string{"--rules", "maybe"}},
		{"fault without value", []string{"--fault", "retry_after"}, []string{"KEY=VALUE"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := execute(t.Context(), append([]string{"sweep", "--dry-run"}, tc.args...)...)
			if code != 2 {
				t.Errorf("exit code %d, want 2 (stderr: %s)", code, stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("message %q does not mention %q", stderr, w)
				}
			}
		})
	}
}

// TestSweepRealTime: a small real-clock sweep runs its settings
// concurrently (bounded by --max-parallel) and records journals a report
// groups as a sweep.
func TestSweepRealTime(t *testing.T) {
	if testing.Short() {
		t.Skip("runs drills in real time (a few seconds)")
	}
	dir := t.TempDir()
	start := time.Now()
	stdout, stderr, code := execute(t.Context(), "sweep", "--json", "--primary-timeout", "1s,2s", "--outages", "hang",
		"--emails", "12", "--rate", "6", "--outage-from", "0s", "--outage-to", "1s", "--max-parallel", "1", "--record", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res sweepJSON
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 2 || res.Clock != "real" {
		t.Fatalf("rows %d clock %s", len(res.Rows), res.Clock)
	}
	for _, r := range res.Rows {
		if r.Statuses[0] != "completed" || r.Figures["answered"].Median != 12 {
			t.Errorf("row %s: status %v answered %v", r.Flags, r.Statuses, r.Figures["answered"])
		}
	}
	j, err := journal.ReadFile(res.Rows[1].Journals[0])
	if err != nil {
		t.Fatal(err)
	}
	if j.Header.Clock != "real" {
		t.Errorf("journal clock %q", j.Header.Clock)
	}
	t.Logf("two drills one after the other: %s", time.Since(start))
}

// TestSweepAbortExitsThree: a drill file's abort conditions guard every
// real-time run of a sweep; an aborted run makes drill sweep exit 3 after
// printing the table.
func TestSweepAbortExitsThree(t *testing.T) {
	if testing.Short() {
		t.Skip("runs drills in real time (a few seconds)")
	}
	path := filepath.Join(t.TempDir(), "abort.yaml")
	if err := os.WriteFile(path, []byte(`workload:
  emails: 20
  rate: 10
outages:
  - kind: busy
    from: 10s
    to: 12s
policies:
  - preset: breaker
abort:
  - answered >= 2
`), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := execute(t.Context(), "sweep", "-f", path, "--primary-retries", "0,1", "--json")
	if code != 3 {
		t.Fatalf("exit %d, want 3 (stderr: %s)", code, stderr)
	}
	var res sweepJSON
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("the table is not printed: %v\n%s", err, stdout)
	}
	for _, r := range res.Rows {
		if r.Statuses[0] != "aborted" {
			t.Errorf("row %s: status %v, want aborted", r.Flags, r.Statuses)
		}
	}
	if !strings.Contains(stderr, "answered >= 2") {
		t.Errorf("stderr does not name the condition: %s", stderr)
	}
}

// TestTableFormats: compare (both workloads) and sweep print aligned text with --format
// text (no Markdown pipes), Markdown with --format md, and refuse another.
func TestTableFormats(t *testing.T) {
	t.Parallel() // CPU only, no timing bound: runs beside the others
	base := []string{"--clock", "virtual", "--outages", "busy", "--emails", "6", "--rate", "10", "--follow", "0"}
	for _, c := range [][]string{
		append([]string{"compare", "--policies", "fail-fast,breaker"}, base...),
		append([]string{"sweep", "--primary-timeout", "1s,2s"}, base...),
		// The chat workload's comparison is a table like the others.
		{"compare", "--workload", "chat", "--clock", "virtual", "--conversations", "4", "--policies", "agent-defaults,agent-breaker"},
	} {
		text, stderr, code := execute(t.Context(), append(c, "--format", "text")...)
		if code != 0 {
			t.Fatalf("%s --format text: exit %d: %s", c[0], code, stderr)
		}
		if strings.Contains(text, "| ") || !strings.Contains(text, "──") {
			t.Errorf("%s --format text is not aligned text:\n%s", c[0], text)
		}
		md, stderr, code := execute(t.Context(), append(c, "--format", "md")...)
		if code != 0 || !strings.Contains(md, "| --- |") {
			t.Errorf("%s --format md: exit %d, not Markdown:\n%s%s", c[0], code, md, stderr)
		}
		if _, _, code := execute(t.Context(), append(c, "--format", "xml")...); code != 2 {
			t.Errorf("%s --format xml: exit %d, want 2", c[0], code)
		}
	}
}
