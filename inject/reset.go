package inject

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"syscall"
)

// Reset drops the connection: before the response headers (At "headers",
// the default: the SDK sees a connection error and retries it), or
// mid-body (At "body": 200, the headers and the first AfterChunks chunks,
// then the read fails; the SDK does not retry a broken body).
type Reset struct {
	// At is where the connection drops: headers (default) or body.
	At string `json:"at" yaml:"at" help:"where the connection drops: headers or body"`
	// AfterChunks is how many chunks pass before a body reset. Default 1.
	AfterChunks int `json:"after_chunks" yaml:"after_chunks" help:"with at=body, chunks sent before the drop (events when streamed, 4-byte pieces otherwise)"`
}

// Where a Reset drops the connection.
const (
	ResetAtHeaders = "headers"
	ResetAtBody    = "body"
)

func init() { register("reset", func() Fault { return &Reset{At: ResetAtHeaders, AfterChunks: 1} }) }

var _ Fault = (*Reset)(nil)

func (r *Reset) validate() error {
	if r.At != ResetAtHeaders && r.At != ResetAtBody {
		return fmt.Errorf("bad value %q for at: want headers or body", r.At)
	}
	if r.AfterChunks < 0 {
		return fmt.Errorf("bad value %d for after_chunks: want 0 or more", r.AfterChunks)
	}
	return nil
}

// connReset is the error a real transport returns when the peer resets
// the connection.
func connReset() error {
	return &net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ECONNRESET)}
}

// Apply drops the connection before the headers or mid-body.
func (r *Reset) Apply(a Attempt) (*http.Response, error) {
	if r.At == ResetAtHeaders {
		closeBody(a.Req)
		return nil, connReset()
	}
	resp, err := a.Next.RoundTrip(a.Req)
	if err != nil || resp.StatusCode != http.StatusOK {
		return resp, err
	}
	b := newHeldBody(a.Req, resp)
	b.limit = r.AfterChunks
	b.then = func(context.Context, <-chan struct{}) error { return connReset() }
	resp.Body, resp.ContentLength = b, -1
	resp.Header.Del("Content-Length")
	return resp, nil
}
