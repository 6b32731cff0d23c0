package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestChatBadArrivalsExitTwo: the chat workload's bad counts and rates are
// usage errors (exit 2) before any work, naming the flag and the bound.
// Before, an empty --incident panicked, NaN and Inf failed encoding the
// virtual-clock input (exit 1), 0 and -1 failed in the run (exit 1), and
// 100,000,000 conversations ran on with no end in sight.
func TestChatBadArrivalsExitTwo(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--incident="}, "--incident"},
		{[]string{"--conversation-rate", "NaN"}, "--conversation-rate"},
		{[]string{"--conversation-rate", "Inf"}, "--conversation-rate"},
		{[]string{"--conversation-rate", "0"}, "--conversation-rate"},
		{[]string{"--conversation-rate", "-1"}, "--conversation-rate"},
		{[]string{"--conversations", "0"}, "--conversations"},
		{[]string{"--conversations", "-1"}, "--conversations"},
		{[]string{"--conversations", "100000000"}, "100000"},
		{[]string{"--conversations", "100000", "--conversation-rate", "0.001"}, "the longest drill"},
	} {
		for _, cmd := range []string{"run", "compare"} {
			args := append([]string{cmd, "--workload", "chat", "--clock", "virtual", "--json"}, tc.args...)
			_, stderr, code := execute(t.Context(), args...)
			if code != 2 || !strings.Contains(stderr, tc.want) || strings.Contains(stderr, "goroutine ") {
				t.Errorf("%s: exit %d, %q; want 2 naming %s", strings.Join(args, " "), code, stderr, tc.want)
			}
		}
	}
	if _, stderr, code := execute(t.Context(), "compare", "--workload", "chat", "--clock", "virtual", "--policies="); code != 2 || !strings.Contains(stderr, "agent-defaults") {
		t.Errorf("compare --policies '': exit %d, %q; want 2 listing the policies", code, stderr)
	}
}

// TestKeyEnvMustNameAVariable: --primary-key-env and --backup-key-env
// refuse what cannot name an environment variable, also with the built-in
// model (which reads no key). Before, A=B was accepted.
func TestKeyEnvMustNameAVariable(t *testing.T) {
	for _, flag := range []string{"--primary-key-env", "--backup-key-env"} {
		for _, v := range []string{"A=B", "1X", "A B"} {
			_, stderr, code := execute(t.Context(), "run", "--clock", "virtual", "--json", "--emails", "2", flag, v)
			if code != 2 || !strings.Contains(stderr, flag) || !strings.Contains(stderr, "environment variable") {
				t.Errorf("%s %q: exit %d, %q; want 2", flag, v, code, stderr)
			}
		}
	}
	if _, stderr, code := execute(t.Context(), "run", "--clock", "virtual", "--json", "--emails", "2", "--primary-key-env", "MY_KEY_1"); code != 0 {
		t.Errorf("a good name: exit %d, %s", code, stderr)
	}
}

// TestDrillFileBadValuesAtTheirLine: values of a drill file that a run
// would refuse are refused by validate (and run) at their file:line.
// Before, models: [] passed validate and then failed the run (exit 1),
// workload rate 1e-300 was refused without a line, and the chat section's
// rate 1e-300 and 100,000,000 conversations passed.
func TestDrillFileBadValuesAtTheirLine(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, text, want string
	}{
		{"models-empty", "outages:\n  - kind: busy\n    from: 5s\n    to: 20s\n    models: []\n", ":5:"},
		{"rate-tiny", "workload:\n  rate: 1e-300\n", ":2:"},
		{"rate-huge", "workload:\n  rate: 1e9\n", ":2:"},
		{"rate-too-slow-for-a-week", "workload:\n  emails: 1000000\n  rate: 0.01\n", ":3:"},
		{"chat-rate-tiny", "chat:\n  rate: 1e-300\n", ":2:"},
		{"chat-conversations-huge", "chat:\n  conversations: 100000000\n", ":2:"},
	} {
		path := filepath.Join(dir, tc.name+".yaml")
		if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, stderr, code := execute(t.Context(), "validate", path)
		if code != 2 || !strings.Contains(stderr, path+tc.want) {
			t.Errorf("validate %s: exit %d, %q; want 2 at %s", tc.name, code, stderr, path+tc.want)
		}
	}
}

// TestValidateChecksTheSweepSection: validate refuses the sweep: sections
// drill sweep -f refuses, with the same message. Before, validate ignored
// the section and passed each of these.
func TestValidateChecksTheSweepSection(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, text, want string
	}{
		{"bad-value", "sweep:\n  primary-timeout: banana\n", "banana"},
		{"no-such-flag", "sweep:\n  nosuch: 1,2\n", "no flag of drill sweep"},
		{"too-many", "sweep:\n  primary-retries: 0..100000\n", "more than"},
		{"negative", "sweep:\n  primary-timeout: -1s\n", "negative"},
		{"chat", "chat:\n  conversations: 10\nsweep:\n  retries: x\n", "sweep.retries"},
	} {
		path := filepath.Join(dir, tc.name+".yaml")
		if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, sweepErr, sweepCode := execute(t.Context(), "sweep", "-f", path, "--dry-run")
		_, stderr, code := execute(t.Context(), "validate", path)
		if code != 2 || sweepCode != 2 || !strings.Contains(stderr, tc.want) || stderr != sweepErr {
			t.Errorf("%s: validate exit %d %q, sweep -f exit %d %q; want both 2 with the same message holding %q",
				tc.name, code, stderr, sweepCode, sweepErr, tc.want)
		}
	}
	good := filepath.Join(dir, "good.yaml")
	if err := os.WriteFile(good, []byte("sweep:\n  primary-timeout: 1s,2s\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := execute(t.Context(), "validate", good); code != 0 {
		t.Errorf("a good sweep section: exit %d, %s", code, stderr)
	}
}

// TestReplayUnreadableFileExitsTwo: a file that opens but cannot be read
// (/proc/self/mem) is an unreadable journal: exit 2 with a message that
// says so, as other unreadable journals. Before, exit 1.
func TestReplayUnreadableFileExitsTwo(t *testing.T) {
	if _, err := os.Stat("/proc/self/mem"); err != nil {
		t.Skip("no /proc/self/mem here")
	}
	for _, args := range [][]string{{"replay", "/proc/self/mem", "--json"}, {"report", "/proc/self/mem", "-o", filepath.Join(t.TempDir(), "r.html")}} {
		_, stderr, code := execute(t.Context(), args...)
		if code != 2 || !strings.Contains(stderr, "cannot be read as a journal") {
			t.Errorf("%s: exit %d, %q; want 2, cannot be read as a journal", strings.Join(args, " "), code, stderr)
		}
	}
}
