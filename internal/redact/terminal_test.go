package redact_test

import (
	"strings"
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

// TerminalWriter removes escape sequences and carriage returns, keeps
// newlines, tabs and characters cut between writes, and redacts a secret
// in a write (a printer writes a line or a cell at once).
func TestTerminalWriter(t *testing.T) {
	var b strings.Builder
	w := redact.NewTerminalWriter(&b)
	text := "policy evil\x1b[2J\tok\r\n— × é\n"
	for i := 0; i < len(text); i += 3 { // cut mid-character on purpose
		if _, err := w.Write([]byte(text[i:min(i+3, len(text))])); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.Write([]byte("model sk-abcdefghijklmnopqrstuvwxyz123456\n")); err != nil {
		t.Fatal(err)
	}
	want := "policy evil[2J\tok\n— × é\nmodel " + redact.Redacted + "\n"
	if b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}
