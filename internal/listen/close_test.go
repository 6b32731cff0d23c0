package listen_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/drill-dev/drill/internal/listen"
)

// pipeListener is an in-memory listener: Dial hands the server one end of
// a net.Pipe. Inside a synctest bubble its waits are fake time.
type pipeListener struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

func newPipeListener() *pipeListener {
	return &pipeListener{conns: make(chan net.Conn), done: make(chan struct{})}
}

func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *pipeListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

func (l *pipeListener) Addr() net.Addr { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 9465} }

// dial connects a client; its reads are drained in the background and
// closed reports when the server closed the connection.
func (l *pipeListener) dial(t *testing.T) (c net.Conn, closed <-chan struct{}) {
	client, server := net.Pipe()
	l.conns <- server
	done := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, client)
		close(done)
	}()
	t.Cleanup(func() { client.Close() })
	return client, done
}

// readBody is a handler that reads the whole request body, as the alert
// receiver does.
var readBody = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	if _, err := io.Copy(io.Discard, r.Body); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
	}
})

// slowPost starts a POST that promises a 100-byte body and sends one byte.
func slowPost(t *testing.T, c net.Conn) {
	if _, err := io.WriteString(c, "POST /alerts HTTP/1.1\r\nHost: drill\r\nContent-Length: 100\r\n\r\n{"); err != nil {
		t.Fatal(err)
	}
}

// TestCloseCutsASlowClient: a webhook client in the middle of a slow body
// does not hold the drill's end: Close returns without error within the
// shutdown grace, rather than waiting out the client and failing the run
// with "context deadline exceeded".
func TestCloseCutsASlowClient(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ln := newPipeListener()
		s := listen.Serve(ln, readBody)
		c, closed := ln.dial(t)
		slowPost(t, c)
		time.Sleep(100 * time.Millisecond)
		start := time.Now()
		if err := s.Close(); err != nil {
			t.Errorf("Close with a slow client: %v", err)
		}
		if took := time.Since(start); took > listen.ShutdownGrace {
			t.Errorf("Close took %s, want at most %s", took, listen.ShutdownGrace)
		}
		<-closed
	})
}

// TestSlowClientsAreCutOff: a client that trickles its headers is cut off
// after ReadHeaderTimeout, one that stalls its body after ReadTimeout, and
// an idle kept-alive connection after IdleTimeout.
func TestSlowClientsAreCutOff(t *testing.T) {
	for _, c := range []struct {
		name  string
		send  func(t *testing.T, c net.Conn)
		limit time.Duration
	}{
		{"headers", func(t *testing.T, c net.Conn) { _, _ = io.WriteString(c, "POST /alerts HTTP/1.1\r\nHost: dr") }, listen.DefaultLimits.ReadHeaderTimeout},
		{"body", slowPost, listen.DefaultLimits.ReadTimeout},
		{"idle", func(t *testing.T, c net.Conn) {
			_, _ = io.WriteString(c, "POST /alerts HTTP/1.1\r\nHost: drill\r\nContent-Length: 2\r\n\r\n{}")
		}, listen.DefaultLimits.IdleTimeout},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ln := newPipeListener()
				s := listen.Serve(ln, readBody)
				defer s.Close()
				conn, closed := ln.dial(t)
				start := time.Now()
				c.send(t, conn)
				<-closed
				if took := time.Since(start); took > c.limit+time.Second {
					t.Errorf("the connection was closed after %s, want within %s", took, c.limit)
				}
			})
		})
	}
}

// TestHealthyRequestServed: a whole request is answered.
func TestHealthyRequestServed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ln := newPipeListener()
		s := listen.Serve(ln, readBody)
		defer s.Close()
		client, server := net.Pipe()
		ln.conns <- server
		defer client.Close()
		go func() {
			_, _ = io.WriteString(client, "POST /alerts HTTP/1.1\r\nHost: drill\r\nContent-Length: 2\r\n\r\n{}")
		}()
		resp, err := http.ReadResponse(bufio.NewReader(client), nil)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("status %d, want 200", resp.StatusCode)
		}
	})
}
