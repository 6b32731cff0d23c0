package fakemodel

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"testing"
)

// marshalAnswer is the completion write built for a whole answer without
// tool calls, encoded by json.Marshal: what appendAnswer must reproduce.
func marshalAnswer(out outgoing, model string, n int, created int64) []byte {
	choices := make([]choice, n)
	for i := range choices {
		choices[i] = choice{Index: i, Message: &message{Role: "assistant", Content: &out.content}, FinishReason: out.finish}
	}
	b, _ := json.Marshal(completion{
		ID: out.id, Object: "chat.completion", Created: created, Model: model,
		Choices: choices, Usage: &out.usage, SystemFingerprint: "fp_drill",
	})
	return b
}

// TestAppendAnswerIsJSONMarshal checks appendAnswer's bytes are
// json.Marshal's for usual and odd contents, ids, models and counts.
func TestAppendAnswerIsJSONMarshal(t *testing.T) {
	contents := []string{
		"", `{"intent":"refund","order_number":"DR-123456","product":"Trail Runner 2","urgency":"high"}`,
		"line\nbreak\ttab \"quoted\" back\\slash", "<html> & </html>", "\u2028\u2029 é ✓ 🙂", "bad \xff utf8 \x00 \x1f",
	}
	for _, content := range contents {
		for _, n := range []int{0, 1, 3} {
			for _, created := range []int64{0, 1767225600, -5} {
				out := outgoing{id: "chatcmpl-drill<&>0001", content: content, finish: "length",
					usage: Usage{PromptTokens: 1234, CompletionTokens: 56, TotalTokens: 1290}}
				for _, model := range []string{ModelMini, "odd \"model\" <x>"} {
					got, want := appendAnswer(nil, out, model, n, created), marshalAnswer(out, model, n, created)
					if !bytes.Equal(got, want) {
						t.Fatalf("appendAnswer differs from json.Marshal:\n got %s\nwant %s", got, want)
					}
				}
			}
		}
	}
}

// TestStatusLine checks statusLine is the code and its text, the 200 too.
func TestStatusLine(t *testing.T) {
	for _, code := range []int{200, 400, 429, 500, 503, 599} {
		if got, want := statusLine(code), strconv.Itoa(code)+" "+http.StatusText(code); got != want {
			t.Errorf("statusLine(%d) = %q, want %q", code, got, want)
		}
	}
}
