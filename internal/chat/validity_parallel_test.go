package chat

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/drill-dev/drill/event"
)

// twoBrokenCalls answers every tool-capable call with two parallel tool
// calls whose arguments do not parse.
type twoBrokenCalls struct{}

func (twoBrokenCalls) RoundTrip(req *http.Request) (*http.Response, error) {
	var body struct {
		ToolChoice any `json:"tool_choice"`
	}
	if err := json.NewDecoder(req.Body).Decode(&body); err != nil {
		return nil, err
	}
	req.Body.Close()
	var chunks []string
	d := func(s string) {
		chunks = append(chunks, `{"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":`+s+`}]}`)
	}
	if body.ToolChoice == "none" {
		d(`{"content":"reading"}`)
	} else {
		d(`{"tool_calls":[{"index":0,"id":"a","type":"function","function":{"name":"get_delivery_status","arguments":"{\"order_id\":"}}]}`)
		d(`{"tool_calls":[{"index":1,"id":"b","type":"function","function":{"name":"get_tracking_events","arguments":"{\"order_id\":"}}]}`)
	}
	return sseResponse(req, chunks), nil
}

// TestValidityCountsEachUnparsableCall: check 3 hands a conversation over
// at its second unparsable tool call, two in one reply (parallel calls)
// included; it counted replies, and the conversation went on.
func TestValidityCountsEachUnparsableCall(t *testing.T) {
	cfg := quietConfig(1, PresetDefaults)
	cfg.Policy = cfg.Policy.WithValidity()
	cfg.Models = twoBrokenCalls{}
	sum, events := runChat(t, cfg)
	for _, e := range events {
		if e.Kind == event.ConversationEnd {
			if e.Chat.Turns != 2 || e.Chat.Ending != event.EndingHandedOver {
				t.Errorf("two unparsable tool calls arrived in turn 2; the conversation ended %s (%s) at turn %d, stopped %v",
					e.Chat.Ending, e.Chat.Reason, e.Chat.Turns, sum.Stopped)
			}
		}
	}
}
