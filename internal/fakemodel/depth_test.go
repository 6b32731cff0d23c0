package fakemodel

import (
	"math/rand/v2"
	"testing"
)

// jsonDepthByByte is jsonDepth as one byte-by-byte pass: the reference the
// faster scan must agree with on any input, valid JSON or not.
func jsonDepthByByte(b []byte) int {
	depth, deepest, inString := 0, 0, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			depth++
			deepest = max(deepest, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	return deepest
}

var depthSeeds = []string{
	``, `"`, `\`, `"\`, `"\"`, `"\\"[`, `"\\\"[`, `{"a":"[[[{{{\"]]]","b":[1,{"c":2}]}`,
	`[[["\\\\"]]]`, `["\\\\\"[[" , [[]]]`, `{"k\"":[{"x":"\u005c"}]}`, `]]]][[`, `"a\\" [ "b\\\" [" [`,
}

// TestJSONDepthMatchesTheByteScan checks jsonDepth against the byte scan on
// the seeds and on random texts of quotes, backslashes and brackets.
func TestJSONDepthMatchesTheByteScan(t *testing.T) {
	for _, s := range depthSeeds {
		if got, want := jsonDepth([]byte(s)), jsonDepthByByte([]byte(s)); got != want {
			t.Errorf("jsonDepth(%q) = %d, the byte scan gives %d", s, got, want)
		}
	}
	const alphabet = `"\\{}[]a :,`
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		b := make([]byte, r.IntN(40))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		if got, want := jsonDepth(b), jsonDepthByByte(b); got != want {
			t.Fatalf("jsonDepth(%q) = %d, the byte scan gives %d", b, got, want)
		}
	}
}

func FuzzJSONDepth(f *testing.F) {
	for _, s := range depthSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := jsonDepth(b), jsonDepthByByte(b); got != want {
			t.Fatalf("jsonDepth(%q) = %d, the byte scan gives %d", b, got, want)
		}
	})
}
