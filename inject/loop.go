package inject

import (
	"fmt"
	"net/http"
)

// Loop sends status 200 with the model's answer replaced by the previous
// assistant tool call found in the request's messages, again: the model
// repeating itself. The envelope (id, usage, timing) is the model's real
// answer's; the repeated calls get fresh ids and finish_reason
// "tool_calls". A request with no earlier tool call has nothing to repeat:
// it passes unchanged and the fault is not logged as applied. A streamed answer is read whole and sent again as
// OpenAI streams tool calls, so it arrives when the model has finished.
// Loop has no parameters: how often the model loops is the window's rate.
type Loop struct{}

func init() { registerChat("loop", func() Fault { return &Loop{} }) }

var (
	_ Fault         = (*Loop)(nil)
	_ requestFilter = (*Loop)(nil)
)

// appliesTo reports whether the request has a tool call to repeat.
func (l *Loop) appliesTo(body []byte) bool { return len(requestToolCalls(body)) > 0 }

// Apply lets the request through and answers with the previous tool call.
func (l *Loop) Apply(a Attempt) (*http.Response, error) {
	prev := requestToolCalls(requestBody(a.Req))
	resp, err := a.Next.RoundTrip(a.Req)
	if err != nil || resp.StatusCode != http.StatusOK || len(prev) == 0 {
		return resp, err
	}
	ans, body, ok, err := readToolAnswer(resp)
	if err != nil {
		return nil, fmt.Errorf("inject: reading the answer: %w", err)
	}
	if !ok {
		replaceBody(resp, body)
		return resp, nil
	}
	ans.Calls, ans.Content, ans.Finish = prev, "", "tool_calls"
	for i := range ans.Calls {
		id := uint64(i)
		if a.Rand != nil {
			id = a.Rand.Uint64()
		}
		ans.Calls[i].ID = fmt.Sprintf("call_loop%014x", id>>8)
	}
	replaceBody(resp, ans.render())
	return resp, nil
}
