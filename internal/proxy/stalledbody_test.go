package proxy

import (
	"fmt"
	"net"
	"testing"
	"time"
)

// TestStopWithAStalledBody: a client that sends its headers and stalls on
// its body does not hold the proxy's stop (Ctrl-C) past its grace: closing
// ends the body read at once. It waited out the 30 s body timeout.
func TestStopWithAStalledBody(t *testing.T) {
	s := start(t, Options{})
	conn, err := net.Dial("tcp", s.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
	time.Sleep(200 * time.Millisecond) // the handler is reading the body
	begin := time.Now()
	s.shutdown()
	if took := time.Since(begin); took > 5*time.Second {
		t.Errorf("the proxy took %s to stop with a stalled body (grace 100 ms)", took)
	}
}
