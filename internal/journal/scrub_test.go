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

func TestRedactURL(t *testing.T) {
	for in, want := range map[string]string{
		"http://bob:hunter2pass@host/v1?api-key=azsecret55555&access_token=at777777": "http://bob:[redacted]@host/v1?api-key=[redacted]&access_token=[redacted]",
		"https://api.example.com/v1":                           "https://api.example.com/v1",
		"https://bob@host/v1":                                  "https://bob@host/v1",
		"https://h/v1?key=k1&model=gpt&token=t2&sig=s3":        "https://h/v1?key=[redacted]&model=gpt&token=[redacted]&sig=[redacted]",
		"https://h/v1?api_key=a&signature=b&password=c&x=1":    "https://h/v1?api_key=[redacted]&signature=[redacted]&password=[redacted]&x=1",
		"https://h/?API-KEY=a&Subscription-Key=b&max_tokens=9": "https://h/?API-KEY=[redacted]&Subscription-Key=[redacted]&max_tokens=9",
		"https://h/cb#access_token=abc&state=1":                "https://h/cb#access_token=[redacted]&state=1",
		"https://h/?api%2Dkey=abc":                             "https://h/?api%2Dkey=[redacted]",
		"http://u:p@h:8080":                                    "http://u:[redacted]@h:8080",
		"not a url ?key=1":                                     "not a url ?key=1",
	} {
		if got := journal.RedactURL(in); got != want {
			t.Errorf("RedactURL(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRedactText(t *testing.T) {
	in := `Post "http://bob:hunter2pass@127.0.0.1:1/v1/chat/completions?api-key=azsecret55555": dial tcp: refused; see https://x/?token=t1 and <https://y/?sig=s2>`
	want := `Post "http://bob:[redacted]@127.0.0.1:1/v1/chat/completions?api-key=[redacted]": dial tcp: refused; see https://x/?token=[redacted] and <https://y/?sig=[redacted]>`
	if got := journal.RedactText(in); got != want {
		t.Errorf("RedactText:\n got %s\nwant %s", got, want)
	}
}

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

func TestSecretFieldCredentialNames(t *testing.T) {
	for _, name := range []string{"key", "api-key", "api_key", "token", "access_token", "sig", "signature", "password",
		"Ocp-Apim-Subscription-Key", "X-Amz-Signature", "refresh_token", "x-goog-api-key"} {
		if !journal.SecretField(name) {
			t.Errorf("SecretField(%q) = false, want true", name)
		}
	}
	for _, name := range []string{"model", "max_tokens", "keyword", "outage", "signal", "stream", "base_url"} {
		if journal.SecretField(name) {
			t.Errorf("SecretField(%q) = true, want false", name)
		}
	}
}
