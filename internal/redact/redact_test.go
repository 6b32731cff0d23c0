package redact_test

import (
	"strings"
	"testing"

	"github.com/drill-dev/drill/internal/redact"
)

func TestURL(t *testing.T) {
	for in, want := range map[string]string{
		"http://bob:hunter2pass@host/v1?api-key=azsecret55555&access_token=at777777": "http://bob:[redacted]@host/v1?api-key=[redacted]&access_token=[redacted]",
		"https://api.example.com/v1":                           "https://api.example.com/v1",
		"https://bob@host/v1":                                  "https://bob@host/v1",
		"https://h/v1?key=k1&model=gpt&token=t2&sig=s3":        "https://h/v1?key=[redacted]&model=gpt&token=[redacted]&sig=[redacted]",
		"https://h/v1?api_key=a&signature=b&password=c&x=1":    "https://h/v1?api_key=[redacted]&signature=[redacted]&password=[redacted]&x=1",
		"https://h/?API-KEY=a&Subscription-Key=b&max_tokens=9": "https://h/?API-KEY=[redacted]&Subscription-Key=[redacted]&max_tokens=9",
		"https://h/cb#access_token=abc&state=1":                "https://h/cb#[redacted]",
		"https://h/v1#tok":                                     "https://h/v1#[redacted]",
		"https://h/v1#":                                        "https://h/v1#",
		"https://h/?api%2Dkey=abc":                             "https://h/?api%2Dkey=[redacted]",
		"http://u:p@h:8080":                                    "http://u:[redacted]@h:8080",
		"not a url ?key=1":                                     "not a url ?key=1",
	} {
		if got := redact.URL(in); got != want {
			t.Errorf("URL(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestText(t *testing.T) {
	in := `Post "http://bob:hunter2pass@127.0.0.1:1/v1/chat/completions?api-key=azsecret55555": dial tcp: refused; see https://x/?token=t1 and <https://y/?sig=s2>`
	want := `Post "http://bob:[redacted]@127.0.0.1:1/v1/chat/completions?api-key=[redacted]": dial tcp: refused; see https://x/?token=[redacted] and <https://y/?sig=[redacted]>`
	if got := redact.Text(in); got != want {
		t.Errorf("Text:\n got %s\nwant %s", got, want)
	}
}

func TestFieldCredentialNames(t *testing.T) {
	for _, name := range []string{"key", "api-key", "api_key", "token", "access_token", "sig", "signature", "password",
		"Ocp-Apim-Subscription-Key", "X-Amz-Signature", "refresh_token", "x-goog-api-key"} {
		if !redact.Field(name) {
			t.Errorf("Field(%q) = false, want true", name)
		}
	}
	for _, name := range []string{"model", "max_tokens", "keyword", "outage", "signal", "stream", "base_url"} {
		if redact.Field(name) {
			t.Errorf("Field(%q) = true, want false", name)
		}
	}
}

func TestField(t *testing.T) {
	for name, want := range map[string]bool{
		"APIKey": true, "api_key": true, "Authorization": true, "key": true, "OPENAI_API_KEY": true,
		"client_secret": true, "token": true, "max_tokens": false, "keyword": false, "outage": false,
		"retries": false, "time_limit": false,
	} {
		if got := redact.Field(name); got != want {
			t.Errorf("Field(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestTextKeys(t *testing.T) {
	for in, want := range map[string]string{
		"sk-proj-abcdefghijklmnop0123":                         redact.Redacted,
		"model sk-abcdefghijklmnopqrstu failed":                "model " + redact.Redacted + " failed",
		`"sk-abcdefghijklmnopqrstu","sk-0123456789abcdefghij"`: `"` + redact.Redacted + `","` + redact.Redacted + `"`,
		"risk-averse-settings-for-the-drill":                   "risk-averse-settings-for-the-drill",
		"task-sk-abcdefghijklmnopqrstu":                        "task-sk-abcdefghijklmnopqrstu",
		"sk-short":                                             redact.Redacted,
		"sk-a":                                                 redact.Redacted,
		"model sk-1 failed":                                    "model " + redact.Redacted + " failed",
		"sk-":                                                  "sk-",
		"sk-...":                                               "sk-...",
		"gpt-4o-mini":                                          "gpt-4o-mini",
		"gpt-5.4-mini":                                         "gpt-5.4-mini",
		"gpt-5.4-nano":                                         "gpt-5.4-nano",
		"o4-mini-2025-04-16":                                   "o4-mini-2025-04-16",
		"claude-sonnet-4-5":                                    "claude-sonnet-4-5",
		"desk-model":                                           "desk-model",
		"https://h/v1?api-key=k&x=sk-abcdefghijklmnopqrstu": "https://h/v1?api-key=" + redact.Redacted + "&x=" + redact.Redacted,
	} {
		if got := redact.Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestJSONKeepsFieldsRedactsValues(t *testing.T) {
	in := `{"b":1,"model":"sk-abcdefghijklmnopqrstu","api_key":"x","n":12345678901234567890,"u":["http://u:pw@h/?token=t"]}`
	got, err := redact.JSON([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"api_key":"x","b":1,"model":"[redacted]","n":12345678901234567890,"u":["http://u:[redacted]@h/?token=[redacted]"]}`
	if string(got) != want {
		t.Errorf("JSON:\n got %s\nwant %s", got, want)
	}
	plain := `{"z":1,"a":"gpt-4o"}`
	if got, _ := redact.JSON([]byte(plain)); string(got) != plain {
		t.Errorf("JSON changed a document with no secret: %s", got)
	}
	cfg, err := redact.Config([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(cfg), "api_key") {
		t.Errorf("Config kept a secret-named field: %s", cfg)
	}
}
