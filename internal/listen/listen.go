// Package listen serves an HTTP handler on an address drill was given
// (--metrics-listen, --alert-listen) for the length of a drill.
//
// A listener is bounded as the fake model's is: a client has
// ReadHeaderTimeout to send its headers and ReadTimeout its whole request,
// a kept-alive connection may idle IdleTimeout, responses are written
// within WriteTimeout, and at most MaxConns connections are open at once
// (at the cap a new client takes the longest-idle connection's slot, so
// idle or slow clients cannot keep a healthy one out).
package listen

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/drill-dev/drill/internal/fakemodel"
)

// The bounds on every connection to a listener.
const (
	// ReadHeaderTimeout is how long a client has to send its request
	// headers.
	ReadHeaderTimeout = 10 * time.Second
	// ReadTimeout is how long a client has to send its whole request,
	// body included: a body trickled in slower is cut off.
	ReadTimeout = 30 * time.Second
	// WriteTimeout is how long a response (a scrape) may take to write.
	WriteTimeout = 30 * time.Second
	// IdleTimeout is how long a kept-alive connection may wait for its
	// next request.
	IdleTimeout = 5 * time.Second
	// MaxHeaderBytes caps a request's headers.
	MaxHeaderBytes = 64 << 10
	// MaxConns caps the connections open at once.
	MaxConns = 256
	// ShutdownGrace is how long Close lets requests in progress finish
	// before it closes their connections.
	ShutdownGrace = time.Second
)

// Server is an HTTP server listening on an address drill was given
// (--metrics-listen, --alert-listen).
type Server struct {
	srv  *http.Server
	addr string
	done chan error
}

// Listen starts serving h on addr ("127.0.0.1:9464", ":0" for any free
// port). A bad or busy address is an error at once, before any drill starts.
func Listen(addr string, h http.Handler) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listening on %s: %w", addr, err)
	}
	return Serve(ln, h), nil
}

// Serve starts serving h on ln, with the bounds above, until Close.
func Serve(ln net.Listener, h http.Handler) *Server {
	fair := fakemodel.NewFairListener(ln, MaxConns)
	s := &Server{srv: &http.Server{
		Handler:           h,
		ReadHeaderTimeout: ReadHeaderTimeout,
		ReadTimeout:       ReadTimeout,
		WriteTimeout:      WriteTimeout,
		IdleTimeout:       IdleTimeout,
		MaxHeaderBytes:    MaxHeaderBytes,
		ConnState:         fair.ConnState,
	}, addr: ln.Addr().String(), done: make(chan error, 1)}
	go func() {
		err := s.srv.Serve(fair)
		if errors.Is(err, http.ErrServerClosed) {
			err = nil
		}
		s.done <- err
	}()
	return s
}

// Addr is the address the server listens on, its port resolved.
func (s *Server) Addr() string { return s.addr }

// Close stops the server, letting requests in progress finish for up to
// ShutdownGrace, then closing the connections still open: a client slow
// to send its request is cut off, and is no error of the run's.
func (s *Server) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), ShutdownGrace)
	defer cancel()
	err := s.srv.Shutdown(ctx)
	if errors.Is(err, context.DeadlineExceeded) {
		err = s.srv.Close()
	}
	if serveErr := <-s.done; err == nil {
		err = serveErr
	}
	if err != nil {
		return fmt.Errorf("stopping the server on %s: %w", s.addr, err)
	}
	return nil
}
