package main

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/scoring"
)

// paidAPI stands in for a paid OpenAI-compatible API: it answers as the
// fake model does (with usage in every answer) only for requests carrying
// key, and counts the chat completions it served.
func paidAPI(t *testing.T, key string) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	fm := fakemodel.New(fakemodel.Options{Seed: 1, LatencyScale: 0})
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+key {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"error":{"message":"Incorrect API key provided: ` +
				strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ") + `","type":"invalid_request_error"}}`))
			return
		}
		if strings.HasSuffix(r.URL.Path, "/chat/completions") {
			calls.Add(1)
		}
		fm.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

const (
	primaryKey = "sk-primary-provider-0123456789"
	backupKey  = "sk-backup-provider-9876543210"
)

// twoProviders starts a primary and a backup provider, each with its own
// key in its own environment variable, and returns the flags that point
// the drill's rungs at them.
func twoProviders(t *testing.T) (args []string, primaryCalls, backupCalls *atomic.Int64) {
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("OPENAI_BASE_URL", "")
	t.Setenv("DRILL_TEST_PRIMARY_KEY", primaryKey)
	t.Setenv("DRILL_TEST_BACKUP_KEY", "  "+backupKey+"\n")
	p, pc := paidAPI(t, primaryKey)
	b, bc := paidAPI(t, backupKey)
	return []string{"--primary-base-url", p.URL + "/v1", "--primary-key-env", "DRILL_TEST_PRIMARY_KEY",
		"--backup-base-url", b.URL + "/v1", "--backup-key-env", "DRILL_TEST_BACKUP_KEY",
		"--price", "gpt-5.4-mini=0.25/2", "--price", "gpt-5.4-nano=0.05/0.4"}, pc, bc
}

// TestCostOfADrillAgainstPaidAPIs: a drill against two providers shows
// tokens and cost per rung and in total, in the summary, the journal and
// the report; timed-out attempts count, estimated; keys are written nowhere.
func TestCostOfADrillAgainstPaidAPIs(t *testing.T) {
	args, primaryCalls, backupCalls := twoProviders(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "paid.jsonl")
	stdout, stderr, code := execute(context.Background(), append([]string{"run", "--no-tui", "--json", "--record", path,
		"--policy", "fallback", "--outage", "hang", "--outage-from", "0s", "--outage-to", "400ms",
		"--primary-timeout", "200ms", "--primary-retries", "0", "--emails", "12", "--rate", "20", "--follow", "1"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "preflight: primary") || !strings.Contains(stderr, "preflight: backup") {
		t.Errorf("no preflight line per rung on stderr: %s", stderr)
	}
	var sum scoring.Summary
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil {
		t.Fatalf("summary: %v\n%s", err, stdout)
	}
	tk, c := sum.Tokens, sum.Cost
	if tk.Input == 0 || tk.Output == 0 || tk.InputByRung["primary"] == 0 || tk.InputByRung["backup"] == 0 {
		t.Errorf("tokens %+v: want input and output on both rungs", tk)
	}
	if tk.EstimatedAttempts == 0 || tk.EstimatedInput == 0 || c.Estimated <= 0 {
		t.Errorf("the timed-out primary attempts were not counted, estimated: tokens %+v cost %+v", tk, c)
	}
	if c.Total <= 0 || math.Abs(c.ByRung["primary"]+c.ByRung["backup"]-c.Total) > 2e-6 || len(c.Unpriced) != 0 {
		t.Errorf("cost %+v: want a total that is the sum of the rungs", c)
	}
	// The preflight's call plus the drill's answered calls reached each provider.
	if primaryCalls.Load() < 2 || backupCalls.Load() < 2 {
		t.Errorf("calls primary %d backup %d", primaryCalls.Load(), backupCalls.Load())
	}

	j, err := journal.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var total float64
	var reported int
	for _, e := range j.Events {
		if e.Usage == nil {
			continue
		}
		total += e.Usage.Cost
		if e.Kind == event.AttemptUsage && !e.Usage.Estimated {
			reported++
			in, out := 0.25, 2.0
			if e.Model == "gpt-5.4-nano" {
				in, out = 0.05, 0.4
			}
			want := (float64(e.Usage.InputTokens)*in + float64(e.Usage.OutputTokens)*out) / 1e6
			if math.Abs(e.Usage.Cost-want) > 1e-12 || !e.Usage.Priced {
				t.Errorf("usage %+v of %s: cost %v, want %v", e.Usage, e.Model, e.Usage.Cost, want)
			}
		}
	}
	if reported == 0 || math.Abs(total-c.Total) > 2e-6 {
		t.Errorf("journal: %d reported usages, cost %v; summary %v", reported, total, c.Total)
	}
	if replayed := scoring.Summarize(j.Events); replayed.Cost.Total != c.Total || replayed.Tokens.Input != tk.Input {
		t.Errorf("replayed fold cost %v tokens %d, live %v %d", replayed.Cost.Total, replayed.Tokens.Input, c.Total, tk.Input)
	}

	md := filepath.Join(dir, "r.md")
	if _, errOut, code := execute(context.Background(), "report", path, "-o", md, "--dpi", "10"); code != 0 {
		t.Fatalf("report: %s", errOut)
	}
	report, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(report), "Tokens and cost") {
		t.Errorf("the report has no tokens and cost section:\n%s", report)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"journal": string(raw), "stdout": stdout, "stderr": stderr, "report": string(report)} {
		for _, k := range []string{primaryKey, backupKey} {
			if strings.Contains(text, k) {
				t.Errorf("%s holds a key", name)
			}
		}
	}
}

// TestMaxSpendAborts: --max-spend stops the drill before a call would take
// the spend over it: status aborted, exit 3, and a journal that reads.
func TestMaxSpendAborts(t *testing.T) {
	args, _, _ := twoProviders(t)
	path := filepath.Join(t.TempDir(), "spend.jsonl")
	const limit = 0.0004
	stdout, stderr, code := execute(context.Background(), append([]string{"run", "--no-tui", "--json", "--record", path,
		"--policy", "fallback", "--outage", "none", "--emails", "120", "--rate", "40", "--max-spend", "0.0004"}, args...)...)
	if code != 3 {
		t.Fatalf("exit %d, want 3: %s", code, stderr)
	}
	if !strings.Contains(stderr, "max spend") {
		t.Errorf("stderr does not say the spend limit aborted the drill: %s", stderr)
	}
	var sum struct {
		scoring.Summary
	}
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil {
		t.Fatalf("summary: %v\n%s", err, stdout)
	}
	if sum.Cost.MaxSpend != limit {
		t.Errorf("cost.max_spend %v, want %v", sum.Cost.MaxSpend, limit)
	}
	if sum.Status != event.StatusAborted || sum.Cost.Total > limit || sum.Cost.Total < limit/4 || sum.NotSent == 0 {
		t.Errorf("status %s, cost %v (limit %v), not sent %d", sum.Status, sum.Cost.Total, limit, sum.NotSent)
	}
	j, err := journal.ReadFile(path)
	if err != nil {
		t.Fatalf("journal does not read: %v", err)
	}
	if j.Status() != event.StatusAborted || j.CutShort() {
		t.Errorf("journal status %s, cut short %v", j.Status(), j.CutShort())
	}
	if _, errOut, code := execute(context.Background(), "replay", "--no-tui", path); code != 3 && code != 0 {
		t.Errorf("replay exit %d: %s", code, errOut)
	}
}

// TestPreflightNamesTheRung: a rung whose endpoint refuses the preflight's
// request stops the drill before it starts, exit 2, naming the rung and
// why, without echoing its key; --skip-preflight drills it anyway.
func TestPreflightNamesTheRung(t *testing.T) {
	args, _, backupCalls := twoProviders(t)
	t.Setenv("DRILL_TEST_BACKUP_KEY", "sk-wrong-key-for-backup-000")
	_, stderr, code := execute(context.Background(), append([]string{"run", "--no-tui", "--emails", "2", "--rate", "20",
		"--follow", "1", "--outage", "none"}, args...)...)
	if code != 2 || !strings.Contains(stderr, "preflight: the backup rung") || !strings.Contains(stderr, "401") ||
		!strings.Contains(stderr, "DRILL_TEST_BACKUP_KEY") {
		t.Errorf("exit %d, stderr %s; want 2 naming the backup rung, its 401 and its key variable", code, stderr)
	}
	if strings.Contains(stderr, "sk-wrong-key-for-backup-000") {
		t.Errorf("the preflight's message echoes the key: %s", stderr)
	}
	if backupCalls.Load() != 0 {
		t.Errorf("the backup served %d calls, want none", backupCalls.Load())
	}

	// An unreachable rung, with --skip-preflight, is drilled: its failures are the outcome.
	_, stderr, code = execute(context.Background(), "run", "--no-tui", "--emails", "2", "--rate", "20", "--follow", "1",
		"--outage", "none", "--primary-base-url", "http://127.0.0.1:1/v1", "--primary-retries", "0", "--skip-preflight",
		"--policy", "fallback")
	if code != 0 || strings.Contains(stderr, "preflight") {
		t.Errorf("--skip-preflight: exit %d, stderr %s", code, stderr)
	}
}

// TestCostFlagsBadInput: malformed cost and endpoint flags exit 2.
func TestCostFlagsBadInput(t *testing.T) {
	t.Setenv("OPENAI_BASE_URL", "")
	t.Setenv("DRILL_TEST_UNSET_KEY", "")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--price", "gpt-5.4-mini=cheap"}, "MODEL=IN/OUT"},
		{[]string{"--max-spend", "-1"}, "--max-spend"},
		{[]string{"--max-spend", "1", "--price", "gpt-5.4-mini=1/1"}, "gpt-5.4-nano"},
		{[]string{"--primary-base-url", "ftp://x"}, "primary-base-url"},
		{[]string{"--backup-base-url", "http://127.0.0.1:1/v1", "--backup-key-env", "DRILL_TEST_UNSET_KEY"}, "DRILL_TEST_UNSET_KEY is not set"},
		{[]string{"--primary-base-url", "http://127.0.0.1:1/v1", "--primary-key-env", "not a name"}, "environment variable"},
	} {
		_, stderr, code := execute(context.Background(), append([]string{"run", "--no-tui", "--emails", "1"}, tc.args...)...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 mentioning %q", tc.args, code, stderr, tc.want)
		}
	}
}

// TestMaxSpendVirtual: the spend guard works in virtual time too, against
// the fake model, and says it was the spend that aborted the drill.
func TestMaxSpendVirtual(t *testing.T) {
	t.Setenv("OPENAI_BASE_URL", "")
	stdout, stderr, code := execute(context.Background(), "run", "--clock", "virtual", "--no-tui", "--json",
		"--price", "gpt-5.4-mini=0.25/2", "--price", "gpt-5.4-nano=0.05/0.4", "--max-spend", "0.005")
	if code != 3 || !strings.Contains(stderr, "aborted by max spend 0.005000") {
		t.Fatalf("exit %d, want 3 naming the spend limit: %s", code, stderr)
	}
	var sum scoring.Summary
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Status != event.StatusAborted || sum.Cost.Total > 0.005 || sum.Cost.Total == 0 || sum.Clock != event.ClockVirtual {
		t.Errorf("status %s cost %+v clock %s", sum.Status, sum.Cost, sum.Clock)
	}
}

// TestCompareSaysTheSpendAborted: drill compare with --max-spend names the
// spend limit as the reason, as drill run does, and not the
// time ceiling: both print the fold's abort reason.
func TestCompareSaysTheSpendAborted(t *testing.T) {
	args, _, _ := twoProviders(t)
	_, stderr, code := execute(context.Background(), append([]string{"compare", "--outages", "none", "--policies", "fallback",
		"--emails", "120", "--rate", "40", "--max-spend", "0.0004"}, args...)...)
	if code != 3 {
		t.Fatalf("exit %d, want 3: %s", code, stderr)
	}
	if !strings.Contains(stderr, "aborted by max spend") || strings.Contains(stderr, "time ceiling") {
		t.Errorf("compare does not say the spend limit aborted the drill: %s", stderr)
	}
}
