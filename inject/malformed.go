package inject

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/drill-dev/drill/internal/sse"
)

// Malformed sends status 200 with the real answer's envelope but content
// that fails the request's schema: Kind "json" (default) cuts the content
// in half so it is not JSON; "schema" drops a required field; "enum" puts
// a value outside a closed set (the first property of the request's
// json_schema that has an enum). The SDK accepts it: the failure is the
// caller's to find. A streamed answer is read whole and sent as one
// content event, so it arrives when the model has finished.
type Malformed struct {
	// Kind is how the answer is broken: json, schema or enum.
	Kind string `json:"kind" yaml:"kind" help:"how the answer is broken: json (not JSON), schema (a required field missing) or enum (a value outside a closed set)"`
}

// How a Malformed answer is broken.
const (
	MalformedJSON   = "json"
	MalformedSchema = "schema"
	MalformedEnum   = "enum"
)

// OutsideValue is the value Malformed's enum kind writes: in no closed set.
const OutsideValue = "drill-malformed"

func init() { register("malformed", func() Fault { return &Malformed{Kind: MalformedJSON} }) }

var _ Fault = (*Malformed)(nil)

func (m *Malformed) validate() error {
	if m.Kind != MalformedJSON && m.Kind != MalformedSchema && m.Kind != MalformedEnum {
		return fmt.Errorf("bad value %q for kind: want json, schema or enum", m.Kind)
	}
	return nil
}

// Apply lets the request through and breaks the answer's content.
func (m *Malformed) Apply(a Attempt) (*http.Response, error) {
	reqBody := requestBody(a.Req)
	resp, err := a.Next.RoundTrip(a.Req)
	if err != nil || resp.StatusCode != http.StatusOK {
		return resp, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	schema := requestSchema(reqBody)
	var out []byte
	if sse.IsStream(resp.Header) {
		out = m.rewriteStream(body, schema)
	} else {
		out = m.rewriteCompletion(body, schema)
	}
	resp.Body, resp.ContentLength = io.NopCloser(bytes.NewReader(out)), int64(len(out))
	resp.Header.Del("Content-Length")
	return resp, nil
}

// rewriteCompletion breaks choices[0].message.content of a completion.
func (m *Malformed) rewriteCompletion(body []byte, schema map[string]any) []byte {
	var c map[string]any
	if json.Unmarshal(body, &c) != nil {
		return body[:len(body)/2] // not a completion: broken anyway
	}
	choices, _ := c["choices"].([]any)
	if len(choices) == 0 {
		return body
	}
	ch, _ := choices[0].(map[string]any)
	msg, _ := ch["message"].(map[string]any)
	content, _ := msg["content"].(string)
	if msg == nil {
		return body
	}
	msg["content"] = m.breakContent(content, schema)
	out, err := json.Marshal(c)
	if err != nil {
		return body
	}
	return out
}

// rewriteStream gathers a stream's content, breaks it, and sends it back
// as one content event in place of the first; the other events stay.
func (m *Malformed) rewriteStream(body []byte, schema map[string]any) []byte {
	events := bytes.SplitAfter(body, []byte("\n\n"))
	var content strings.Builder
	for _, ev := range events {
		content.WriteString(eventContent(ev))
	}
	broken := m.breakContent(content.String(), schema)
	var out bytes.Buffer
	replaced := false
	for _, ev := range events {
		if eventContent(ev) == "" {
			out.Write(ev)
			continue
		}
		if replaced {
			continue
		}
		replaced = true
		datas := (sse.Event{Raw: ev}).Data()
		var c map[string]any
		if len(datas) == 0 || json.Unmarshal(datas[0], &c) != nil {
			continue
		}
		if choices, _ := c["choices"].([]any); len(choices) > 0 {
			if ch, _ := choices[0].(map[string]any); ch != nil {
				if d, _ := ch["delta"].(map[string]any); d != nil {
					d["content"] = broken
				}
			}
		}
		b, _ := json.Marshal(c)
		out.WriteString("data: ")
		out.Write(b)
		out.WriteString("\n\n")
	}
	return out.Bytes()
}

// breakContent returns content broken the Malformed way.
func (m *Malformed) breakContent(content string, schema map[string]any) string {
	cut := func() string {
		s := strings.TrimSpace(content)
		s = s[:len(s)/2]
		if json.Valid([]byte(s)) {
			s = "{" + s
		}
		return s
	}
	if m.Kind == MalformedJSON {
		return cut()
	}
	var obj map[string]any
	if json.Unmarshal([]byte(content), &obj) != nil || len(obj) == 0 {
		return cut() // not an object: the closest breakage is invalid JSON
	}
	props, _ := schema["properties"].(map[string]any)
	switch m.Kind {
	case MalformedSchema:
		field := ""
		if req, _ := schema["required"].([]any); len(req) > 0 {
			field, _ = req[0].(string)
		}
		if _, ok := obj[field]; !ok {
			field = slices.Sorted(maps.Keys(obj))[0]
		}
		delete(obj, field)
	case MalformedEnum:
		field := ""
		for _, k := range slices.Sorted(maps.Keys(props)) {
			if p, _ := props[k].(map[string]any); p != nil && p["enum"] != nil {
				field = k
				break
			}
		}
		if field == "" { // no closed set in the request: the first text field
			for _, k := range slices.Sorted(maps.Keys(obj)) {
				if _, ok := obj[k].(string); ok {
					field = k
					break
				}
			}
		}
		if field == "" {
			field = slices.Sorted(maps.Keys(obj))[0]
		}
		obj[field] = OutsideValue
	}
	b, err := json.Marshal(obj)
	if err != nil {
		return cut()
	}
	return string(b)
}

// requestSchema returns the JSON schema of a chat completion request's
// response_format, or nil.
func requestSchema(body []byte) map[string]any {
	var r struct {
		ResponseFormat struct {
			JSONSchema struct {
				Schema map[string]any `json:"schema"`
			} `json:"json_schema"`
		} `json:"response_format"`
	}
	if json.Unmarshal(body, &r) != nil {
		return nil
	}
	return r.ResponseFormat.JSONSchema.Schema
}
