package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUsageErrorsBeforeAnythingRuns: input a command cannot honour is a
// usage error (exit 2) that says what to do, before any drill runs, rather
// than a drill that quietly leaves something out or fails at its end.
func TestUsageErrorsBeforeAnythingRuns(t *testing.T) {
	dir := t.TempDir()
	notJournal := filepath.Join(dir, "bin.jsonl")
	if err := os.WriteFile(notJournal, []byte("\x00\x01 not a journal"), 0o644); err != nil {
		t.Fatal(err)
	}
	missingDir := filepath.Join(dir, "nodir", "x.jsonl")
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		// A flag the chosen workload does not read is not ignored.
		{"triage flags on chat", []string{"run", "--workload", "chat", "--clock", "virtual", "--no-tui", "--primary-timeout", "2s", "--route", "refund=breaker"},
			[]string{"--primary-timeout, --route are not settings of the chat workload"}},
		{"chat flag on triage", []string{"run", "--clock", "virtual", "--no-tui", "--read-timeout", "2s"}, []string{"--read-timeout is a chat flag: add --workload chat"}},
		{"chat flag on triage compare", []string{"compare", "--clock", "virtual", "--conversations", "5"}, []string{"--conversations is a chat flag"}},
		{"triage flag on chat predict", []string{"predict", "--workload", "chat", "--primary-timeout", "3s"}, []string{"--primary-timeout is not a setting of the chat workload"}},
		{"chat flag predict does not read", []string{"predict", "--workload", "chat", "--conversations", "5"}, []string{"not --conversations"}},
		{"agent profile on predict", []string{"predict", "--workload", "chat", "--agent-profile", "compact"}, []string{"not --agent-profile"}},
		// The flag the user typed, and the chat preset meant.
		{"triage preset on chat", []string{"run", "--workload", "chat", "--clock", "virtual", "--no-tui", "--policy", "breaker"},
			[]string{"--policy: unknown chat policy", "did you mean agent-breaker?"}},
		// A run a journal reader could not read back is not started.
		{"retries past the bound", []string{"run", "--clock", "virtual", "--no-tui", "--primary-retries", "1000000"}, []string{"primary retries must be 0..1000"}},
		{"unknown command", []string{"rnu"}, []string{`unknown command "rnu"; did you mean run?`, "commands: compare,"}},
		{"history of a file that is no journal", []string{"history", notJournal}, []string{"not a drill journal"}},
		{"history of a missing path", []string{"history", filepath.Join(dir, "missing")}, []string{"no such file"}},
		{"history of an empty directory", []string{"history", t.TempDir()}, []string{"holds no journals"}},
		{"record into a missing directory, virtual clock", []string{"run", "--clock", "virtual", "--no-tui", "--record", missingDir}, []string{"--record " + missingDir}},
		{"record to an empty path", []string{"run", "--clock", "virtual", "--no-tui", "--record", ""}, []string{"--record needs a path"}},
		{"fleet store of an unknown kind", []string{"fleet", "--breaker-store", "memcache://x"}, []string{`unknown breaker store "memcache://x" (valid: local, redis://HOST:PORT/DB)`}},
		{"fleet name without a coordinator", []string{"fleet", "--fleet", "staging"}, []string{"--fleet names a coordinated fleet: give --coordinate"}},
		{"coordinator without a fleet name", []string{"fleet", "--no-tui", "--coordinate", "redis://127.0.0.1:1/0"}, []string{"needs a name its workers join by (--fleet NAME)"}},
		{"coordinator of an unknown kind", []string{"fleet", "--no-tui", "--coordinate", "nats://x", "--fleet", "a"}, []string{`unknown coordinator "nats://x" (valid: redis://HOST:PORT/DB)`}},
		{"coordinated processes", []string{"fleet", "--coordinate", "redis://127.0.0.1:1/0", "--fleet", "a", "--processes"}, []string{"--compare-stores and --processes do not go with it"}},
		{"worker without a fleet name", []string{"fleet-worker", "--join", "redis://127.0.0.1:1/0"}, []string{"--fleet NAME is needed"}},
		{"worker fleet name without --join", []string{"fleet-worker", "--fleet", "a"}, []string{"give --join redis://HOST:PORT/DB too"}},
		{"worker with a bad fleet name", []string{"fleet-worker", "--join", "redis://127.0.0.1:1/0", "--fleet", "a b"}, []string{`fleet name "a b": use 1 to 64 letters`}},
		{"speed of no pace", []string{"run", "--no-tui", "--speed", "0"}, []string{"--speed must be positive"}},
		{"speed on the real clock", []string{"run", "--no-tui", "--speed", "2"}, []string{"--speed sets the pace of a --clock virtual run"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := execute(t.Context(), tc.args...)
			if code != 2 {
				t.Errorf("exit code %d, want 2 (stderr: %s)", code, stderr)
			}
			if stdout != "" {
				t.Errorf("printed %q: a usage error runs nothing", stdout)
			}
			for _, w := range tc.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("message %q does not say %q", stderr, w)
				}
			}
		})
	}
	if _, err := os.Stat(filepath.Dir(missingDir)); err == nil {
		t.Error("--record made the missing directory")
	}
}

// TestVirtualRunWarnsOfAnOutageAfterItsEmails: the virtual clock says, as
// the real one does, that a drill may end before its outage starts, and
// after the run that it did.
func TestVirtualRunWarnsOfAnOutageAfterItsEmails(t *testing.T) {
	_, stderr, code := execute(t.Context(), "run", "--clock", "virtual", "--no-tui", "--emails", "10", "--rate", "10",
		"--outage-from", "5s", "--outage-to", "6s", "--follow", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, w := range []string{"may end before its outage starts", "before its busy outage started: no outage was injected"} {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr %q does not warn %q", stderr, w)
		}
	}
}

// TestRecommendRunsOnTheVirtualClockByDefault: the search's only clock is
// its default.
func TestRecommendRunsOnTheVirtualClockByDefault(t *testing.T) {
	stdout, stderr, code := execute(t.Context(), "recommend", "--within", "5s", "--route", "safety=breaker,never,person",
		"--grid", "primary-timeout=1s,2s", "--outages", "busy", "--json")
	if code != 0 || !strings.Contains(stdout, "safety") {
		t.Fatalf("exit %d, stdout %.200q, stderr %s", code, stdout, stderr)
	}
}
