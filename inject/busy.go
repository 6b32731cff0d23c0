package inject

import (
	"fmt"
	"net/http"
	"slices"
)

// Busy is the busy tone: an error status at once, with OpenAI's error
// body, without calling the model. The SDK retries every status it can
// send (all are 5xx).
type Busy struct {
	// Status is the HTTP status: 500, 502, 503 (default), 504 or 529.
	Status int `json:"status" yaml:"status" help:"HTTP status: 500, 502, 503, 504 or 529"`
}

func init() { register("busy", func() Fault { return &Busy{Status: http.StatusServiceUnavailable} }) }

var _ Fault = (*Busy)(nil)

// BusyStatuses are the statuses Busy can send.
var BusyStatuses = []int{500, 502, 503, 504, 529}

// busyBodies are OpenAI's error bodies for each status.
var busyBodies = map[int]string{
	500: `{"error":{"message":"The server had an error while processing your request. Sorry about that!","type":"server_error","param":null,"code":null}}`,
	502: `{"error":{"message":"Bad gateway.","type":"server_error","param":null,"code":"bad_gateway"}}`,
	503: `{"error":{"message":"The server is overloaded or not ready yet.","type":"server_error","param":null,"code":"overloaded"}}`,
	504: `{"error":{"message":"Gateway timeout.","type":"server_error","param":null,"code":"gateway_timeout"}}`,
	529: `{"error":{"message":"The server is temporarily overloaded.","type":"server_error","param":null,"code":"overloaded"}}`,
}

func (b *Busy) validate() error {
	if !slices.Contains(BusyStatuses, b.Status) {
		return fmt.Errorf("bad value %d for status: want 500, 502, 503, 504 or 529", b.Status)
	}
	return nil
}

// Apply answers with the status at once.
func (b *Busy) Apply(a Attempt) (*http.Response, error) {
	closeBody(a.Req)
	return jsonResponse(a.Req, b.Status, nil, busyBodies[b.Status]), nil
}
