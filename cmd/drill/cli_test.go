package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

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
	code := exitCode(err)
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
	stdout, stderr, code := execute(t.Context(), "run", "--no-tui", "--base-url", "http://127.0.0.1:1/v1",
		"--emails", "2", "--rate", "20", "--follow", "1", "--policy", "fallback", "--primary-retries", "0", "--backup-retries", "0")
	if code != 1 || !strings.Contains(stderr, "no model answered") {
		t.Fatalf("exit %d, want 1 with a warning that no model answered: %s", code, stderr)
	}
	if !strings.Contains(stdout, "conn_error") || !strings.Contains(stdout, "0 / 0 / 2 / 0") {
		t.Errorf("summary does not show the connection errors and canned replies:\n%s", stdout)
	}
}

// TestInterruptStopsWithinASecond: Ctrl-C (the context ending) stops a
// drill mid-outage, prints the partial summary and exits 130.
func TestInterruptStopsWithinASecond(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(1250*time.Millisecond, cancel)
	start := time.Now()
	stdout, stderr, code := execute(ctx, "run", "--no-tui", "--json", "--outage", "hang", "--outage-from", "0s", "--outage-to", "60s")
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
