// Package listen holds what every drill HTTP server shares: its Limits
// (header, body and idle timeouts, a connection cap) and the FairListener
// that serves healthy clients first; and Listen, which serves a handler on
// an address drill was given (--metrics-listen, --alert-listen) for the
// length of a drill.
package listen

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"
)

// ShutdownGrace is how long Close lets requests in progress finish before
// it closes their connections.
const ShutdownGrace = time.Second

// Server is an HTTP server listening on an address drill was given
// (--metrics-listen, --alert-listen).
type Server struct {
	srv    *http.Server
	addr   string
	limits Limits
	done   chan error
}

// Listen starts serving h on addr ("127.0.0.1:9464", ":0" for any free
// port) with DefaultLimits. A bad or busy address is an error at once,
// before any drill starts.
func Listen(addr string, h http.Handler) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listening on %s: %w", addr, err)
	}
	return Serve(ln, h), nil
}

// Serve starts serving h on ln with DefaultLimits, until Close.
func Serve(ln net.Listener, h http.Handler) *Server {
	s := &Server{srv: &http.Server{Handler: h}, addr: ln.Addr().String(), limits: DefaultLimits, done: make(chan error, 1)}
	fair := Configure(s.srv, ln, s.limits)
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

// Limits are the limits the server was configured with.
func (s *Server) Limits() Limits { return s.limits }

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
