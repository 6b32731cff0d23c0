// Package testwait is how tests wait in real time for something another
// goroutine or process does: a condition polled with a deadline, or an
// HTTP server's word that a handler is reading a body, never a bare sleep
// that guesses how long the other side takes.
package testwait

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// Limit is how long For waits before it fails the test: far past what any
// condition takes on a loaded machine, so only a broken one reaches it.
const Limit = 10 * time.Second

// For polls cond every few milliseconds until it holds, and fails t,
// naming what it waited for, if it does not within Limit.
func For(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(Limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", Limit, what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// BodyRead sends a POST to path on conn with the given Content-Length and
// "Expect: 100-continue", and returns once the server answers 100
// Continue: net/http sends it when the handler first reads the body, so
// the server has read the headers and the handler is waiting for the body
// (which the caller sends, or withholds). It fails t on any other answer
// or after Limit.
func BodyRead(t testing.TB, conn net.Conn, path string, contentLength int) {
	t.Helper()
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\nExpect: 100-continue\r\n\r\n", path, contentLength)
	_ = conn.SetReadDeadline(time.Now().Add(Limit))
	defer func() { _ = conn.SetReadDeadline(time.Time{}) }()
	// Read byte by byte up to the interim response's blank line, so that
	// nothing past it is taken from the connection.
	var head strings.Builder
	b := make([]byte, 1)
	for !strings.HasSuffix(head.String(), "\r\n\r\n") {
		if _, err := io.ReadFull(conn, b); err != nil {
			t.Fatalf("waiting for 100 Continue from %s: %v (read %q)", path, err, head.String())
		}
		head.WriteByte(b[0])
	}
	resp, err := http.ReadResponse(bufio.NewReader(strings.NewReader(head.String())), nil)
	if err != nil || resp.StatusCode != http.StatusContinue {
		t.Fatalf("the server answered %q, want 100 Continue (%v)", head.String(), err)
	}
}
