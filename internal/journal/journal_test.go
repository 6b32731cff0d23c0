package journal_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/journal/journaltest"
	"github.com/drill-dev/drill/scoring"
)

// testConfig stands in for the engine's configuration in these tests.
type testConfig struct {
	Outage   string            `json:"outage"`
	Policy   string            `json:"policy"`
	Emails   int               `json:"emails"`
	Seed     uint64            `json:"seed"`
	APIKey   string            `json:"-"`
	Key      string            `json:"api_key"`
	Headers  map[string]string `json:"headers"`
	Endpoint struct {
		BaseURL string   `json:"base_url"`
		Models  []string `json:"models"`
		Token   string   `json:"token"`
	} `json:"endpoint"`
}

// writeJournal records events through a Writer following a live log and
// returns the file's path.
func writeJournal(t *testing.T, evs []event.Event, status string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "run.jsonl")
	start := time.Date(2026, 10, 1, 9, 0, 0, 0, time.UTC)
	h, err := journal.NewHeader(testConfig{Outage: "busy", Policy: "breaker", Emails: 120}, start)
	if err != nil {
		t.Fatal(err)
	}
	if err := journaltest.Write(path, h, evs, status); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestRoundTrip(t *testing.T) {
	evs := journaltest.Run(journaltest.Options{Breaker: true, Seed: 1})
	path := writeJournal(t, evs, event.StatusCompleted)
	j, err := journal.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(j.Events, evs) {
		t.Fatalf("events differ after the round trip: got %d, want %d", len(j.Events), len(evs))
	}
	if j.CutShort() || j.Truncated || j.Status() != event.StatusCompleted {
		t.Errorf("cut short %v, truncated %v, status %q; want a completed journal", j.CutShort(), j.Truncated, j.Status())
	}
	want := scoring.Summarize(evs)
	if !reflect.DeepEqual(j.Summary.Summary, want) {
		t.Errorf("summary line = %+v, want %+v", j.Summary.Summary, want)
	}
	got, _, err := journal.Summarize(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("recomputed summary = %+v, want %+v", got, want)
	}
	if j.Header.Format != journal.Format || j.Header.GoVersion == "" || j.Header.OpenAIGoVersion == "" {
		t.Errorf("header lacks versions: %+v", j.Header)
	}
	var cfg testConfig
	if err := json.Unmarshal(j.Header.Config, &cfg); err != nil || cfg.Outage != "busy" || cfg.Emails != 120 {
		t.Errorf("header config = %s (%v)", j.Header.Config, err)
	}
}

func TestLineShapes(t *testing.T) {
	path := writeJournal(t, journaltest.Run(journaltest.Options{Emails: 4}), event.StatusCompleted)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	for i, l := range lines {
		var probe map[string]any
		if err := json.Unmarshal([]byte(l), &probe); err != nil {
			t.Fatalf("line %d is not JSON: %v", i+1, err)
		}
		want := journal.TypeEvent
		switch i {
		case 0:
			want = journal.TypeHeader
		case len(lines) - 1:
			want = journal.TypeSummary
		}
		if probe["type"] != want {
			t.Errorf("line %d type = %v, want %s", i+1, probe["type"], want)
		}
		if want == journal.TypeEvent {
			if _, ok := probe["seq"]; !ok {
				t.Errorf("line %d has no seq", i+1)
			}
			if _, ok := probe["at_ns"]; !ok {
				t.Errorf("line %d has no at_ns", i+1)
			}
		}
	}
}

// TestFlushedEverySecond runs a writer in fake time: events appended while
// the run goes on reach the file within a second, before Finish.
func TestFlushedEverySecond(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "live.jsonl")
		log := event.NewLog(time.Now())
		h, err := journal.NewHeader(nil, log.Start())
		if err != nil {
			t.Fatal(err)
		}
		w, err := journal.Create(path, h, log, journal.Options{})
		if err != nil {
			t.Fatal(err)
		}
		evs := journaltest.Run(journaltest.Options{Emails: 10})
		for _, e := range evs[:20] {
			log.AppendRecorded(e)
		}
		time.Sleep(journal.FlushInterval + time.Millisecond)
		synctest.Wait()
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if n := bytes.Count(data, []byte("\n")); n != 21 {
			t.Errorf("after a second the file has %d lines, want 21 (header and 20 events)", n)
		}
		// A crash now leaves a journal that reads up to here, cut short.
		j, err := journal.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(j.Events) != 20 || !j.CutShort() || j.Status() != event.StatusInterrupted {
			t.Errorf("mid-run journal: %d events, cut short %v, status %s", len(j.Events), j.CutShort(), j.Status())
		}
		for _, e := range evs[20:] {
			log.AppendRecorded(e)
		}
		log.Close()
		if err := w.Finish(scoring.Summarize(evs), event.StatusCompleted); err != nil {
			t.Fatal(err)
		}
		if err := w.Finish(scoring.Summary{}, event.StatusCompleted); err == nil {
			t.Error("a second Finish succeeded")
		}
	})
}

func TestAbortLeavesCutShortJournal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "abort.jsonl")
	log := event.NewLog(time.Now())
	h, _ := journal.NewHeader(nil, log.Start())
	w, err := journal.Create(path, h, log, journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	evs := journaltest.Run(journaltest.Options{Emails: 6})
	for _, e := range evs {
		log.AppendRecorded(e)
	}
	if err := w.Abort(); err != nil {
		t.Fatal(err)
	}
	j, err := journal.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(j.Events) != len(evs) || !j.CutShort() || j.Status() != event.StatusInterrupted {
		t.Errorf("aborted journal: %d/%d events, cut short %v, status %s", len(j.Events), len(evs), j.CutShort(), j.Status())
	}
}

func TestTruncatedLastLine(t *testing.T) {
	evs := journaltest.Run(journaltest.Options{Emails: 20, Seed: 2})
	path := writeJournal(t, evs, event.StatusCompleted)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Cut in the middle of the 31st line (the 30th event).
	lines := bytes.SplitAfter(data, []byte("\n"))
	cut := 0
	for _, l := range lines[:30] {
		cut += len(l)
	}
	cut += len(lines[30]) / 2
	if err := os.WriteFile(path, data[:cut], 0o644); err != nil {
		t.Fatal(err)
	}
	j, err := journal.ReadFile(path)
	if err != nil {
		t.Fatalf("a journal cut mid-line must read: %v", err)
	}
	if len(j.Events) != 29 {
		t.Errorf("read %d events, want the 29 before the cut", len(j.Events))
	}
	if !j.Truncated || !j.CutShort() || j.Status() != event.StatusInterrupted {
		t.Errorf("truncated %v, cut short %v, status %s; want true, true, interrupted", j.Truncated, j.CutShort(), j.Status())
	}
	if !reflect.DeepEqual(j.Events, evs[:29]) {
		t.Error("events before the cut differ")
	}
}

func TestCorruptLines(t *testing.T) {
	evs := journaltest.Run(journaltest.Options{Emails: 10, Seed: 3})
	clean := writeJournal(t, evs, event.StatusCompleted)
	data, err := os.ReadFile(clean)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	cases := []struct {
		name    string
		line    int // 1-based line to replace
		text    string
		wantMsg string
	}{
		{"garbage", 12, "@@@ not json\n", ":12: corrupt journal line: not JSON"},
		{"wrong type", 8, `{"type":"event","seq":"seven","kind":"fault"}` + "\n", `:8: corrupt journal line: event field "seq"`},
		{"no type", 5, `{"seq":4,"kind":"fault"}` + "\n", `:5: corrupt journal line: field "type" is missing`},
		{"unknown type", 6, `{"type":"note"}` + "\n", `:6: corrupt journal line: field "type" is "note"`},
		{"missing event", 9, "", `:9: corrupt journal line: event field "seq" is 8, want 7`},
		{"no kind", 7, `{"type":"event","seq":5}` + "\n", `:7: corrupt journal line: event field "kind" is missing`},
		{"bad status", len(lines) - 1, `{"type":"summary","status":"great","summary":{}}` + "\n", `field "status" is "great"`},
		{"cut mid-file", 10, lines[9][:len(lines[9])/2] + "\n", ":10: corrupt journal line"},
		{"second header", 4, lines[0], ":4: corrupt journal line: a second header line"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mod := append([]string(nil), lines...)
			mod[c.line-1] = c.text
			path := filepath.Join(t.TempDir(), "bad.jsonl")
			if err := os.WriteFile(path, []byte(strings.Join(mod, "")), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := journal.ReadFile(path)
			if !errors.Is(err, journal.ErrCorrupt) {
				t.Fatalf("err = %v, want ErrCorrupt", err)
			}
			if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), c.wantMsg) {
				t.Errorf("err = %q, want it to name %s and contain %q", err, path, c.wantMsg)
			}
		})
	}
	t.Run("line after summary", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "after.jsonl")
		if err := os.WriteFile(path, append(data, lines[3]...), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := journal.ReadFile(path); !errors.Is(err, journal.ErrCorrupt) || !strings.Contains(err.Error(), "after the summary") {
			t.Errorf("err = %v, want a line after the summary reported", err)
		}
	})
}

func TestNotAJournal(t *testing.T) {
	dir := t.TempDir()
	cases := map[string]string{
		"empty":      "",
		"text":       "hello world\n",
		"json":       `{"outage":"busy"}` + "\n",
		"event":      `{"type":"event","seq":0,"kind":"run_start"}` + "\n",
		"no format":  `{"type":"header"}` + "\n",
		"cut header": `{"type":"header","format":1,"drill_ver`,
	}
	for name, text := range cases {
		path := filepath.Join(dir, name+".jsonl")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := journal.ReadFile(path)
		if !errors.Is(err, journal.ErrNotJournal) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: err = %v, want ErrNotJournal naming the file", name, err)
		}
	}
	if _, err := journal.ReadFile(filepath.Join(dir, "missing.jsonl")); err == nil || !strings.Contains(err.Error(), "missing.jsonl") {
		t.Errorf("missing file: err = %v", err)
	}
}

func TestNewerFormat(t *testing.T) {
	path := filepath.Join(t.TempDir(), "future.jsonl")
	text := `{"type":"header","format":99,"drill_version":"v9.0.0"}` + "\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := journal.ReadFile(path)
	if !errors.Is(err, journal.ErrNewerFormat) {
		t.Fatalf("err = %v, want ErrNewerFormat", err)
	}
	for _, want := range []string{path, "format 99", "v9.0.0", "upgrade"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("err = %q lacks %q", err, want)
		}
	}
}

func TestSecretsNeverWritten(t *testing.T) {
	const envKey = "sk-env-0123456789abcdefghijklmnop"
	const cfgKey = "sk-cfg-abcdefghijklmnop0123456789"
	t.Setenv("OPENAI_API_KEY", envKey)
	cfg := testConfig{Outage: "busy", APIKey: envKey, Key: cfgKey,
		Headers: map[string]string{"Authorization": "Bearer " + envKey, "X-Trace": "abc"}}
	cfg.Endpoint.BaseURL = "http://127.0.0.1:1/v1"
	cfg.Endpoint.Token = "tok-secret-value"
	cfg.Endpoint.Models = []string{"gpt-5.4-mini", cfgKey}
	start := time.Now()
	h, err := journal.NewHeader(cfg, start)
	if err != nil {
		t.Fatal(err)
	}
	log := event.NewLog(start)
	path := filepath.Join(t.TempDir(), "secret.jsonl")
	w, err := journal.Create(path, h, log, journal.Options{Secrets: []string{"plain-secret-42"}})
	if err != nil {
		t.Fatal(err)
	}
	log.Append(event.Event{Kind: event.RunStart})
	log.Append(event.Event{Kind: event.AttemptEnd, Detail: "401: Incorrect API key provided: " + envKey + " plain-secret-42", Outcome: event.HTTP4xx})
	log.Close()
	if err := w.Finish(scoring.Summary{Policy: envKey}, event.StatusFailed); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{envKey, cfgKey, "tok-secret-value", "plain-secret-42", "Authorization", "Bearer"} {
		if bytes.Contains(data, []byte(secret)) {
			t.Errorf("journal contains %q:\n%s", secret, data)
		}
	}
	j, err := journal.ReadFile(path)
	if err != nil {
		t.Fatalf("scrubbed journal must still read: %v", err)
	}
	if !bytes.Contains(j.Header.Config, []byte("X-Trace")) || !bytes.Contains(j.Header.Config, []byte("127.0.0.1")) {
		t.Errorf("scrubbing removed ordinary settings: %s", j.Header.Config)
	}
}

func TestCutLineReported(t *testing.T) {
	path := writeJournal(t, journaltest.Run(journaltest.Options{Emails: 5}), event.StatusCompleted)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Cut the 7th line in half.
	lines := bytes.SplitAfter(data, []byte("\n"))
	cut := len(bytes.Join(lines[:6], nil)) + 10
	if err := os.WriteFile(path, data[:cut], 0o644); err != nil {
		t.Fatal(err)
	}
	_, m, err := journal.Summarize(path)
	if err != nil {
		t.Fatal(err)
	}
	if !m.Truncated || m.CutLine != 7 || m.Events != 5 {
		t.Errorf("meta = %+v, want line 7 cut after 5 events", m)
	}
}

// TestIsChat: a journal is a chat drill's when its run_start says so; a
// triage run's is not, and a missing file is an error.
func TestIsChat(t *testing.T) {
	evs := journaltest.Run(journaltest.Options{Emails: 4})
	triage := writeJournal(t, evs, event.StatusCompleted)
	evs[0].Run.Workload = "chat"
	chat := writeJournal(t, evs, event.StatusCompleted)
	for path, want := range map[string]bool{triage: false, chat: true} {
		if got, err := journal.IsChat(t.Context(), path); err != nil || got != want {
			t.Errorf("IsChat(%s) = %v, %v; want %v", filepath.Base(path), got, err, want)
		}
	}
	if _, err := journal.IsChat(t.Context(), filepath.Join(t.TempDir(), "missing.jsonl")); err == nil {
		t.Error("a missing journal is no error")
	}
}
