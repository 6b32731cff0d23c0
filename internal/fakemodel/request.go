package fakemodel

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
)

// MaxRequestBytes is the largest request body the server reads.
const MaxRequestBytes = 4 << 20

// Message is one chat message of a request, with its text content (parts of
// an array content joined by newlines).
type Message struct {
	Role    string
	Content string
	// ToolCalls are an assistant message's function calls.
	ToolCalls []ToolCall
	// ToolCallID is the call a tool message answers.
	ToolCallID string
}

// ResponseFormat is a request's response_format: Type is "text",
// "json_object" or "json_schema"; Schema is the JSON schema for json_schema.
type ResponseFormat struct {
	Type   string
	Name   string
	Strict bool
	Schema map[string]any
}

// ChatRequest is the part of a chat-completion request the server uses.
type ChatRequest struct {
	Model        string
	Messages     []Message
	Stream       bool
	IncludeUsage bool
	Format       ResponseFormat
	// N is the number of choices asked for (1 when not given).
	N int
	// MaxTokens is max_completion_tokens (or the older max_tokens, the
	// smaller when both are given); 0 means no limit.
	MaxTokens int
	// Tools, ToolChoice and ParallelToolCalls are the function-calling
	// parameters (see agent.go); ToolChoice.Mode is "none" without tools.
	Tools             []Tool
	ToolChoice        ToolChoice
	ParallelToolCalls bool
	toolTokens        int // the prompt tokens the tool definitions add
}

var roles = map[string]bool{"system": true, "developer": true, "user": true, "assistant": true, "tool": true, "function": true}

// knownParams are the chat-completion parameters OpenAI accepts. Any other
// top-level key is rejected, as OpenAI does ("Unrecognized request argument
// supplied").
var knownParams = []string{
	"audio", "frequency_penalty", "function_call", "functions", "logit_bias", "logprobs",
	"max_completion_tokens", "max_tokens", "messages", "metadata", "modalities", "model", "n",
	"parallel_tool_calls", "prediction", "presence_penalty", "prompt_cache_key", "reasoning_effort",
	"response_format", "safety_identifier", "seed", "service_tier", "stop", "store", "stream",
	"stream_options", "temperature", "tool_choice", "tools", "top_logprobs", "top_p", "user",
	"verbosity", "web_search_options",
}

// unsupportedParams are OpenAI parameters the fake model cannot honour: a
// request that sets them gets a 400 naming the parameter rather than an
// answer that silently ignores them.
var unsupportedParams = []string{
	"functions", "function_call",
	"audio", "prediction", "web_search_options", "logprobs", "top_logprobs",
}

// numberRange is a numeric parameter's allowed range and whether it must be
// a whole number.
type numberRange struct {
	min, max float64
	integer  bool
}

var numberParams = map[string]numberRange{
	"temperature":           {0, 2, false},
	"top_p":                 {0, 1, false},
	"presence_penalty":      {-2, 2, false},
	"frequency_penalty":     {-2, 2, false},
	"n":                     {1, 128, true},
	"max_completion_tokens": {1, math.MaxInt32, true},
	"max_tokens":            {1, math.MaxInt32, true},
	"seed":                  {math.MinInt64, math.MaxInt64, true},
}

// DecodeRequest decodes and validates a chat-completion request body as
// OpenAI does. It never panics; every problem is an *APIError with status 400
// in OpenAI's shape: unknown parameters, missing or mistyped model and
// messages, numbers out of range (temperature 0–2, top_p 0–1, penalties −2–2,
// n 1–128, token limits ≥ 1), stream_options without stream, json_object
// without the word "json" in the messages, a strict json_schema that lacks
// additionalProperties: false or does not require every property, and the
// parameters the fake model does not support (the legacy functions and the
// like); tools, tool_choice, parallel_tool_calls and tool messages are
// checked as OpenAI checks them (see applyTools).
func DecodeRequest(body []byte) (*ChatRequest, *APIError) {
	raw, keys, e := decodeTop(body)
	if e != nil {
		return nil, e
	}
	req := &ChatRequest{Format: ResponseFormat{Type: "text"}, N: 1}
	steps := []func() *APIError{
		func() *APIError { return decodeModel(raw, req) },
		func() *APIError { return decodeMessages(raw, req) },
		func() *APIError { return refuseUnsupported(raw) },
		func() *APIError { return applyTools(req, raw["tools"], raw["tool_choice"], raw["parallel_tool_calls"]) },
		func() *APIError { return checkModalities(raw) },
		func() *APIError { return decodeNumbers(raw, keys, req) },
		func() *APIError { return checkTypes(raw) },
		func() *APIError { return decodeStream(raw, req) },
	}
	for _, step := range steps {
		if e := step(); e != nil {
			return nil, e
		}
	}
	if rf, ok := raw["response_format"]; ok && !isNull(rf) {
		if e := decodeFormat(rf, req); e != nil {
			return nil, e
		}
	}
	return req, nil
}

// decodeTop reads the body as one JSON object whose keys are all known
// parameters, and returns it with its keys sorted.
func decodeTop(body []byte) (map[string]json.RawMessage, []string, *APIError) {
	var raw map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&raw); err != nil || raw == nil {
		return nil, nil, badRequest("", "", "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)")
	}
	if dec.More() {
		return nil, nil, badRequest("", "", "We could not parse the JSON body of your request: unexpected data after the JSON object.")
	}
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !slices.Contains(knownParams, k) {
			return nil, nil, badRequest("", "", "Unrecognized request argument supplied: %s", k)
		}
	}
	return raw, keys, nil
}

// decodeModel reads model: a string, required, not empty.
func decodeModel(raw map[string]json.RawMessage, req *ChatRequest) *APIError {
	m, ok := raw["model"]
	if !ok || isNull(m) {
		return badRequest("model", "missing_required_parameter", "Missing required parameter: 'model'.")
	}
	if err := json.Unmarshal(m, &req.Model); err != nil {
		return badRequest("model", "invalid_type", "Invalid type for 'model': expected a string.")
	}
	if req.Model == "" {
		return badRequest("model", "invalid_value", "Invalid value for 'model': must not be empty.")
	}

	return nil
}

// decodeMessages reads messages: an array of at least one message object.
func decodeMessages(raw map[string]json.RawMessage, req *ChatRequest) *APIError {
	ms, ok := raw["messages"]
	if !ok || isNull(ms) {
		return badRequest("messages", "missing_required_parameter", "Missing required parameter: 'messages'.")
	}
	var msgs []map[string]json.RawMessage
	if err := json.Unmarshal(ms, &msgs); err != nil {
		return badRequest("messages", "invalid_type", "Invalid type for 'messages': expected an array of message objects.")
	}
	if len(msgs) == 0 {
		return badRequest("messages", "empty_array", "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.")
	}
	for i, mm := range msgs {
		msg, e := decodeMessage(i, mm)
		if e != nil {
			return e
		}
		req.Messages = append(req.Messages, msg)
	}
	return nil
}

// decodeMessage reads message i: its role, its tool fields and its content
// (which only an assistant's message may leave out).
func decodeMessage(i int, mm map[string]json.RawMessage) (Message, *APIError) {
	var msg Message
	if mm == nil {
		return msg, badRequest(pi(i, ""), "invalid_type", "Invalid type for 'messages[%d]': expected an object.", i)
	}
	if err := json.Unmarshal(mm["role"], &msg.Role); err != nil || !roles[msg.Role] {
		return msg, badRequest(pi(i, ".role"), "invalid_value", "Invalid value for 'messages[%d].role': expected one of system, developer, user, assistant, tool.", i)
	}
	if e := decodeToolFields(i, mm, &msg); e != nil {
		return msg, e
	}
	c, ok := mm["content"]
	if !ok || isNull(c) {
		if msg.Role == "assistant" {
			return msg, nil
		}
		return msg, badRequest(pi(i, ".content"), "missing_required_parameter", "Missing required parameter: 'messages[%d].content'.", i)
	}
	text, ok := contentText(c)
	if !ok {
		return msg, badRequest(pi(i, ".content"), "invalid_type", "Invalid type for 'messages[%d].content': expected a string or an array of content parts.", i)
	}
	msg.Content = text
	return msg, nil
}

// refuseUnsupported refuses the parameters the fake model cannot honour
// (logprobs: false aside).
func refuseUnsupported(raw map[string]json.RawMessage) *APIError {
	for _, k := range unsupportedParams {
		if v, ok := raw[k]; ok && !isNull(v) && !(k == "logprobs" && bytes.Equal(bytes.TrimSpace(v), []byte("false"))) {
			return badRequest(k, "unsupported_parameter", "Unsupported parameter: '%s' is not supported by drill's fake model, which only answers with message content.", k)
		}
	}
	return nil
}

// checkModalities accepts modalities holding "text" alone.
func checkModalities(raw map[string]json.RawMessage) *APIError {
	if v, ok := raw["modalities"]; ok && !isNull(v) {
		var mods []string
		if err := json.Unmarshal(v, &mods); err != nil {
			return badRequest("modalities", "invalid_type", "Invalid type for 'modalities': expected an array of strings.")
		}
		for _, m := range mods {
			if m != "text" {
				return badRequest("modalities", "unsupported_parameter", "Unsupported value: 'modalities' may only hold \"text\" with drill's fake model, got %q.", m)
			}
		}
	}
	return nil
}

// decodeNumbers checks every numeric parameter's range and reads n and the
// token limit (the smaller of max_completion_tokens and max_tokens).
func decodeNumbers(raw map[string]json.RawMessage, keys []string, req *ChatRequest) *APIError {
	nums := map[string]float64{}
	for _, k := range keys {
		r, ok := numberParams[k]
		if !ok || isNull(raw[k]) {
			continue
		}
		if e := checkNumber(k, raw[k], r); e != nil {
			return e
		}
		var f float64
		json.Unmarshal(raw[k], &f)
		nums[k] = f
	}
	if n, ok := nums["n"]; ok {
		req.N = int(n)
	}
	for _, k := range []string{"max_completion_tokens", "max_tokens"} {
		if v, ok := nums[k]; ok && (req.MaxTokens == 0 || int(v) < req.MaxTokens) {
			req.MaxTokens = int(v)
		}
	}
	return nil
}

// checkTypes checks the type of the parameters the fake model reads only
// to refuse a wrong type: strings, objects, store and stop.
func checkTypes(raw map[string]json.RawMessage) *APIError {
	for _, k := range []string{"user", "prompt_cache_key", "safety_identifier", "service_tier", "reasoning_effort", "verbosity"} {
		if v, ok := raw[k]; ok && !isNull(v) {
			var s string
			if err := json.Unmarshal(v, &s); err != nil {
				return badRequest(k, "invalid_type", "Invalid type for '%s': expected a string, but got %s instead.", k, jsonKind(v))
			}
		}
	}
	for _, k := range []string{"metadata", "logit_bias"} {
		if v, ok := raw[k]; ok && !isNull(v) {
			var o map[string]any
			if err := json.Unmarshal(v, &o); err != nil {
				return badRequest(k, "invalid_type", "Invalid type for '%s': expected an object, but got %s instead.", k, jsonKind(v))
			}
		}
	}
	if v, ok := raw["store"]; ok && !isNull(v) {
		var b bool
		if err := json.Unmarshal(v, &b); err != nil {
			return badRequest("store", "invalid_type", "Invalid type for 'store': expected a boolean, but got %s instead.", jsonKind(v))
		}
	}
	if v, ok := raw["stop"]; ok && !isNull(v) {
		var s string
		var ss []string
		if json.Unmarshal(v, &s) != nil && (json.Unmarshal(v, &ss) != nil || len(ss) > 4) {
			return badRequest("stop", "invalid_type", "Invalid type for 'stop': expected a string or an array of at most 4 strings.")
		}
	}

	return nil
}

// decodeStream reads stream and stream_options (only allowed with stream).
func decodeStream(raw map[string]json.RawMessage, req *ChatRequest) *APIError {
	if s, ok := raw["stream"]; ok && !isNull(s) {
		if err := json.Unmarshal(s, &req.Stream); err != nil {
			return badRequest("stream", "invalid_type", "Invalid type for 'stream': expected a boolean, but got %s instead.", jsonKind(s))
		}
	}
	if so, ok := raw["stream_options"]; ok && !isNull(so) {
		if !req.Stream {
			return badRequest("stream_options", "invalid_value", "The 'stream_options' parameter is only allowed when 'stream' is enabled.")
		}
		var opts struct {
			IncludeUsage bool `json:"include_usage"`
		}
		if err := json.Unmarshal(so, &opts); err != nil {
			return badRequest("stream_options", "invalid_type", "Invalid type for 'stream_options': expected an object.")
		}
		req.IncludeUsage = opts.IncludeUsage
	}
	return nil
}

func decodeFormat(rf json.RawMessage, req *ChatRequest) *APIError {
	var f struct {
		Type       string `json:"type"`
		JSONSchema *struct {
			Name   string         `json:"name"`
			Strict bool           `json:"strict"`
			Schema map[string]any `json:"schema"`
		} `json:"json_schema"`
	}
	if err := json.Unmarshal(rf, &f); err != nil {
		return badRequest("response_format", "invalid_type", "Invalid type for 'response_format': expected an object.")
	}
	switch f.Type {
	case "text":
		req.Format.Type = f.Type
	case "json_object":
		mentioned := false
		for _, m := range req.Messages {
			if strings.Contains(strings.ToLower(m.Content), "json") {
				mentioned = true
				break
			}
		}
		if !mentioned {
			return badRequest("messages", "", "'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.")
		}
		req.Format.Type = f.Type
	case "json_schema":
		if f.JSONSchema == nil || f.JSONSchema.Name == "" {
			return badRequest("response_format.json_schema", "missing_required_parameter", "Missing required parameter: 'response_format.json_schema.name'.")
		}
		js := f.JSONSchema
		if js.Strict {
			if js.Schema == nil {
				return badRequest("response_format", "", "Invalid schema for response_format '%s': a strict schema must be given.", js.Name)
			}
			if msg := checkStrict(js.Schema, nil); msg != "" {
				return badRequest("response_format", "", "Invalid schema for response_format '%s': %s", js.Name, msg)
			}
		}
		req.Format = ResponseFormat{Type: f.Type, Name: js.Name, Strict: js.Strict, Schema: js.Schema}
	default:
		return badRequest("response_format.type", "invalid_value", "Invalid value for 'response_format.type': expected one of text, json_object, json_schema.")
	}
	return nil
}

// checkStrict checks a schema against the rules of OpenAI's structured
// outputs in strict mode — every object sets additionalProperties to false
// and lists every property in required — and returns what is wrong, or "".
func checkStrict(s map[string]any, path []string) string {
	ctx := "In context=(" + quoteJoin(path) + "), "
	isObject := s["type"] == "object"
	if ts, ok := s["type"].([]any); ok {
		for _, t := range ts {
			isObject = isObject || t == "object"
		}
	}
	props, hasProps := s["properties"].(map[string]any)
	if isObject || hasProps {
		if ap, ok := s["additionalProperties"]; !ok || ap != false {
			return ctx + "'additionalProperties' is required to be supplied and to be false."
		}
		req, _ := s["required"].([]any)
		names := make([]string, 0, len(props))
		for k := range props {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			if !slices.Contains(req, any(k)) {
				return ctx + fmt.Sprintf("'required' is required to be supplied and to be an array including every key in properties. Missing '%s'.", k)
			}
		}
		for _, k := range names {
			if sub, ok := props[k].(map[string]any); ok {
				if msg := checkStrict(sub, append(append([]string{}, path...), "properties", k)); msg != "" {
					return msg
				}
			}
		}
	}
	if items, ok := s["items"].(map[string]any); ok {
		if msg := checkStrict(items, append(append([]string{}, path...), "items")); msg != "" {
			return msg
		}
	}
	for _, key := range []string{"anyOf", "allOf"} {
		if subs, ok := s[key].([]any); ok {
			for i, sub := range subs {
				if m, ok := sub.(map[string]any); ok {
					if msg := checkStrict(m, append(append([]string{}, path...), key, fmt.Sprint(i))); msg != "" {
						return msg
					}
				}
			}
		}
	}
	for _, key := range []string{"$defs", "definitions"} {
		if defs, ok := s[key].(map[string]any); ok {
			names := make([]string, 0, len(defs))
			for k := range defs {
				names = append(names, k)
			}
			sort.Strings(names)
			for _, k := range names {
				if m, ok := defs[k].(map[string]any); ok {
					if msg := checkStrict(m, append(append([]string{}, path...), key, k)); msg != "" {
						return msg
					}
				}
			}
		}
	}
	return ""
}

func quoteJoin(path []string) string {
	q := make([]string, len(path))
	for i, p := range path {
		q[i] = "'" + p + "'"
	}
	s := strings.Join(q, ", ")
	if len(path) == 1 {
		s += ","
	}
	return s
}

// checkNumber checks a numeric parameter's type and range, with OpenAI's
// messages and codes.
func checkNumber(k string, v json.RawMessage, r numberRange) *APIError {
	var f float64
	if err := json.Unmarshal(v, &f); err != nil {
		want := "a number"
		if r.integer {
			want = "an integer"
		}
		return badRequest(k, "invalid_type", "Invalid type for '%s': expected %s, but got %s instead.", k, want, jsonKind(v))
	}
	kind := "decimal"
	if r.integer {
		kind = "integer"
		if f != math.Trunc(f) {
			return badRequest(k, "invalid_type", "Invalid type for '%s': expected an integer, but got a decimal number instead.", k)
		}
	}
	got := strings.TrimSpace(string(v))
	switch {
	case f < r.min:
		return badRequest(k, kind+"_below_min_value", "Invalid '%s': %s below minimum value. Expected a value >= %s, but got %s instead.", k, kind, fmtNum(r.min), got)
	case f > r.max:
		return badRequest(k, kind+"_above_max_value", "Invalid '%s': %s above maximum value. Expected a value <= %s, but got %s instead.", k, kind, fmtNum(r.max), got)
	}
	return nil
}

func fmtNum(f float64) string { return fmt.Sprint(f) }

// jsonKind names the JSON type of v, as OpenAI's messages do.
func jsonKind(v json.RawMessage) string {
	t := bytes.TrimSpace(v)
	if len(t) == 0 {
		return "nothing"
	}
	switch t[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

func pi(i int, suffix string) string {
	return fmt.Sprintf("messages[%d]%s", i, suffix)
}

func isNull(b json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(b), []byte("null")) }

// contentText returns the text of a message content: a string, or an array of
// parts whose "text" fields are joined by newlines (other parts are skipped).
func contentText(c json.RawMessage) (string, bool) {
	var s string
	if err := json.Unmarshal(c, &s); err == nil && !isNull(c) {
		return s, true
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(c, &parts); err != nil {
		return "", false
	}
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(p.Text)
	}
	return b.String(), true
}
