package inject

import (
	"io"
	"net/http"
	"strings"
)

// busy is the busy tone: an instant 503 with OpenAI's overloaded error body.
type busy struct{}

func init() { register("busy", busy{}) }

const overloadedBody = `{"error":{"message":"The server is overloaded or not ready yet.","type":"server_error","param":null,"code":"overloaded"}}`

func (busy) Apply(req *http.Request, _ http.RoundTripper) (*http.Response, error) {
	if req.Body != nil {
		req.Body.Close()
	}
	return &http.Response{
		Status:        "503 Service Unavailable",
		StatusCode:    http.StatusServiceUnavailable,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        http.Header{"Content-Type": {"application/json"}},
		Body:          io.NopCloser(strings.NewReader(overloadedBody)),
		ContentLength: int64(len(overloadedBody)),
		Request:       req,
	}, nil
}
