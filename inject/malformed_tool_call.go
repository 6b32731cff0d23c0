package inject

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
)

// MalformedToolCall sends status 200 with the model's real answer whose
// tool-call arguments do not parse: Kind "cut" (default) cuts each call's
// arguments in half, as a model that stops mid-object; "prose" writes them
// as text ("order_id: DR-104233"), as a model that forgets the format. The
// SDK accepts it: the failure is the caller's to find (the chat workload's
// validity check). A request that cannot get a tool call (no tools, or
// tool_choice "none") passes and the fault is not logged as applied; an
// answer that has no tool calls all the same (content) passes unchanged. A
// streamed answer is read whole and sent again as OpenAI streams tool
// calls, so it arrives when the model has finished.
type MalformedToolCall struct {
	// Kind is how the arguments are broken: cut or prose.
	Kind string `json:"kind" yaml:"kind" help:"how the arguments are broken: cut (half an object) or prose (key: value text)"`
}

// How a MalformedToolCall breaks the arguments.
const (
	MalformedToolCallCut   = "cut"
	MalformedToolCallProse = "prose"
)

func init() {
	registerChat("malformed-tool-call", func() Fault { return &MalformedToolCall{Kind: MalformedToolCallCut} })
}

var (
	_ Fault         = (*MalformedToolCall)(nil)
	_ requestFilter = (*MalformedToolCall)(nil)
)

// appliesTo reports whether the request lets the model call a tool: it
// offers tools and its tool_choice is not "none".
func (m *MalformedToolCall) appliesTo(body []byte) bool { return offersToolCalls(body) }

func (m *MalformedToolCall) validate() error {
	if m.Kind != MalformedToolCallCut && m.Kind != MalformedToolCallProse {
		return fmt.Errorf("bad value %q for kind: want cut or prose", m.Kind)
	}
	return nil
}

// Apply lets the request through and breaks the answer's tool-call
// arguments.
func (m *MalformedToolCall) Apply(a Attempt) (*http.Response, error) {
	resp, err := a.Next.RoundTrip(a.Req)
	if err != nil || resp.StatusCode != http.StatusOK {
		return resp, err
	}
	ans, body, ok, err := readToolAnswer(resp)
	if err != nil {
		return nil, fmt.Errorf("inject: reading the answer: %w", err)
	}
	if !ok || len(ans.Calls) == 0 {
		replaceBody(resp, body)
		return resp, nil
	}
	for i := range ans.Calls {
		ans.Calls[i].Arguments = m.breakArguments(ans.Calls[i].Arguments)
	}
	replaceBody(resp, ans.render())
	return resp, nil
}

// breakArguments returns args broken the MalformedToolCall way; the result
// never parses as JSON.
func (m *MalformedToolCall) breakArguments(args string) string {
	if m.Kind == MalformedToolCallProse {
		var obj map[string]any
		if json.Unmarshal([]byte(args), &obj) == nil && len(obj) > 0 {
			parts := make([]string, 0, len(obj))
			for _, k := range slices.Sorted(maps.Keys(obj)) {
				parts = append(parts, fmt.Sprintf("%s: %v", k, obj[k]))
			}
			return strings.Join(parts, ", ")
		}
		return "the order number from the message"
	}
	return brokenJSON(args)
}
