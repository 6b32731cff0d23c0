package proxy

import (
	"encoding/json"
	"testing"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/internal/triage"
)

// peekCases are bodies where the fast reading and encoding/json's could
// part: case, escapes, duplicates, nulls, types, bodies that are not JSON.
var peekCases = []string{
	`{"model":"gpt-5.4-mini","stream":true}`,
	`{"stream":false,"model":"m","messages":[{"role":"user","content":"a \"quoted\" }{ text"}]}`,
	`{"Model":"upper"}`, `{"MODEL":"m","STREAM":true}`, `{"modeL":"x"}`,
	`{"mod\u0065l":"escaped key"}`, `{"model":"esc\u00e9aped \n value"}`, `{"model":"\ud800"}`,
	`{"model":"a","model":"b"}`, `{"model":"a","Model":"b"}`, `{"model":"a","model":5}`,
	`{"model":null,"stream":null}`, `{"model":5}`, `{"stream":"yes"}`, `{"stream":1}`,
	`{"ſtream":true}`, `{"K":"kelvin"}`, `{"model":"m"} trailing`, `{"model":"m"`, `[{"model":"m"}]`,
	`null`, `"model"`, ``, `{}`, ` { "model" : "spaced" , "stream" : true } `, `{"model":"bad utf8 ` + "\xff" + `"}`,
	`{"x":{"model":"nested"},"model":"top"}`, `{"x":[1,2,{"stream":true}],"stream":false}`,
	`{"model":"m","stream":1}`, `{"model":"m","stream":null}`, `{"model":"m","stream":"true"}`, `{"stream":true,"model":"m","model":null}`,
	`{"model":"m","stream":true,"stream":false}`, `{"a\"b":1,"model":"m"}`, `{"model":"m"}{}`, `{"model":"m",}`,
}

func TestPeekReadsAsEncodingJSONDoes(t *testing.T) {
	cases := append([]string(nil), peekCases...)
	for i := 1; i <= 120; i++ {
		e, _ := emails.Nth(i)
		b, err := json.Marshal(triage.Params("gpt-5.4-mini", e))
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, string(b))
	}
	for _, c := range cases {
		m, s := peek([]byte(c))
		wm, ws := peekJSON([]byte(c))
		if m != wm || s != ws {
			t.Errorf("peek(%.80q) = %q, %v; encoding/json reads %q, %v", c, m, s, wm, ws)
		}
	}
	if m, s, valid, ok := peekFast([]byte(cases[len(cases)-1])); !valid || !ok || m != "gpt-5.4-mini" || s {
		t.Errorf("a triage request peeks fast as %q, %v, %v, %v: want the fast path to read it", m, s, valid, ok)
	}
}

func FuzzPeek(f *testing.F) {
	for _, c := range peekCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		m, s := peek(body)
		wm, ws := peekJSON(body)
		if m != wm || s != ws {
			t.Errorf("peek(%q) = %q, %v; encoding/json reads %q, %v", body, m, s, wm, ws)
		}
	})
}

// BenchmarkPeek reads triage requests as openai-go encodes them.
func BenchmarkPeek(b *testing.B) {
	var bodies [][]byte
	for i := 1; i <= 20; i++ {
		e, _ := emails.Nth(i)
		body, err := json.Marshal(triage.Params("gpt-5.4-mini", e))
		if err != nil {
			b.Fatal(err)
		}
		bodies = append(bodies, body)
	}
	for b.Loop() {
		for _, body := range bodies {
			peek(body)
		}
	}
}
