package fakemodel

import (
	"bytes"
	"encoding/json"
	"strings"
)

// MaxRequestBytes is the largest request body the server reads.
const MaxRequestBytes = 4 << 20

// Message is one chat message of a request, with its text content (parts of
// an array content joined by newlines).
type Message struct {
	Role    string
	Content string
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
}

var roles = map[string]bool{"system": true, "developer": true, "user": true, "assistant": true, "tool": true, "function": true}

// DecodeRequest decodes and validates a chat-completion request body. It never
// panics; every problem is an *APIError with status 400 in OpenAI's style
// (model, messages and each message's role and content are checked;
// unknown fields are ignored, as OpenAI-compatible servers commonly do).
func DecodeRequest(body []byte) (*ChatRequest, *APIError) {
	var raw map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&raw); err != nil || raw == nil {
		return nil, badRequest("", "", "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)")
	}
	if dec.More() {
		return nil, badRequest("", "", "We could not parse the JSON body of your request: unexpected data after the JSON object.")
	}
	req := &ChatRequest{Format: ResponseFormat{Type: "text"}}

	m, ok := raw["model"]
	if !ok || isNull(m) {
		return nil, badRequest("model", "missing_required_parameter", "Missing required parameter: 'model'.")
	}
	if err := json.Unmarshal(m, &req.Model); err != nil {
		return nil, badRequest("model", "invalid_type", "Invalid type for 'model': expected a string.")
	}
	if req.Model == "" {
		return nil, badRequest("model", "invalid_value", "Invalid value for 'model': must not be empty.")
	}

	ms, ok := raw["messages"]
	if !ok || isNull(ms) {
		return nil, badRequest("messages", "missing_required_parameter", "Missing required parameter: 'messages'.")
	}
	var msgs []map[string]json.RawMessage
	if err := json.Unmarshal(ms, &msgs); err != nil {
		return nil, badRequest("messages", "invalid_type", "Invalid type for 'messages': expected an array of message objects.")
	}
	if len(msgs) == 0 {
		return nil, badRequest("messages", "empty_array", "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.")
	}
	for i, mm := range msgs {
		var msg Message
		if mm == nil {
			return nil, badRequest(pi(i, ""), "invalid_type", "Invalid type for 'messages[%d]': expected an object.", i)
		}
		if err := json.Unmarshal(mm["role"], &msg.Role); err != nil || !roles[msg.Role] {
			return nil, badRequest(pi(i, ".role"), "invalid_value", "Invalid value for 'messages[%d].role': expected one of system, developer, user, assistant, tool.", i)
		}
		c, ok := mm["content"]
		if !ok || isNull(c) {
			if msg.Role == "assistant" {
				req.Messages = append(req.Messages, msg)
				continue
			}
			return nil, badRequest(pi(i, ".content"), "missing_required_parameter", "Missing required parameter: 'messages[%d].content'.", i)
		}
		text, ok := contentText(c)
		if !ok {
			return nil, badRequest(pi(i, ".content"), "invalid_type", "Invalid type for 'messages[%d].content': expected a string or an array of content parts.", i)
		}
		msg.Content = text
		req.Messages = append(req.Messages, msg)
	}

	if s, ok := raw["stream"]; ok && !isNull(s) {
		if err := json.Unmarshal(s, &req.Stream); err != nil {
			return nil, badRequest("stream", "invalid_type", "Invalid type for 'stream': expected a boolean.")
		}
	}
	if so, ok := raw["stream_options"]; ok && !isNull(so) {
		var opts struct {
			IncludeUsage bool `json:"include_usage"`
		}
		if err := json.Unmarshal(so, &opts); err != nil {
			return nil, badRequest("stream_options", "invalid_type", "Invalid type for 'stream_options': expected an object.")
		}
		req.IncludeUsage = opts.IncludeUsage
	}
	if rf, ok := raw["response_format"]; ok && !isNull(rf) {
		var f struct {
			Type       string `json:"type"`
			JSONSchema *struct {
				Name   string         `json:"name"`
				Strict bool           `json:"strict"`
				Schema map[string]any `json:"schema"`
			} `json:"json_schema"`
		}
		if err := json.Unmarshal(rf, &f); err != nil {
			return nil, badRequest("response_format", "invalid_type", "Invalid type for 'response_format': expected an object.")
		}
		switch f.Type {
		case "text", "json_object":
			req.Format.Type = f.Type
		case "json_schema":
			if f.JSONSchema == nil || f.JSONSchema.Name == "" {
				return nil, badRequest("response_format.json_schema", "missing_required_parameter", "Missing required parameter: 'response_format.json_schema.name'.")
			}
			req.Format = ResponseFormat{Type: f.Type, Name: f.JSONSchema.Name, Strict: f.JSONSchema.Strict, Schema: f.JSONSchema.Schema}
		default:
			return nil, badRequest("response_format.type", "invalid_value", "Invalid value for 'response_format.type': expected one of text, json_object, json_schema.")
		}
	}
	return req, nil
}

func pi(i int, suffix string) string {
	return "messages[" + itoa(i) + "]" + suffix
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
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
