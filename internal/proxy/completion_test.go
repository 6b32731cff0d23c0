package proxy

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/drill-dev/drill/internal/edge"
	"github.com/drill-dev/drill/internal/sse"
)

// completionCases are bodies where the fast reading of a completion and
// encoding/json's could part: case, escapes, duplicates, nulls, types,
// token counts at and past edge.Tokens' bounds, bodies that are not JSON
// or not objects.
var completionCases = []string{
	`{"id":"c1","choices":[{"index":0,"message":{"role":"assistant","content":"hi \"there\""}}],"usage":{"prompt_tokens":12,"completion_tokens":3,"total_tokens":15}}`,
	`{"choices":[]}`, `{"choices":{}}`, `{"choices":0}`, `{"choices":"x"}`, `{"choices":null}`, `{}`, `null`, `[]`, `[{"choices":[1]}]`,
	`"choices"`, `5`, ``, `{"choices":[1]`, `{"choices":[1]} x`, `{"choices":[1],}`, `not json`,
	`{"choices":[1],"choices":null}`, `{"choices":null,"choices":[1]}`, `{"Choices":[1]}`, `{"CHOICES":[1],"choices":null}`,
	`{"ch\u006fices":[1]}`, `{"choices":[1],"usage":null}`, `{"choices":[1],"usage":{}}`, `{"choices":[1],"usage":5}`,
	`{"choices":[1],"usage":"x"}`, `{"choices":[1],"usage":[]}`, `{"choices":[1],"Usage":{"prompt_tokens":1}}`,
	`{"choices":[1],"usage":{"prompt_tokens":1},"usage":{"completion_tokens":2}}`,
	`{"choices":[1],"usage":{"prompt_tokens":1},"usage":null}`, `{"choices":[1],"usage":null,"usage":{"prompt_tokens":4}}`,
	`{"choices":[1],"usage":{"Prompt_Tokens":7,"completion_tokens":2}}`, `{"choices":[1],"usage":{"prompt_tokens":1,"prompt_tokens":9}}`,
	`{"choices":[1],"usage":{"prompt_tokens":-1,"completion_tokens":2}}`, `{"choices":[1],"usage":{"prompt_tokens":1.0}}`,
	`{"choices":[1],"usage":{"prompt_tokens":1e3}}`, `{"choices":[1],"usage":{"prompt_tokens":"5"}}`,
	`{"choices":[1],"usage":{"prompt_tokens":null,"completion_tokens":4}}`, `{"choices":[1],"usage":{"prompt_tokens":true}}`,
	`{"choices":[1],"usage":{"prompt_tokens":99999999999999999999}}`, `{"choices":[1],"usage":{"prompt_tokens":999999999999999999}}`,
	`{"choices":[1],"usage":{"prompt_tokens":9223372036854775807,"completion_tokens":1}}`,
	fmt.Sprintf(`{"choices":[1],"usage":{"prompt_tokens":%d,"completion_tokens":%d}}`, edge.MaxTokens, edge.MaxTokens),
	fmt.Sprintf(`{"choices":[1],"usage":{"prompt_tokens":%d,"completion_tokens":0}}`, edge.MaxTokens+1),
	`{"choices":[1],"usage":{"prompt_tokens_details":{"cached_tokens":5},"completion_tokens":2,"\u0070":1}}`,
	`{"choices":[1],"usage":{"ſrompt_tokens":3}}`, `{"choices":[1],"uſage":{"prompt_tokens":3}}`, `{"K":1,"choices":[1]}`,
	` { "choices" : [ 1 ] , "usage" : { "prompt_tokens" : 3 , "completion_tokens" : 4 } } `,
	`{"choices":[{"message":{"content":"bad utf8 ` + "\xff" + `"}}],"usage":{"prompt_tokens":1,"completion_tokens":1}}`,
	`{"choices":[{"message":{"content":"ctl ` + "\x01" + `"}}]}`, `{"x":{"choices":null,"usage":{"prompt_tokens":1}},"choices":[1]}`,
}

// parseJSON is the proxy's reading of a completion as it was before its
// fast path: encoding/json, then the same checks and bounds.
func parseJSON(body []byte) (invalid string, in, out int) {
	var v struct {
		Choices json.RawMessage `json:"choices"`
		Usage   *sse.Usage      `json:"usage"`
	}
	if err := json.Unmarshal(body, &v); err != nil {
		return fmt.Sprintf("the body is not JSON: %v", err), 0, 0
	}
	if len(v.Choices) == 0 || string(v.Choices) == "null" {
		return "the body has no choices", 0, 0
	}
	if v.Usage != nil && edge.Tokens(v.Usage.PromptTokens) && edge.Tokens(v.Usage.CompletionTokens) {
		return "", v.Usage.PromptTokens, v.Usage.CompletionTokens
	}
	return "", 0, 0
}

// checkCompletion compares the proxy's reading of body with parseJSON's,
// and the fast path's, where it reads, with encoding/json's.
func checkCompletion(t *testing.T, body []byte) {
	t.Helper()
	w := &watch{buf: body}
	w.parseCompletion()
	if inv, in, out := parseJSON(body); w.invalid != inv || w.in != in || w.out != out {
		t.Errorf("parseCompletion(%.200q) = %q, %d, %d; encoding/json reads %q, %d, %d", body, w.invalid, w.in, w.out, inv, in, out)
	}
	if c, ok := completionFast(body); ok {
		if want, err := completionJSON(body); err != nil || c != want {
			t.Errorf("completionFast(%.200q) = %+v; encoding/json reads %+v, %v", body, c, want, err)
		}
	}
}

func TestCompletionReadsAsEncodingJSONDoes(t *testing.T) {
	for _, c := range completionCases {
		checkCompletion(t, []byte(c))
	}
	long := `{"id":"x","choices":[{"message":{"content":"` + strings.Repeat(`a \"b\" \\ é `, 500) + `"}}],"usage":{"prompt_tokens":120,"completion_tokens":80}}`
	checkCompletion(t, []byte(long))
	if c, ok := completionFast([]byte(completionCases[0])); !ok || !c.choices || c.usage != (sse.Usage{PromptTokens: 12, CompletionTokens: 3}) {
		t.Errorf("a completion reads fast as %+v, %v: want the fast path to read it", c, ok)
	}
}

func FuzzCompletion(f *testing.F) {
	for _, c := range completionCases {
		f.Add([]byte(c))
	}
	f.Fuzz(checkCompletion)
}
