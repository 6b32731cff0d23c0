package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/internal/session"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

// recRecordRun runs cfg to its end in the current synctest bubble, recording
// it at path, and returns the summary the live run printed with --json.
func recRecordRun(t *testing.T, cfg workload.Config, path string, stopAfter time.Duration) (live string, status string) {
	t.Helper()
	run, err := session.Start(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	w, err := session.Record(path, run)
	if err != nil {
		t.Fatal(err)
	}
	if stopAfter > 0 {
		time.Sleep(stopAfter)
		run.Stop()
	}
	status = run.Wait()
	sum := session.Summarize(run)
	if err := session.Finish(w, sum, status, nil); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := plain.JSON(&buf, sum); err != nil {
		t.Fatal(err)
	}
	return buf.String(), status
}

// TestRecordReplayRoundTrip runs the chapter's busy/breaker drill in fake
// time, recording it, and replays the journal: the replayed summary is the
// live one, byte for byte.
func TestRecordReplayRoundTrip(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "r.jsonl")
		cfg := workload.DefaultConfig()
		live, status := recRecordRun(t, cfg, path, 0)
		if status != event.StatusCompleted {
			t.Fatalf("status %s, want completed", status)
		}
		out, errOut, code := execute(t.Context(), "replay", path, "--no-tui", "--json")
		if code != 0 {
			t.Fatalf("replay exited %d: %s", code, errOut)
		}
		if out != live {
			t.Errorf("replayed summary differs from the live one:\nlive:\n%s\nreplay:\n%s", live, out)
		}
		if !strings.Contains(errOut, "status completed") {
			t.Errorf("replay stderr = %q, want the status", errOut)
		}
		j, err := journal.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var liveSum scoring.Summary
		if err := json.Unmarshal([]byte(live), &liveSum); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(j.Summary.Summary, liveSum) || j.Summary.Status != event.StatusCompleted {
			t.Errorf("journal summary line = %+v (%s), want the live summary", j.Summary.Summary, j.Summary.Status)
		}
		var rc session.RecordedConfig
		if err := json.Unmarshal(j.Header.Config, &rc); err != nil {
			t.Fatal(err)
		}
		if rc.Outage != "busy" || rc.Policy.Name != cfg.Policy.Name || rc.CeilingNS != cfg.Ceiling() || rc.Seed != cfg.Seed {
			t.Errorf("header config = %s", j.Header.Config)
		}
		if j.Header.DrillVersion != version || j.Header.OpenAIGoVersion == "" {
			t.Errorf("header versions = %+v", j.Header)
		}
	})
}

// TestRecordInterrupted stops a drill half way (as Ctrl-C does): its journal
// ends in a summary with status interrupted, and replays to the same summary.
func TestRecordInterrupted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "stopped.jsonl")
		live, status := recRecordRun(t, workload.DefaultConfig(), path, 20*time.Second)
		if status != event.StatusInterrupted {
			t.Fatalf("status %s, want interrupted", status)
		}
		j, err := journal.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if j.CutShort() || j.Summary.Status != event.StatusInterrupted {
			t.Errorf("journal summary status = %v, want interrupted", j.Status())
		}
		out, errOut, code := execute(t.Context(), "replay", path, "--json")
		if code != 0 || out != live || !strings.Contains(errOut, "status interrupted") {
			t.Errorf("replay exit %d, stderr %q; same summary: %v", code, errOut, out == live)
		}
	})
}

func TestReplayTruncatedJournal(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "cut.jsonl")
		cfg := workload.DefaultConfig()
		cfg.Emails, cfg.Follow = 30, 10
		recRecordRun(t, cfg, path, 0)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		// Cut a few bytes into the line that holds the middle of the file,
		// never at a line's end.
		cut := bytes.LastIndexByte(data[:len(data)/2], '\n') + 10
		if err := os.WriteFile(path, data[:cut], 0o644); err != nil {
			t.Fatal(err)
		}
		out, errOut, code := execute(t.Context(), "replay", path, "--no-tui", "--json")
		if code != 0 {
			t.Fatalf("replay of a cut journal exited %d: %s", code, errOut)
		}
		if !strings.Contains(errOut, "cut short in the middle of line") || !strings.Contains(errOut, "status interrupted") {
			t.Errorf("stderr = %q, want the cut and status interrupted", errOut)
		}
		var s scoring.Summary
		if err := json.Unmarshal([]byte(out), &s); err != nil || s.Outage != "busy" {
			t.Errorf("replayed summary %q (%v)", out, err)
		}
	})
}

func TestReplayBadInput(t *testing.T) {
	dir := t.TempDir()
	notJournal := filepath.Join(dir, "notes.txt")
	newer := filepath.Join(dir, "newer.jsonl")
	corrupt := filepath.Join(dir, "corrupt.jsonl")
	_ = os.WriteFile(notJournal, []byte("shopping list\n"), 0o644)
	_ = os.WriteFile(newer, []byte(`{"type":"header","format":7,"drill_version":"9.9.9"}`+"\n"), 0o644)
	_ = os.WriteFile(corrupt, []byte(`{"type":"header","format":1}`+"\n"+`{"type":"event","seq":0,"kind":"run_start"}`+"\n"+"garbage\n"+`{"type":"event","seq":1,"kind":"run_end"}`+"\n"), 0o644)
	for _, c := range []struct {
		file, want string
	}{
		{notJournal, "not a drill journal"},
		{newer, "format 7"},
		{corrupt, "corrupt.jsonl:3: corrupt journal line"},
		{filepath.Join(dir, "missing.jsonl"), "missing.jsonl"},
	} {
		for _, args := range [][]string{{"replay", c.file, "--json"}, {"report", c.file, "-o", filepath.Join(dir, "r.html")}} {
			_, errOut, code := execute(context.Background(), args...)
			if code != 2 || !strings.Contains(errOut, c.file) || !strings.Contains(errOut, c.want) {
				t.Errorf("%v: exit %d, stderr %q; want 2 and a message naming the file with %q", args, code, errOut, c.want)
			}
		}
	}
	if _, _, code := execute(context.Background(), "replay", notJournal, "--speed", "0"); code != 2 {
		t.Errorf("--speed 0: exit %d, want 2", code)
	}
}

// TestReportFromRecordedRuns records four real runs (both outages, two
// policies) in fake time, then writes both report formats.
func TestReportFromRecordedRuns(t *testing.T) {
	dir := t.TempDir()
	runs := filepath.Join(dir, "runs")
	synctest.Test(t, func(t *testing.T) {
		if err := journal.PrepareDir(runs); err != nil {
			t.Fatal(err)
		}
		i := 0
		for _, outage := range []string{"busy", "hang"} {
			for _, policy := range []string{"fallback", "breaker"} {
				cfg := workload.DefaultConfig()
				cfg.Outage = outage
				p, err := workload.Preset(policy)
				if err != nil {
					t.Fatal(err)
				}
				cfg.Policy = p
				recRecordRun(t, cfg, journal.RunPath(runs, i, outage, policy), 0)
				i++
			}
		}
	})
	paths, _ := filepath.Glob(filepath.Join(runs, "*.jsonl"))
	if len(paths) != 4 {
		t.Fatalf("%d journals, want 4", len(paths))
	}
	html := filepath.Join(dir, "report.html")
	if _, errOut, code := execute(context.Background(), append([]string{"report"}, append(paths, "-o", html, "--dpi", "24")...)...); code != 0 {
		t.Fatalf("report exited %d: %s", code, errOut)
	}
	data, err := os.ReadFile(html)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile(`(?i)(src|href)\s*=\s*"([^"]*)"`).FindAllStringSubmatch(string(data), -1) {
		if ref := strings.ToLower(strings.TrimSpace(m[2])); !strings.HasPrefix(ref, "data:") && !strings.HasPrefix(ref, "#") {
			t.Errorf("external reference in the HTML: %s", m[0][:min(len(m[0]), 80)])
		}
	}
	if n := strings.Count(string(data), ": email by email\" src=\"data:image/png;base64,"); n != 4 {
		t.Errorf("%d email-by-email charts, want 4", n)
	}
	// Two outages × two policies: each outage's second policy against its first.
	section := func(from, to string) string {
		h := string(data)
		i := strings.Index(h, from)
		j := strings.Index(h[max(i, 0):], to)
		if i < 0 || j < 0 {
			t.Fatalf("no section from %q to %q", from, to)
		}
		return h[i : i+j]
	}
	if n := strings.Count(section(`<h2 id="overview">`, "Served counts cover"), "<tr><td>R"); n != 4 {
		t.Errorf("%d run rows in the overview, want 4", n)
	}
	if n := strings.Count(section(`<h2 id="pairs">`, `<h2 id="differs">`), "<tr><td>R"); n != 2 {
		t.Errorf("%d pair rows, want 2", n)
	}
	md := filepath.Join(dir, "out", "report.md")
	_ = os.MkdirAll(filepath.Dir(md), 0o755)
	if _, errOut, code := execute(context.Background(), "report", runs, "-o", md, "--dpi", "24"); code != 0 {
		t.Fatalf("report -o .md exited %d: %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "out", "report-charts", "run-4-emails.png")); err != nil {
		t.Errorf("Markdown charts not written beside the report: %v", err)
	}
}

// TestAPIKeyNeverRecorded runs a drill against an endpoint that demands the
// key from OPENAI_API_KEY and checks the key reaches neither the journal
// nor either report.
func TestAPIKeyNeverRecorded(t *testing.T) {
	const key = "sk-drill-test-0123456789abcdefghijklmnopqrstuv"
	t.Setenv("OPENAI_API_KEY", key)
	dir := t.TempDir()
	path := filepath.Join(dir, "keyed.jsonl")
	synctest.Test(t, func(t *testing.T) {
		cfg := workload.DefaultConfig()
		cfg.Emails = 40
		cfg.Endpoint = workload.Endpoint{
			BaseURL:   "http://models.example.invalid/v1",
			APIKey:    os.Getenv("OPENAI_API_KEY"),
			Transport: fakemodel.New(fakemodel.Options{Seed: 1, RequireKey: key}).Transport(),
		}
		recRecordRun(t, cfg, path, 0)
	})
	j, err := journal.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := j.Summary.Summary
	if s.Served.Primary == 0 {
		t.Fatalf("the fake model refused the key: %+v", s.Served)
	}
	for _, out := range []string{filepath.Join(dir, "r.html"), filepath.Join(dir, "r.md")} {
		if _, errOut, code := execute(context.Background(), "report", path, "-o", out, "--dpi", "24"); code != 0 {
			t.Fatalf("report: %s", errOut)
		}
	}
	for _, f := range []string{path, filepath.Join(dir, "r.html"), filepath.Join(dir, "r.md")} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(data, []byte(key)) || bytes.Contains(bytes.ToLower(data), []byte("authorization")) {
			t.Errorf("%s contains the API key or an authorization header", f)
		}
	}
}
