package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/journal/journaltest"
)

func TestProxyBadInputExitsTwo(t *testing.T) {
	notFound := httptest.NewServer(http.NotFoundHandler())
	defer notFound.Close()
	notJournal := filepath.Join(t.TempDir(), "x.jsonl")
	os.WriteFile(notJournal, []byte("hello\n"), 0o644)
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"unknown outage", []string{"proxy", "--outage", "flood"}, []string{"flood", "busy", "hang", "none"}},
		{"window without outage", []string{"proxy", "--outage-from", "3s"}, []string{"--outage", "busy"}},
		{"window ends first", []string{"proxy", "--outage", "busy", "--outage-from", "9s", "--outage-to", "3s"}, []string{"end after"}},
		{"upstream not a URL", []string{"proxy", "--upstream", "ftp://x"}, []string{"--upstream", "http(s)"}},
		{"upstream down", []string{"proxy", "--upstream", "http://127.0.0.1:1/v1", "--listen", "127.0.0.1:0"}, []string{"does not answer"}},
		{"upstream not an API", []string{"proxy", "--upstream", notFound.URL + "/v1", "--listen", "127.0.0.1:0"}, []string{"404", "/v1"}},
		{"model without journal", []string{"proxy", "--model", "primary"}, []string{"--outage-from-journal"}},
		{"journal missing", []string{"proxy", "--outage-from-journal", "/nonexistent.jsonl"}, []string{"nonexistent"}},
		{"not a journal", []string{"proxy", "--outage-from-journal", notJournal}, []string{"not a drill journal"}},
		{"journal and outage", []string{"proxy", "--outage-from-journal", notJournal, "--outage", "busy"}, []string{"do not go together"}},
		{"bad listen", []string{"proxy", "--listen", "nowhere:xx"}, []string{"--listen"}},
		{"bad max-conns", []string{"proxy", "--max-conns", "0"}, []string{"--max-conns"}},
		{"bad price", []string{"proxy", "--price", "gpt-5.4-mini=cheap"}, []string{"--price", "MODEL=IN/OUT"}},
		{"bad fault", []string{"proxy", "--outage", "rate-limit", "--fault", "retry=2s"}, []string{"retry_after"}},
		{"file with two outages", []string{"proxy", "-f", "../../examples/chapter.yaml"}, []string{"busy, hang", "--outage-name"}},
		{"file and outage", []string{"proxy", "-f", "../../examples/chapter.yaml", "--outage", "busy"}, []string{"do not go together"}},
		{"unknown outage name", []string{"proxy", "-f", "../../examples/chapter.yaml", "--outage-name", "nope"}, []string{"nope", "busy, hang"}},
		{"outage name without file", []string{"proxy", "--outage-name", "busy"}, []string{"-f"}},
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

// syncBuffer is a buffer a running command writes to while the test reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startProxy runs drill proxy with args (--listen 127.0.0.1:0 for a free
// port) until ctx ends, and returns the base URL its banner names, its
// stdout and stderr, and the command's result once it has returned.
func startProxy(t *testing.T, ctx context.Context, args ...string) (base string, out, errOut *syncBuffer, done <-chan error) {
	t.Helper()
	out, errOut = &syncBuffer{}, &syncBuffer{}
	root := newRootCmd()
	root.SetArgs(append([]string{"proxy"}, args...))
	root.SetOut(out)
	root.SetErr(errOut)
	result := make(chan error, 1)
	go func() { result <- root.ExecuteContext(ctx) }()
	addr := regexp.MustCompile(`http://(127\.0\.0\.1:\d+)/v1 ->`) // the listener, not an upstream named after it
	for deadline := time.Now().Add(5 * time.Second); base == "" && time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if m := addr.FindStringSubmatch(errOut.String()); m != nil {
			base = "http://" + m[1] + "/v1"
		}
	}
	if base == "" {
		t.Fatalf("no address in %q", errOut.String())
	}
	return base, out, errOut, result
}

// TestProxyCommandRecordsAJournalReplayAndReportRead: drill proxy with a
// busy window, an openai-go client through it, then Ctrl-C: one line per
// request and a summary per model on stdout, and a journal that replay and
// report read.
func TestProxyCommandRecordsAJournalReplayAndReportRead(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "p.jsonl")
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	base, out, _, done := startProxy(t, ctx, "--listen", "127.0.0.1:0", "--latency-scale", "0", "--no-tui",
		// The window ends before the SDK's first retry can come: openai-go
		// waits 0.5 s less up to 25 % jitter, so at least 375 ms.
		"--outage", "busy", "--outage-from", "0s", "--outage-to", "300ms", "--record", rec)
	c := openai.NewClient(option.WithBaseURL(base), option.WithAPIKey("sk-test-key-that-must-not-be-recorded"))
	resp, err := c.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{Model: "gpt-5.4-nano",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Where is DR-123456?")}})
	if err != nil {
		t.Fatalf("call through the busy window and out of it: %v", err)
	}
	if len(resp.Choices) != 1 {
		t.Fatalf("answer %+v", resp)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("proxy: %v", err)
	}
	lines := out.String()
	for _, want := range []string{"#1 at=", "status=503 outcome=http_5xx fault=busy", "retry=1 status=200 outcome=ok fault=-", "gpt-5.4-nano: 2 calls, 1 failed (http_5xx 1), 1 faulted"} {
		if !strings.Contains(lines, want) {
			t.Errorf("stdout lacks %q:\n%s", want, lines)
		}
	}
	raw, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(raw, []byte("must-not-be-recorded")) {
		t.Fatal("the journal holds the client's key")
	}
	// --latency-scale 0 is recorded as it was given, not dropped as a zero.
	if header := raw[:bytes.IndexByte(raw, '\n')]; !bytes.Contains(header, []byte(`"latency_scale":0`)) {
		t.Errorf("the header does not record --latency-scale 0: %s", header)
	}
	replayOut, replayErr, code := execute(t.Context(), "replay", rec, "--json")
	if code != 0 || !strings.Contains(replayOut, `"policy": "proxy"`) || !strings.Contains(replayOut, `"calls_to_broken_outage": 1`) {
		t.Errorf("replay: exit %d, %s %s", code, replayOut, replayErr)
	}
	md := filepath.Join(dir, "r.md")
	if _, stderr, code := execute(t.Context(), "report", rec, "-o", md); code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	report, _ := os.ReadFile(md)
	if !strings.Contains(string(report), "gpt-5.4-nano") {
		t.Errorf("the report does not show the proxy's requests:\n%s", report)
	}
	// A proxy's run has no emails: no email-by-email chart, no "Email 0".
	if strings.Contains(string(report), "email by email](") || strings.Contains(string(report), "Email 0") {
		t.Errorf("the report charts or follows emails a proxy never had:\n%s", report)
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Fatal("timed out")
	}
}

// TestRunReplaysAJournalsOutage: drill run --outage-from-journal takes the
// recorded fault pattern as its outage timeline; with the outage flags it
// is a usage error.
func TestRunReplaysAJournalsOutage(t *testing.T) {
	ms := time.Millisecond
	evs := []event.Event{{Kind: event.RunStart, Run: &event.RunInfo{Target: event.ServedPrimary}}}
	for i, at := range []time.Duration{0, 300 * ms, 400 * ms, 500 * ms, 900 * ms} {
		out, status := event.HTTP5xx, 503
		if at == 0 || at == 900*ms {
			out, status = event.OK, 200
		}
		evs = append(evs,
			event.Event{At: at, Kind: event.AttemptStart, Email: i + 1, Rung: event.ServedPrimary},
			event.Event{At: at + ms, Kind: event.AttemptEnd, Email: i + 1, Rung: event.ServedPrimary, Outcome: out, Status: status})
	}
	for i := range evs {
		evs[i].Seq = int64(i)
	}
	path := filepath.Join(t.TempDir(), "incident.jsonl")
	if err := journaltest.Write(path, journal.Header{Type: journal.TypeHeader, Format: journal.Format}, evs, event.StatusCompleted); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := execute(t.Context(), "run", "--outage-from-journal", path, "--policy", "fail-fast",
		"--emails", "6", "--rate", "10", "--follow", "0", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "replayed window: busy status=503 0.300s–0.900s (3 attempts)") {
		t.Errorf("stderr does not print the replayed window:\n%s", stderr)
	}
	cmpOut, stderr, code := execute(t.Context(), "compare", "--outage-from-journal", path, "--policies", "fail-fast,breaker",
		"--emails", "6", "--rate", "10", "--follow", "0", "--clock", "virtual")
	if code != 0 || strings.Count(cmpOut, "| busy |") != 2 {
		t.Errorf("compare with a journal: exit %d, want one row per policy:\n%s\n%s", code, cmpOut, stderr)
	}
	var sum struct {
		Outage        string `json:"outage"`
		CallsToBroken int    `json:"calls_to_broken_outage"`
	}
	if err := json.Unmarshal([]byte(out), &sum); err != nil || sum.Outage != "busy" || sum.CallsToBroken < 1 {
		t.Errorf("summary %+v (%v), want a busy outage that broke calls to the primary:\n%s", sum, err, out)
	}
	for _, bad := range [][]string{
		{"run", "--outage-from-journal", path, "--outage", "hang"},
		{"run", "--outage-from-journal", path, "--fault", "status=500"},
		{"run", "--model", "primary"},
		{"compare", "--outage-from-journal", path, "--outages", "hang"},
	} {
		if _, stderr, code := execute(t.Context(), bad...); code != 2 {
			t.Errorf("%v: exit %d, want 2 (%s)", bad, code, stderr)
		}
	}
}
