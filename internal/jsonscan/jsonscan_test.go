package jsonscan

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestBool(t *testing.T) {
	for in, want := range map[string]struct{ v, ok bool }{
		"true": {true, true}, "false": {false, true}, "null": {false, false},
		"tru": {false, false}, `"true"`: {false, false}, "": {false, false},
	} {
		s := New([]byte(in))
		v, ok := s.Bool()
		if v != want.v || ok != want.ok {
			t.Errorf("Bool(%q) = %v, %v; want %v, %v", in, v, ok, want.v, want.ok)
		}
		if ok && !s.End() {
			t.Errorf("Bool(%q) left %q", in, in[s.i:])
		}
	}
}

// unescapeCases are JSON strings, quotes included: escapes of every kind,
// surrogate pairs, lone surrogates, control bytes and invalid UTF-8.
var unescapeCases = []string{
	`"plain"`, `"caf\u00e9 \"q\" \\ \/ \b\f\n\r\t"`, `"\ud83d\ude00 smile"`,
	`"lone \ud83d here"`, `"\ude00 low first"`, `"bad \x escape"`, `"short \u12"`,
	"\"tab\there\"", "\"\xff\xfe\"", `"Gr\u00f6\u00dfe ✓"`, `"end \\"`,
}

// TestUnescape checks Unescape against encoding/json: the same text where
// it reads a string, and declined where encoding/json rejects it or writes
// U+FFFD for a lone surrogate or invalid byte.
func TestUnescape(t *testing.T) {
	for _, c := range unescapeCases {
		checkUnescape(t, []byte(c))
	}
	got, ok := Unescape([]byte(`caf\u00e9`))
	if !ok || string(got) != "café" {
		t.Errorf(`Unescape(caf\u00e9) = %q, %v; want "café", true`, got, ok)
	}
	if _, ok := Unescape([]byte(`\ud83d`)); ok {
		t.Error("Unescape read a lone surrogate")
	}
}

// FuzzUnescape checks Unescape against encoding/json on any JSON string.
func FuzzUnescape(f *testing.F) {
	for _, c := range unescapeCases {
		f.Add([]byte(c))
	}
	f.Fuzz(checkUnescape)
}

// checkUnescape compares Unescape and Scanner.Text on the JSON string q
// with encoding/json.
func checkUnescape(t *testing.T, q []byte) {
	if len(q) < 2 || q[0] != '"' || StringEnd(q, 1) != len(q)-1 {
		return // not one JSON string
	}
	var want string
	wantErr := json.Unmarshal(q, &want)
	got, ok := Unescape(q[1 : len(q)-1])
	text, textOK := New(q).Text()
	if ok != textOK || (ok && text != string(got)) {
		t.Errorf("%q: Text %q, %v; Unescape %q, %v", q, text, textOK, got, ok)
	}
	switch {
	case ok && wantErr != nil:
		t.Errorf("%q: Unescape read %q; encoding/json: %v", q, got, wantErr)
	case ok && string(got) != want:
		t.Errorf("%q: Unescape read %q; encoding/json %q", q, got, want)
	case !ok && wantErr == nil && !strings.ContainsRune(want, utf8.RuneError):
		t.Errorf("%q: Unescape declined what encoding/json reads as %q", q, want)
	}
}

// TestUnescapeStringCopiesOnce checks that UnescapeString decodes an escaped
// text with one allocation (the decoded buffer is the string) and that the
// string does not share memory with raw when there is nothing to unescape.
func TestUnescapeStringCopiesOnce(t *testing.T) {
	raw := []byte(strings.Repeat(`a\"b`, 1000))
	if n := testing.AllocsPerRun(10, func() {
		if s, ok := UnescapeString(raw); !ok || len(s) != 3000 {
			t.Fatalf("UnescapeString = %d bytes, %v", len(s), ok)
		}
	}); n > 1 {
		t.Errorf("UnescapeString allocated %v times, want 1", n)
	}
	plain := []byte("plain text")
	s, ok := UnescapeString(plain)
	plain[0] = 'X'
	if !ok || s != "plain text" {
		t.Errorf("UnescapeString of plain text = %q, %v; want a copy independent of raw", s, ok)
	}
}

// TestNumberEnd checks NumberEnd against encoding/json's grammar: a text
// is a whole JSON number exactly when NumberEnd reads it to its end.
func TestNumberEnd(t *testing.T) {
	for _, in := range []string{
		"0", "-0", "7", "-12", "10", "1.5", "-0.25", "1e9", "1E+9", "2.5e-3", "123456789012345678901234",
		"", "-", "01", "-01", "1.", ".5", "1e", "1e+", "+1", "0x10", "1.e3", "--1", "1.5.", "Infinity", "NaN", " 1",
	} {
		got := NumberEnd([]byte(in), 0) == len(in)
		want := isJSONNumber(in)
		if got != want {
			t.Errorf("NumberEnd(%q) reads it whole: %v; encoding/json takes it as a number: %v", in, got, want)
		}
	}
	if end := NumberEnd([]byte(`12,"x"`), 0); end != 2 {
		t.Errorf(`NumberEnd("12,\"x\"") = %d, want 2`, end)
	}
}

// FuzzNumberEnd compares NumberEnd with encoding/json on any text.
func FuzzNumberEnd(f *testing.F) {
	for _, s := range []string{"0", "-1.5e+10", "01", "1.", "7x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		want := isJSONNumber(in)
		if got := NumberEnd([]byte(in), 0) == len(in); got != want {
			t.Errorf("NumberEnd(%q) reads it whole: %v; encoding/json takes it as a number: %v", in, got, want)
		}
	})
}

// isJSONNumber reports whether encoding/json reads in, with no space
// around it, as one number.
func isJSONNumber(in string) bool {
	if in == "" || in[0] <= ' ' || in[len(in)-1] <= ' ' {
		return false
	}
	d := json.NewDecoder(strings.NewReader(in))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil || d.More() {
		return false
	}
	_, ok := v.(json.Number)
	return ok && d.InputOffset() == int64(len(in))
}
