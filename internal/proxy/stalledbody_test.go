package proxy

import (
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/drill-dev/drill/internal/testwait"
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
	testwait.BodyRead(t, conn, "/v1/chat/completions", 100) // the handler is reading the body
	fmt.Fprint(conn, "{")
	begin := time.Now()
	s.shutdown()
	if took := time.Since(begin); took > 5*time.Second {
		t.Errorf("the proxy took %s to stop with a stalled body (grace 100 ms)", took)
	}
}
