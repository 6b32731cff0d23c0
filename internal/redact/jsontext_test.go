package redact_test

import (
	"testing"

	"github.com/drill-dev/drill/internal/redact"
)

// JSONText redacts strings in place: order, layout and every other byte
// stay as they were.
func TestJSONTextInPlace(t *testing.T) {
	in := "{\n  \"z\": \"sk-abcdefghijklmnopqrstuvwxyz\",\n  \"a\": \"https://u:pw@h/v1?api-key=K#tok\",\n  \"esc\": \"a\\\"b <c>\",\n  \"n\": 1\n}\n"
	want := "{\n  \"z\": \"" + redact.Redacted + "\",\n  \"a\": \"https://u:" + redact.Redacted + "@h/v1?api-key=" + redact.Redacted + "#" + redact.Redacted + "\",\n  \"esc\": \"a\\\"b <c>\",\n  \"n\": 1\n}\n"
	if got := string(redact.JSONText([]byte(in))); got != want {
		t.Errorf("JSONText:\n%s\nwant:\n%s", got, want)
	}
	clean := []byte(`{"a": "plain", "b": ["x\"y"]}`)
	if got := redact.JSONText(clean); &got[0] != &clean[0] {
		t.Error("a text with nothing to redact was copied")
	}
}

// A key that is a secret (a model map's FROM) is redacted as a value is.
func TestJSONRedactsKeys(t *testing.T) {
	out, err := redact.Config([]byte(`{"model_map":{"sk-abcdefghijklmnopqrstuvwxyz123456":"gpt-5.4-nano"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"model_map":{"[redacted]":"gpt-5.4-nano"}}`; string(out) != want {
		t.Errorf("Config = %s, want %s", out, want)
	}
}
