package testwait

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// TestForReturnsOnceTheConditionHolds: For waits for a condition another
// goroutine makes true, and no longer.
func TestForReturnsOnceTheConditionHolds(t *testing.T) {
	var done atomic.Bool
	go func() {
		time.Sleep(20 * time.Millisecond) // the other side's work, not a synchronisation
		done.Store(true)
	}()
	begin := time.Now()
	For(t, "the flag", done.Load)
	if !done.Load() || time.Since(begin) > Limit/2 {
		t.Errorf("For returned after %s with the flag %v", time.Since(begin), done.Load())
	}
}

// TestBodyReadReturnsWhileTheHandlerReads: BodyRead returns while the
// handler is blocked reading the body the client has not sent yet.
func TestBodyReadReturnsWhileTheHandlerReads(t *testing.T) {
	reading := make(chan struct{})
	var got atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(reading)
		b, _ := io.ReadAll(r.Body)
		got.Store(string(b))
	}))
	defer srv.Close()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	BodyRead(t, conn, "/v1/chat/completions", 2)
	select {
	case <-reading:
	default:
		t.Fatal("BodyRead returned before the handler ran")
	}
	if got.Load() != nil {
		t.Fatalf("the handler finished reading a body not yet sent: %q", got.Load())
	}
	io.WriteString(conn, "{}")
	For(t, "the handler to read the body", func() bool { return got.Load() == "{}" })
}
