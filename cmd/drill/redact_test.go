package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/journal/journaltest"
	"github.com/drill-dev/drill/internal/redact"
)

// TestSecretsNeverRecordedFromURLOrEscapedKey records a real drill run
// whose --base-url holds a password and credential query values and whose
// OPENAI_API_KEY holds '&', '<' and '>', against a server that echoes the
// key it was sent in its 401 (as some OpenAI-compatible servers do). The
// journal, both reports and the command's own output hold none of the
// secrets in any form.
func TestSecretsNeverRecordedFromURLOrEscapedKey(t *testing.T) {
	const key = "sk-amp&lt<gt>0123456789abcdef"
	t.Setenv("OPENAI_API_KEY", key)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]string{
			"message": "Incorrect API key provided: " + strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "),
			"type":    "invalid_request_error"}})
	}))
	defer srv.Close()
	base := strings.Replace(srv.URL, "http://", "http://bob:hunter2pass@", 1) + "/v1?api-key=azsecret55555&access_token=at777777"

	// The second run carries the key itself in the URL, under names that do
	// not look like credentials, raw and query-escaped: only the key check
	// (its raw, JSON-escaped and query-escaped forms) can catch it.
	keyed := srv.URL + "/v1?client=" + key + "&tag=" + url.QueryEscape(key)

	dir := t.TempDir()
	path := filepath.Join(dir, "secret.jsonl")
	keyedPath := filepath.Join(dir, "keyed.jsonl")
	var stdout, stderr string
	for _, run := range [][2]string{{base, path}, {keyed, keyedPath}} {
		out, errOut, code := execute(context.Background(), "run", "--no-tui", "--skip-preflight", "--base-url", run[0], "--record", run[1],
			"--emails", "2", "--rate", "20", "--follow", "1", "--policy", "fallback", "--primary-retries", "0", "--backup-retries", "0")
		// Every call meets a 401, so no model answers: the drill exits 1.
		if code != 1 {
			t.Fatalf("run exited %d, want 1 (no model answered): %s", code, errOut)
		}
		stdout, stderr = stdout+out, stderr+errOut
	}
	for _, out := range []string{filepath.Join(dir, "r.html"), filepath.Join(dir, "r.md")} {
		if _, errOut, code := execute(context.Background(), "report", path, keyedPath, "-o", out, "--dpi", "10"); code != 0 {
			t.Fatalf("report: %s", errOut)
		}
	}
	escaped, _ := json.Marshal(key)
	forms := []string{"hunter2pass", "azsecret55555", "at777777", key, string(escaped[1 : len(escaped)-1]), url.QueryEscape(key),
		"sk-amp", "&lt;gt&gt;"}
	outputs := map[string]string{"stdout": stdout, "stderr": stderr}
	for _, f := range []string{path, keyedPath, filepath.Join(dir, "r.html"), filepath.Join(dir, "r.md")} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		outputs[f] = string(data)
	}
	for name, text := range outputs {
		for _, s := range forms {
			if strings.Contains(text, s) {
				t.Errorf("%s holds %q", name, s)
			}
		}
	}
	j, err := journal.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(j.Header.Config), "bob:[redacted]@") || !strings.Contains(outputs[path], `"http_4xx"`) {
		t.Errorf("the journal lost the URL or the 401s it should keep: %s", j.Header.Config)
	}
	if !strings.Contains(outputs[keyedPath], "client=[redacted]") || !strings.Contains(outputs[keyedPath], "tag=[redacted]") {
		t.Errorf("the key in the second run's URL was not redacted where expected:\n%s", outputs[keyedPath][:min(len(outputs[keyedPath]), 800)])
	}
}

// TestBlankKeyIsNoKey: an OPENAI_API_KEY of only whitespace does not pass
// the https check, and the message does not echo the URL's secrets.
func TestBlankKeyIsNoKey(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", " \t\n ")
	_, stderr, code := execute(context.Background(), "run", "--no-tui", "--base-url", "https://u:hunter2pass@api.example.invalid/v1?api-key=azsecret55555")
	if code != 2 || !strings.Contains(stderr, "OPENAI_API_KEY") {
		t.Errorf("exit %d, stderr %q; want 2 naming OPENAI_API_KEY", code, stderr)
	}
	if strings.Contains(stderr, "hunter2pass") || strings.Contains(stderr, "azsecret55555") {
		t.Errorf("stderr echoes the URL's secrets: %q", stderr)
	}
}

// TestProxyShowsAndRecordsNoSecret: an upstream with ?api-key= and a
// client that sends an `sk-` key as its model: neither reaches the
// banner, the request lines, the summary or any line of the journal; an
// upstream that does not answer is named without its key too.
func TestProxyShowsAndRecordsNoSecret(t *testing.T) {
	const queryKey, modelKey = "azsecret55555", "sk-clientsentthis0123456789"
	up := httptest.NewServer(fakemodel.New(fakemodel.Options{NoLatency: true}))
	defer up.Close()
	rec := filepath.Join(t.TempDir(), "p.jsonl")
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	base, out, errOut, done := startProxy(t, ctx, "--listen", "127.0.0.1:0", "--no-tui", "--upstream", up.URL+"/v1?api-key="+queryKey, "--record", rec)
	c := openai.NewClient(option.WithBaseURL(base), option.WithAPIKey("sk-test"), option.WithMaxRetries(0))
	_, _ = c.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{Model: modelKey,
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Where is DR-123456?")}})
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("proxy: %v", err)
	}
	raw, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	_, downErr, code := execute(t.Context(), "proxy", "--upstream", "http://127.0.0.1:1/v1?api-key="+queryKey, "--listen", "127.0.0.1:0")
	if code != 2 {
		t.Errorf("an upstream that does not answer: exit %d, want 2", code)
	}
	for name, text := range map[string]string{"stdout": out.String(), "stderr": errOut.String(), "journal": string(raw), "error": downErr} {
		for _, s := range []string{queryKey, modelKey} {
			if strings.Contains(text, s) {
				t.Errorf("%s holds %q:\n%s", name, s, text)
			}
		}
	}
	if !strings.Contains(out.String(), "model="+redact.Redacted) {
		t.Errorf("the request line should show the model redacted:\n%s", out.String())
	}
}

// TestSweepShowsNoBaseURLSecret: drill sweep --dry-run prints its grid,
// as text and as JSON, without a --base-url's password, credential query
// value or fragment token.
func TestSweepShowsNoBaseURLSecret(t *testing.T) {
	const u = "http://bob:hunter2pass@127.0.0.1:1/v1?api-key=azsecret55#token=frag777"
	for _, asJSON := range []bool{false, true} {
		args := []string{"sweep", "--dry-run", "--base-url", u, "--primary-timeout", "1s,2s"}
		if asJSON {
			args = append(args, "--json")
		}
		stdout, stderr, code := execute(t.Context(), args...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		for _, s := range []string{"hunter2pass", "azsecret55", "frag777"} {
			if strings.Contains(stdout+stderr, s) {
				t.Errorf("sweep (json %v) shows %q:\n%s%s", asJSON, s, stdout, stderr)
			}
		}
	}
}

// TestBreakerStoreErrorHidesPassword: a --breaker-store URL Redis cannot
// take is named in the error without its password.
func TestBreakerStoreErrorHidesPassword(t *testing.T) {
	_, stderr, code := execute(t.Context(), "fleet", "--replicas", "2", "--breaker-store", "redis://:hunter2pass@127.0.0.1:1/0?password=azsecret55&bogus=1")
	if code != 2 {
		t.Errorf("exit %d, want 2: %s", code, stderr)
	}
	for _, s := range []string{"hunter2pass", "azsecret55"} {
		if strings.Contains(stderr, s) {
			t.Errorf("error shows %q: %s", s, stderr)
		}
	}
}

// TestReplayPrintsNoEscapes: a journal whose policy, outage, models and
// header hold terminal escape sequences (clear screen, retitle the
// window) replays with none of them reaching the terminal.
func TestReplayPrintsNoEscapes(t *testing.T) {
	evs := journaltest.Run(journaltest.Options{Emails: 4, Outage: "busy", Policy: "\x1b[2J\x1b[Hbreaker"})
	for i := range evs {
		if evs[i].Run != nil {
			r := *evs[i].Run
			r.Rungs = append([]event.Rung(nil), r.Rungs...)
			for k := range r.Rungs {
				r.Rungs[k].Model = "\x1b]0;owned\x07" + r.Rungs[k].Model
			}
			r.Options = []string{"\x1b[31mred"}
			evs[i].Run = &r
		}
		if evs[i].Model != "" {
			evs[i].Model = "\x1b]0;owned\x07" + evs[i].Model
		}
	}
	path := filepath.Join(t.TempDir(), "esc.jsonl")
	h, err := journal.NewHeader(map[string]string{"policy": "\x1b[2J"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := journaltest.Write(path, h, evs, event.StatusCompleted); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := execute(t.Context(), "replay", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if strings.ContainsAny(stdout+stderr, "\x1b\x07") {
		t.Errorf("replay printed an escape sequence:\n%q\n%q", stdout, stderr)
	}
	if !strings.Contains(stdout, "[2J[Hbreaker") {
		t.Errorf("the policy should still show, without its escapes:\n%s", stdout)
	}
}
