package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/scoring"
)

// execute runs drill with args and returns its stdout, stderr and exit code.
func execute(ctx context.Context, args ...string) (string, string, int) {
	var out, errOut bytes.Buffer
	root := newRootCmd()
	root.SetArgs(args)
	root.SetOut(&out)
	root.SetErr(&errOut)
	err := root.ExecuteContext(ctx)
	code := exit.Code(err)
	if err != nil {
		errOut.WriteString(err.Error())
	}
	return out.String(), errOut.String(), code
}

func TestBadInputExitsTwo(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want []string // in the message
	}{
		{"unknown outage", []string{"run", "--outage", "flood"}, []string{"flood", "busy", "hang", "none"}},
		{"unknown policy", []string{"run", "--policy", "yolo"}, []string{"yolo", "primary-only", "backup-only", "fallback", "breaker", "fail-fast"}},
		{"outage ends before it starts", []string{"run", "--outage-from", "40s", "--outage-to", "15s"}, []string{"outage"}},
		{"outage of no length", []string{"run", "--outage-from", "15s", "--outage-to", "15s"}, []string{"outage"}},
		{"zero rate", []string{"run", "--rate", "0"}, []string{"rate"}},
		{"negative rate", []string{"run", "--rate", "-2"}, []string{"rate"}},
		{"negative timeout", []string{"run", "--primary-timeout", "-1s"}, []string{"--primary-timeout", "must not be negative"}},
		{"negative retries", []string{"run", "--backup-retries", "-1"}, []string{"retries"}},
		{"bad scope", []string{"run", "--time-limit-scope", "forever"}, []string{"attempt", "request"}},
		{"trip on a policy without breaker", []string{"run", "--policy", "fallback", "--trip-failures", "3"}, []string{"trip-failures", "fallback"}},
		{"compare unknown policy", []string{"compare", "--policies", "breaker,nope"}, []string{"nope", "fail-fast"}},
		{"unknown flag", []string{"run", "--frobnicate"}, []string{"frobnicate"}},
		{"unknown command", []string{"explode"}, []string{"explode"}},
		{"https without key", []string{"run", "--base-url", "https://api.example.invalid/v1"}, []string{"OPENAI_API_KEY"}},
		{"not a url", []string{"run", "--base-url", "ftp://x"}, []string{"base-url"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("OPENAI_API_KEY", "")
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

// TestUnreachableBaseURLIsAnOutcome: connection errors are what the drill
// measured, not a crash; but a drill no model answered is not a passing
// one: it warns and exits 1.
func TestUnreachableBaseURLIsAnOutcome(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	stdout, stderr, code := execute(t.Context(), "run", "--no-tui", "--skip-preflight", "--base-url", "http://127.0.0.1:1/v1",
		"--emails", "2", "--rate", "20", "--follow", "1", "--policy", "fallback", "--primary-retries", "0", "--backup-retries", "0")
	if code != 1 || !strings.Contains(stderr, "no model answered") {
		t.Fatalf("exit %d, want 1 with a warning that no model answered: %s", code, stderr)
	}
	if !strings.Contains(stdout, "conn_error") || !strings.Contains(stdout, "0 / 0 / 2 / 0") {
		t.Errorf("summary does not show the connection errors and canned replies:\n%s", stdout)
	}
}

// TestInterruptStopsWithinASecond: Ctrl-C (the context ending) stops a
// drill mid-outage, prints the partial summary and exits 130. The baseline
// is left out: its virtual-clock process, slowed tenfold by the race
// detector, takes a second of its own to stop (the session's tests cover
// that a stopped run's summary never waits for it).
func TestInterruptStopsWithinASecond(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(1250*time.Millisecond, cancel)
	start := time.Now()
	stdout, stderr, code := execute(ctx, "run", "--no-tui", "--json", "--outage", "hang", "--outage-from", "0s", "--outage-to", "60s", "--baseline", "none")
	if took := time.Since(start); took > 2500*time.Millisecond {
		t.Errorf("drill took %s to stop after Ctrl-C at 1.25 s", took)
	}
	if code != 130 {
		t.Errorf("exit code %d, want 130 (stderr %s)", code, stderr)
	}
	var s scoring.Summary
	if err := json.Unmarshal([]byte(stdout), &s); err != nil {
		t.Fatalf("partial summary is not JSON: %v\n%s", err, stdout)
	}
	// Emails go out at 0, 0.5 and 1.0 s; a loaded machine may be late.
	if s.Served.Cancelled == 0 || s.Served.Error != 0 || s.Served.Total() < 2 || s.Served.Total() > 3 {
		t.Errorf("partial summary served %+v, want the 2–3 emails sent before Ctrl-C, hung ones cancelled (not errors)", s.Served)
	}
	if s.Status != "interrupted" || s.EmailsSent != s.Served.Total() || s.NotSent != 120-s.EmailsSent || s.NotSentReason != "run stopped" {
		t.Errorf("partial summary: status %q, sent %d, not sent %d (%q); want interrupted, the rest not sent: run stopped",
			s.Status, s.EmailsSent, s.NotSent, s.NotSentReason)
	}
}

// Flag values that do not parse get drill's own message, and exit 2.
func TestFlagValueMessages(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--outage-from", "10"}, "--outage-from: 10 is not a duration; write 10s"},
		{[]string{"run", "--outage-to", "soon"}, "--outage-to: soon is not a duration; write it with a unit"},
		{[]string{"run", "--seed", "abc"}, "--seed: abc is not a whole number"},
		{[]string{"run", "--emails", "1.5"}, "--emails: 1.5 is not a whole number; write e.g. 1"},
		{[]string{"run", "--rate", "fast"}, "--rate: fast is not a number"},
	} {
		root := newRootCmd()
		root.SetArgs(tc.args)
		root.SetOut(io.Discard)
		root.SetErr(io.Discard)
		err := root.Execute()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: got %v, want %q", tc.args, err, tc.want)
		}
		if code := exit.Code(err); code != 2 {
			t.Errorf("%v: exit code %d, want 2", tc.args, code)
		}
	}
}

// drill version prints the versions a journal header records.
func TestVersionCommand(t *testing.T) {
	root := newRootCmd()
	var out strings.Builder
	root.SetOut(&out)
	root.SetArgs([]string{"version", "--json"})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"drill_version"`, `"go_version"`, `"openai_go_version"`} {
		if !strings.Contains(out.String(), key) {
			t.Errorf("version --json lacks %s:\n%s", key, out.String())
		}
	}
}

// Flag values complete from the lists that validate them.
func TestFlagValueCompletion(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"__complete", "run", "--outage", ""}, []string{"busy", "hang", "none"}},
		{[]string{"__complete", "run", "--policy", ""}, []string{"breaker", "fail-fast"}},
		{[]string{"__complete", "run", "--time-limit-scope", ""}, []string{"attempt", "request"}},
		{[]string{"__complete", "compare", "--outages", "busy,"}, []string{"busy,hang"}},
		{[]string{"__complete", "run", "--primary-model", ""}, []string{"gpt-5.4-mini", "gpt-5.4-nano"}},
		{[]string{"__complete", "run", "--fault", ""}, []string{"rate="}},
	} {
		root := newRootCmd()
		var out strings.Builder
		root.SetOut(&out)
		root.SetErr(io.Discard)
		root.SetArgs(tc.args)
		if err := root.Execute(); err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		for _, w := range tc.want {
			if !strings.Contains(out.String(), w+"\n") {
				t.Errorf("%v: completions lack %q:\n%s", tc.args, w, out.String())
			}
		}
	}
}

// replay --no-tui prints the summary with the emails-not-answered line,
// judges --expect on it and exits 1 when one fails.
func TestReplayNoTUIExpect(t *testing.T) {
	const j = "../../tui/testdata/tmux/hang-breaker.jsonl"
	out, errOut, code := execute(context.Background(), "replay", j, "--no-tui", "--expect", "served.error == 0", "--expect", "calls_to_broken_outage <= 60")
	if code != 1 || !strings.Contains(errOut, "1 of 2 hypotheses failed") {
		t.Errorf("exit %d, stderr %q; want 1 and the failed hypothesis", code, errOut)
	}
	for _, want := range []string{"calls_to_broken_outage <= 60  FAIL    103", "calls to the broken model, outage        103", "emails primary did not answer: breaker_open ×23, timeout ×28"} {
		if !strings.Contains(out, want) {
			t.Errorf("replay output lacks %q:\n%s", want, out)
		}
	}
	if _, _, code := execute(context.Background(), "replay", j, "--no-tui", "--expect", "served.error == 0"); code != 0 {
		t.Errorf("a hypothesis that holds: exit %d", code)
	}
	if _, errOut, code := execute(context.Background(), "replay", j, "--at", "-5s"); code != 2 || !strings.Contains(errOut, "--at") {
		t.Errorf("--at -5s: exit %d, %q", code, errOut)
	}
}
