package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/vclock"
	"github.com/drill-dev/drill/scoring"
)

// TestMain lets --clock virtual re-execute this test binary as its
// virtual-clock child (vclock.Call runs os.Executable), and runDrillMain
// run it as drill itself.
func TestMain(m *testing.M) {
	vclock.Main()
	if args := os.Getenv("DRILL_HELPER_ARGS"); args != "" {
		// A child runDrillMain started: drill's main, with these arguments.
		os.Args = append([]string{"drill"}, strings.Split(args, "\x1f")...)
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestClockBadInput(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"unknown clock", []string{"run", "--clock", "sundial"}, []string{"sundial", "real", "virtual"}},
		{"compare unknown clock", []string{"compare", "--clock", "wall"}, []string{"wall", "real", "virtual"}},
		{"virtual with base URL", []string{"run", "--clock", "virtual", "--base-url", "http://127.0.0.1:1/v1"},
			[]string{"--base-url", "real sockets", "--clock real"}},
		{"compare virtual with base URL", []string{"compare", "--clock", "virtual", "--base-url", "http://127.0.0.1:1/v1"},
			[]string{"--base-url", "real sockets"}},
		{"eval virtual with base URL", []string{"eval", "--clock", "virtual", "--base-url", "http://127.0.0.1:1/v1"},
			[]string{"--base-url", "real sockets"}},
		{"eval virtual unknown model", []string{"eval", "--clock", "virtual", "--model", "nope"}, []string{"nope", "gpt-5.4-mini"}},
		{"bad speed", []string{"run", "--clock", "virtual", "--speed", "0"}, []string{"--speed"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := execute(t.Context(), tc.args...)
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

// TestCompareVirtualJSON: the chapter's eight rows, in order, each with
// clock virtual and every email served, recorded as journals that say so.
func TestCompareVirtualJSON(t *testing.T) {
	dir := t.TempDir()
	stdout, stderr, code := execute(t.Context(), "compare", "--clock", "virtual", "--json", "--record", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var sums []scoring.Summary
	if err := json.Unmarshal([]byte(stdout), &sums); err != nil {
		t.Fatalf("not a JSON array of summaries: %v\n%s", err, stdout)
	}
	if len(sums) != 8 {
		t.Fatalf("%d rows, want 8", len(sums))
	}
	policies := []string{"primary-only", "fallback", "breaker", "fail-fast"}
	for i, s := range sums {
		if want := []string{"busy", "hang"}[i/4] + "/" + policies[i%4]; s.Outage+"/"+s.Policy != want {
			t.Errorf("row %d is %s/%s, want %s", i, s.Outage, s.Policy, want)
		}
		if s.Clock != event.ClockVirtual || s.Served.Total() != 120 {
			t.Errorf("row %d: clock %q, served %+v", i, s.Clock, s.Served)
		}
	}
	paths, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if len(paths) != 8 {
		t.Fatalf("%d journals, want 8", len(paths))
	}
	j, err := journal.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	if j.Header.Clock != event.ClockVirtual {
		t.Errorf("journal header clock %q, want virtual", j.Header.Clock)
	}
}

// TestRunVirtualReplays: `run --clock virtual --record` writes a journal
// that replay reads back to the same summary, clock virtual, without the
// warning that the recomputed summary differs.
func TestRunVirtualReplays(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v.jsonl")
	stdout, stderr, code := execute(t.Context(), "run", "--clock", "virtual", "--outage", "hang", "--policy", "fail-fast", "--json", "--record", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var ran, replayed scoring.Summary
	if err := json.Unmarshal([]byte(stdout), &ran); err != nil {
		t.Fatal(err)
	}
	out2, stderr2, code := execute(t.Context(), "replay", path, "--json")
	if code != 0 || strings.Contains(stderr2, "differs") {
		t.Fatalf("replay exit %d: %s", code, stderr2)
	}
	if err := json.Unmarshal([]byte(out2), &replayed); err != nil {
		t.Fatal(err)
	}
	if ran.Clock != event.ClockVirtual || replayed.Clock != event.ClockVirtual || out2 != stdout {
		t.Errorf("run printed\n%s\nreplay printed\n%s", stdout, out2)
	}
	// The real clock says so too.
	realOut, stderr, code := execute(t.Context(), "run", "--emails", "2", "--rate", "20", "--follow", "1", "--outage", "none", "--json")
	if code != 0 || !strings.Contains(realOut, `"clock": "real"`) {
		t.Errorf("real run, exit %d: %s%s", code, realOut, stderr)
	}
}

// TestRunVirtualTable: the plain summary of a virtual run, with the failed
// calls listed as for a real-time run.
func TestRunVirtualTable(t *testing.T) {
	stdout, stderr, code := execute(t.Context(), "run", "--clock", "virtual", "--outage", "hang", "--policy", "primary-only", "--no-tui")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"92 / 0 / 0 / 28 of 120", "emails primary did not answer: timeout"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("summary lacks %q:\n%s", want, stdout)
		}
	}
}

// TestEvalVirtualMatchesReal: quality does not depend on the clock, so the
// virtual evaluation equals the real one with no latency.
func TestEvalVirtualMatchesReal(t *testing.T) {
	virtual, stderr, code := execute(t.Context(), "eval", "--clock", "virtual", "--model", "all", "--json")
	if code != 0 {
		t.Fatalf("virtual eval exit %d: %s", code, stderr)
	}
	real, stderr, code := execute(t.Context(), "eval", "--latency-scale", "0", "--model", "all", "--json")
	if code != 0 {
		t.Fatalf("real eval exit %d: %s", code, stderr)
	}
	if virtual != real {
		t.Errorf("virtual eval\n%s\ndiffers from real\n%s", virtual, real)
	}
	table, _, _ := execute(t.Context(), "eval", "--clock", "virtual")
	if !strings.Contains(table, "virtual clock") {
		t.Errorf("eval table does not say which clock:\n%s", table)
	}
}
