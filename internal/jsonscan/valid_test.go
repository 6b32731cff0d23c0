package jsonscan

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// validCases are texts where a validator can part from encoding/json:
// white space, literals, numbers, strings (escapes, control bytes, bytes
// past ASCII and invalid UTF-8, quotes and backslashes at every offset of
// an eight-byte word), structure and trailing text.
var validCases = []string{
	``, ` `, `0`, ` 0 `, "\t\r\n0\t\r\n", "\f0", "0\v", `-`, `-0`, `-01`, `01`, `1.`, `1.e5`, `.5`, `1e`, `1e+`,
	`1E-07`, `-0.0e0`, `+1`, `1 2`, `1x`, `123456789012345678901234567890`, `0x10`, `Infinity`, `NaN`,
	`true`, `false`, `null`, `tru`, `nul`, `truex`, `true1`, `True`, `nulll`, ` null `,
	`""`, `"`, `"a`, `"abc"`, `"\""`, `"\\"`, `"\/"`, `"\b\f\n\r\t"`, `"\a"`, `"\'"`, `"\x41"`, `"\u"`, `"\u12"`,
	`"\u12G4"`, `"\uABCDx"`, `"\uabcd"`, `"\ud800"`, `"\\\""`, `"\\\\"`, `"\\"\"`, "\"tab\there\"", "\"nl\nhere\"",
	"\"\x00\"", "\"\x1f\"", "\"\x7f\"", "\"\xff\xfe\"", "\"é€😀\"", "\"\xc3\"", `"1234567"`, `"12345678"`,
	`"123456789"`, `"1234567\"89"`, `"12345678\\"`, `"1234567890123456\u0041"`, "\"1234567\x01\"",
	`{}`, `[]`, `{ }`, `[ ]`, `{"a":1}`, `{"a" : 1 , "b" : [ ] }`, `{"a":1,}`, `{,}`, `[1,]`, `[,1]`, `[1 2]`,
	`{"a"}`, `{"a":}`, `{"a" 1}`, `{1:2}`, `{a:1}`, `{'a':1}`, `{"a":1 "b":2}`, `{"a":1}}`, `[[]`, `[]]`, `[}`,
	`{]`, `[{"a":[{"b":{}}]},[],{}]`, `{"a":{"b":{"c":[1,2,{"d":null}]}}}`, `[1,[2,[3,[4]]]] `, `[1]x`, `{}{}`,
	`[true,false,null,"",0,-1.5e+3,{},[]]`, `{"":""}`, `{"\u0041":1}`, "{\"a\x01\":1}", `["a",]`, `[-]`,
	`{"model":"gpt-5.4-mini","stream":true,"messages":[{"role":"user","content":"a \"quoted\" }{ text"}]}`,
}

// deep is n arrays or objects nested, closed or not.
func deep(n int, obj, closed bool) string {
	open, end := "[", "]"
	if obj {
		open, end = `{"k":`, "}"
	}
	s := strings.Repeat(open, n) + "0"
	if closed {
		s += strings.Repeat(end, n)
	}
	return s
}

// checkValid compares Valid with encoding/json.Valid on b.
func checkValid(t *testing.T, b []byte) {
	t.Helper()
	if got, want := Valid(b), json.Valid(b); got != want {
		t.Errorf("Valid(%.200q) = %v; encoding/json.Valid says %v", b, got, want)
	}
}

func TestValidAsEncodingJSON(t *testing.T) {
	for _, c := range validCases {
		checkValid(t, []byte(c))
		// Every prefix, and each case inside an array, an object and
		// a long string's neighbourhood.
		for i := range len(c) {
			checkValid(t, []byte(c[:i]))
		}
		checkValid(t, []byte("["+c+"]"))
		checkValid(t, []byte(`{"k":`+c+`}`))
		checkValid(t, []byte(`["`+strings.Repeat("x", 13)+`",`+c+`]`))
	}
	for _, n := range []int{1, 63, 64, 65, MaxDepth - 1, MaxDepth, MaxDepth + 1} {
		for _, obj := range []bool{false, true} {
			checkValid(t, []byte(deep(n, obj, true)))
			checkValid(t, []byte(deep(n, obj, false)))
		}
	}
	if !Valid([]byte(deep(MaxDepth, false, true))) || Valid([]byte(deep(MaxDepth+1, true, true))) {
		t.Errorf("Valid does not hold encoding/json's nesting limit of %d", MaxDepth)
	}
}

// jsonAlphabet is what random texts are made of: JSON's punctuation,
// literals, digits, escapes, space and a few bytes outside JSON.
var jsonAlphabet = []string{`{`, `}`, `[`, `]`, `,`, `:`, `"`, `\`, `"a"`, `"k":`, `1`, `0`, `-`, `.`, `e`, `+`,
	`true`, `null`, `false`, ` `, "\n", `u`, `00e9`, `n`, "\x00", "\x1f", "\xff", `x`, `"plain text here"`}

func TestValidRandomAndMutated(t *testing.T) {
	r := rand.New(rand.NewPCG(38, 1))
	for range 20000 {
		var sb strings.Builder
		for range r.IntN(24) {
			sb.WriteString(jsonAlphabet[r.IntN(len(jsonAlphabet))])
		}
		checkValid(t, []byte(sb.String()))
	}
	for _, c := range validCases {
		if !json.Valid([]byte(c)) || len(c) == 0 {
			continue
		}
		for range 200 {
			b := []byte(c)
			switch i := r.IntN(len(b)); r.IntN(3) {
			case 0:
				b[i] = byte(r.IntN(256))
			case 1:
				b = append(b[:i], b[i+1:]...)
			default:
				a := jsonAlphabet[r.IntN(len(jsonAlphabet))]
				b = append(b[:i], append([]byte(a), b[i:]...)...)
			}
			checkValid(t, b)
		}
	}
}

func TestValidAllocatesNothingUpTo64Deep(t *testing.T) {
	b := []byte(deep(64, true, true))
	if n := testing.AllocsPerRun(10, func() { Valid(b) }); n != 0 {
		t.Errorf("Valid allocates %v times on 64 levels", n)
	}
}

// FuzzValid compares Valid with encoding/json.Valid on any text.
func FuzzValid(f *testing.F) {
	for _, c := range validCases {
		f.Add([]byte(c))
	}
	f.Add([]byte(deep(MaxDepth, false, true)))
	f.Add([]byte(deep(MaxDepth+1, true, true)))
	f.Fuzz(checkValid)
}

func BenchmarkValid(b *testing.B) {
	body := []byte(`{"model":"m","messages":[{"role":"user","content":"` + strings.Repeat(`Dear team, the invoice is attached. `, 100) + `"}],"stream":false}`)
	b.Run("jsonscan", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		for b.Loop() {
			Valid(body)
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		for b.Loop() {
			json.Valid(body)
		}
	})
}

// keyValue is an object's member as Members reports it, or as encoding/json
// reads it: its key decoded, its value's text.
type keyValue struct{ key, value string }

// jsonMembers reads a valid object's members through encoding/json.
func jsonMembers(t *testing.T, b []byte) []keyValue {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(b))
	if _, err := d.Token(); err != nil {
		t.Fatalf("%q: %v", b, err)
	}
	var out []keyValue
	for d.More() {
		k, err := d.Token()
		var v json.RawMessage
		if err == nil {
			err = d.Decode(&v)
		}
		if err != nil {
			t.Fatalf("%q: %v", b, err)
		}
		out = append(out, keyValue{k.(string), string(v)})
	}
	return out
}

// checkMembers compares Members with encoding/json on b: its verdict, and
// a valid object's members in order.
func checkMembers(t *testing.T, b []byte) {
	t.Helper()
	var got []keyValue
	valid, object := Members(b, func(key, value []byte) {
		var k string
		if err := json.Unmarshal(append(append([]byte{'"'}, key...), '"'), &k); err != nil {
			t.Errorf("Members(%.200q) gave the key %q, not a JSON string's text: %v", b, key, err)
		}
		got = append(got, keyValue{k, string(value)})
	})
	if want := json.Valid(b); valid != want {
		t.Errorf("Members(%.200q) reports valid %v; encoding/json.Valid says %v", b, valid, want)
	}
	i := Space(b, 0)
	if isObject := i < len(b) && b[i] == '{'; object != isObject {
		t.Errorf("Members(%.200q) reports object %v", b, object)
	}
	if valid && object && !slices.Equal(got, jsonMembers(t, b)) {
		t.Errorf("Members(%.200q) reads %q; encoding/json reads %q", b, got, jsonMembers(t, b))
	}
}

func TestMembersAsEncodingJSON(t *testing.T) {
	cases := append([]string{`{"a":1,"a":[2, {"b":3}] ,"c\u0041\"":"x\n" , "":{}}`, ` { } `, `{"a":1}x`, `{"a":1,}`,
		`{"a" 1}`, `{"a":}`, `{"a":1 "b":2}`}, validCases...)
	for _, n := range []int{MaxDepth - 1, MaxDepth} {
		checkMembers(t, []byte(`{"k":`+deep(n, false, true)+`}`))
	}
	for _, c := range cases {
		checkMembers(t, []byte(c))
		for i := range len(c) {
			checkMembers(t, []byte(c[:i]))
		}
		checkMembers(t, []byte(`{"k":`+c+`, "z" : `+c+`}`))
	}
}

// FuzzMembers compares Members with encoding/json on any text.
func FuzzMembers(f *testing.F) {
	for _, c := range validCases {
		f.Add([]byte(`{"k":` + c + `}`))
	}
	f.Fuzz(checkMembers)
}
