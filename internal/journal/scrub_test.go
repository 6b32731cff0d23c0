package journal_test

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/scoring"
)

// TestSecretsInURLsAndEscapedKeys records a run whose configuration holds
// a URL with a password and credential query values, whose key holds '&',
// '<' and '>' (written JSON-escaped), and whose events quote both: the
// journal holds none of them in any form, and still reads.
func TestSecretsInURLsAndEscapedKeys(t *testing.T) {
	const key = "sk-amp&lt<gt>0123456789abcdef"
	t.Setenv("OPENAI_API_KEY", "")
	const base = "http://bob:hunter2pass@host/v1?api-key=azsecret55555&access_token=at777777"
	cfg := testConfig{Outage: "busy", Emails: 120}
	cfg.Endpoint.BaseURL = base
	start := time.Now()
	h, err := journal.NewHeader(cfg, start)
	if err != nil {
		t.Fatal(err)
	}
	log := event.NewLog(start)
	path := filepath.Join(t.TempDir(), "urls.jsonl")
	w, err := journal.Create(path, h, log, journal.Options{Secrets: []string{"  " + key + "\n"}})
	if err != nil {
		t.Fatal(err)
	}
	echoed, _ := json.Marshal(map[string]string{"message": "Incorrect API key provided: " + key})
	log.Append(event.Event{Kind: event.RunStart, Run: &event.RunInfo{Emails: 120, Rate: 2}})
	log.Append(event.Event{Kind: event.AttemptEnd, Email: 1, Outcome: event.HTTP4xx, Status: 401,
		Detail: `POST "` + base + `": 401 Unauthorized ` + string(echoed) + " key " + key + " query " + url.QueryEscape(key)})
	log.Append(event.Event{Kind: event.AttemptEnd, Email: 2, Outcome: event.ConnError,
		Detail: `Post "http://bob:***@host/v1/chat/completions?api-key=azsecret55555&access_token=at777777": connection refused`})
	log.Close()
	if err := w.Finish(scoring.Summary{}, event.StatusCompleted); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	escaped, _ := json.Marshal(key)
	for _, s := range []string{"hunter2pass", "azsecret55555", "at777777", key, string(escaped[1 : len(escaped)-1]),
		url.QueryEscape(key), "sk-amp"} {
		if strings.Contains(string(data), s) {
			t.Errorf("journal holds %q:\n%s", s, data)
		}
	}
	j, err := journal.ReadFile(path)
	if err != nil {
		t.Fatalf("redacted journal must read: %v", err)
	}
	if !strings.Contains(string(j.Header.Config), "bob:[redacted]@host/v1?api-key=[redacted]") {
		t.Errorf("header config = %s, want the URL kept with its secrets redacted", j.Header.Config)
	}
}

// TestReaderScrubsOldHeaders: a journal written before the URL rules
// existed gives its readers (and so reports) a scrubbed configuration.
func TestReaderScrubsOldHeaders(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.jsonl")
	old := `{"type":"header","format":1,"config":{"endpoint":{"base_url":"http://bob:hunter2pass@h/v1?api-key=azsecret55555"},"x-api-key":"k"}}` + "\n"
	if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	j, err := journal.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if c := string(j.Header.Config); strings.Contains(c, "hunter2pass") || strings.Contains(c, "azsecret55555") || strings.Contains(c, "x-api-key") {
		t.Errorf("header config read back as %s", c)
	}
}

// TestKeysAndQueryKeysInEveryLine: an `sk-` key a client sent as its model
// and an upstream URL with ?api-key= (the proxy's rung model) reach no
// line of the journal: not the events, not the run's start, not the
// summary.
func TestKeysAndQueryKeysInEveryLine(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	const key = "sk-clientsentthis0123456789"
	const upstream = "https://llm.example/v1?api-key=azsecret55555"
	start := time.Now()
	h, err := journal.NewHeader(testConfig{Outage: "busy", Emails: 1}, start)
	if err != nil {
		t.Fatal(err)
	}
	log := event.NewLog(start)
	path := filepath.Join(t.TempDir(), "keys.jsonl")
	w, err := journal.Create(path, h, log, journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	log.Append(event.Event{Kind: event.RunStart, Run: &event.RunInfo{Emails: 1, Rate: 2, Target: "upstream",
		Rungs: []event.Rung{{Name: "upstream", Model: upstream}}, Overrides: map[string]string{"base-url": upstream}}})
	log.Append(event.Event{Kind: event.AttemptStart, Email: 1, Rung: "upstream", Model: key})
	log.Append(event.Event{Kind: event.AttemptEnd, Email: 1, Rung: "upstream", Model: key, Outcome: event.HTTP4xx, Status: 404,
		Detail: "model " + key + " not found"})
	log.Close()
	s := scoring.Summarize(log.Events())
	if err := w.Finish(s, event.StatusCompleted); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{key, "azsecret55555"} {
		if strings.Contains(string(data), secret) {
			t.Errorf("journal holds %q:\n%s", secret, data)
		}
	}
	if _, err := journal.ReadFile(path); err != nil {
		t.Fatalf("redacted journal must read: %v", err)
	}
}
