package redact_test

import (
	"testing"

	"github.com/drill-dev/drill/internal/redact"
)

func TestTerminal(t *testing.T) {
	for in, want := range map[string]string{
		"gpt-4o-mini":                        "gpt-4o-mini",
		"modèle-été":                         "modèle-été",
		"\x1b[2J\x1b[Hbreaker":               "[2J[Hbreaker",
		"a\tb\r\nc\x07d\x7fe":                "a b  cde",
		"x\u009b31my":                        "x31my",
		"left\u202eright\u2066i":             "leftrighti",
		"bad\xffbyte":                        "badbyte",
		"\x1b]0;owned\x07title":              "]0;ownedtitle",
		"sk-abcdefghijklmnopqrstuv\x1b[31m!": "[redacted][31m!",
		"sk-abcdefghij\x1bklmnopqrstuv":      "[redacted]",
	} {
		if got := redact.Terminal(in); got != want {
			t.Errorf("Terminal(%q) = %q, want %q", in, got, want)
		}
	}
}

// BenchmarkTerminal is one dashboard row's model name made safe to print,
// with an API key in the environment.
func BenchmarkTerminal(b *testing.B) {
	b.Setenv("OPENAI_API_KEY", "sk-bench-0123456789abcdefghij&<>")
	for b.Loop() {
		redact.Terminal("gpt-5.4-mini")
	}
}
