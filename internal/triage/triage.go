// Package triage builds the chat-completion request that asks a model to
// triage one support email, and parses the model's answer. drill eval and the
// engine's fallback chain both use it, so every model sees the same prompt.
package triage

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/internal/answer"
)

// SchemaName is the name of the JSON schema sent in response_format.
const SchemaName = "email_triage"

// SystemPrompt returns the system message: the task, the shop's rules and the
// closed sets of values.
func SystemPrompt() string {
	var b strings.Builder
	b.WriteString("You triage customer support emails for an outdoor-gear shop. ")
	b.WriteString("Answer with a JSON object with exactly four string fields: intent, order_number, product, urgency.\n\n")
	b.WriteString(emails.Rules())
	b.WriteString("\nAllowed intents: ")
	b.WriteString(strings.Join(answer.Intents, ", "))
	b.WriteString("\nCatalogue products: ")
	b.WriteString(strings.Join(answer.Products, "; "))
	b.WriteString("\nAllowed urgencies: ")
	b.WriteString(strings.Join(answer.Urgencies, ", "))
	b.WriteString("\n")
	return b.String()
}

// UserPrompt returns the user message for one email: its From and Subject
// lines, a blank line and the body.
func UserPrompt(e emails.Email) string { return e.Text() }

// Schema returns the strict JSON schema of an answer, with the closed sets as
// enums (product may also be "").
func Schema() map[string]any {
	products := append([]string{""}, answer.Products...)
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"intent":       map[string]any{"type": "string", "enum": answer.Intents},
			"order_number": map[string]any{"type": "string", "description": "DR-123456, or empty"},
			"product":      map[string]any{"type": "string", "enum": products},
			"urgency":      map[string]any{"type": "string", "enum": answer.Urgencies},
		},
		"required":             []string{"intent", "order_number", "product", "urgency"},
		"additionalProperties": false,
	}
}

// Params returns the request that asks model to triage e: the system prompt
// with the rules and closed sets, a user message with the email, and a strict
// json_schema response format for the four fields.
func Params(model string, e emails.Email) openai.ChatCompletionNewParams {
	return openai.ChatCompletionNewParams{
		Model: shared.ChatModel(model),
		Messages: []openai.ChatCompletionMessageParamUnion{
			openai.SystemMessage(SystemPrompt()),
			openai.UserMessage(UserPrompt(e)),
		},
		ResponseFormat: openai.ChatCompletionNewParamsResponseFormatUnion{
			OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{
				JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{
					Name:        SchemaName,
					Description: openai.String("The triage of one support email."),
					Strict:      openai.Bool(true),
					Schema:      Schema(),
				},
			},
		},
	}
}

// ErrInvalid is wrapped by every error Parse returns.
var ErrInvalid = errors.New("invalid triage answer")

// Parse reads a model's answer strictly: one JSON object with exactly the four
// string fields, values inside the closed sets (product may be empty) and an
// order number that is empty or DR-123456 in any usual spelling. It returns
// the answer normalised. Any other content is an error wrapping ErrInvalid, so
// the answer counts as wrong on every field.
//
// The result is a function of content alone, and a drill reads the same
// few hundred answers again and again (the fake model answers an email the
// same way every time, in every drill of a sweep): it is kept by content
// (parsed.go) and read through encoding/json only the first time.
func Parse(content string) (answer.Answer, error) {
	if r, ok := parsed.get(content); ok {
		return r.a, r.err
	}
	a, err := parse(content)
	parsed.put(content, parseResult{a, err})
	return a, err
}

// parse is Parse without the cache.
func parse(content string) (answer.Answer, error) {
	var raw map[string]json.RawMessage
	dec := json.NewDecoder(strings.NewReader(content))
	if err := dec.Decode(&raw); err != nil {
		return answer.Answer{}, fmt.Errorf("%w: not a JSON object: %v", ErrInvalid, err)
	}
	if raw == nil {
		return answer.Answer{}, fmt.Errorf("%w: null", ErrInvalid)
	}
	if _, err := dec.Token(); err != io.EOF {
		return answer.Answer{}, fmt.Errorf("%w: trailing data after the JSON object", ErrInvalid)
	}
	var a answer.Answer
	for _, f := range answer.Fields {
		v, ok := raw[f]
		if !ok {
			return answer.Answer{}, fmt.Errorf("%w: missing field %q", ErrInvalid, f)
		}
		var s string
		if err := json.Unmarshal(v, &s); err != nil || bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
			return answer.Answer{}, fmt.Errorf("%w: field %q is not a string", ErrInvalid, f)
		}
		a.SetField(f, s)
	}
	for k := range raw {
		if !isField(k) {
			return answer.Answer{}, fmt.Errorf("%w: unexpected field %q", ErrInvalid, k)
		}
	}
	if err := a.Valid(); err != nil {
		return answer.Answer{}, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	return answer.Normalize(a), nil
}

func isField(k string) bool {
	for _, f := range answer.Fields {
		if f == k {
			return true
		}
	}
	return false
}
