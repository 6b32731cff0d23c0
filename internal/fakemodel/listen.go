package fakemodel

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	"golang.org/x/net/netutil"
)

// Limits bounds what one client can cost the fake model when it is served
// over HTTP. Zero fields take the defaults below.
type Limits struct {
	// ReadHeaderTimeout is how long a client has to send the request
	// headers (default 10 s).
	ReadHeaderTimeout time.Duration
	// ReadTimeout is how long a client has to send the whole request,
	// body included (default 30 s): a body trickled in slower is cut off
	// and the connection closed.
	ReadTimeout time.Duration
	// IdleTimeout is how long a keep-alive connection may wait for its
	// next request (default 60 s).
	IdleTimeout time.Duration
	// MaxConns caps the connections open at once (default 256); further
	// clients wait in the listen backlog until one closes.
	MaxConns int
	// MaxHeaderBytes caps the request headers (default 64 KiB).
	MaxHeaderBytes int
}

// DefaultLimits are the limits drill fake-model and drill eval serve with.
var DefaultLimits = Limits{
	ReadHeaderTimeout: 10 * time.Second,
	ReadTimeout:       30 * time.Second,
	IdleTimeout:       60 * time.Second,
	MaxConns:          256,
	MaxHeaderBytes:    64 << 10,
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	if l.ReadHeaderTimeout > 0 {
		d.ReadHeaderTimeout = l.ReadHeaderTimeout
	}
	if l.ReadTimeout > 0 {
		d.ReadTimeout = l.ReadTimeout
	}
	if l.IdleTimeout > 0 {
		d.IdleTimeout = l.IdleTimeout
	}
	if l.MaxConns > 0 {
		d.MaxConns = l.MaxConns
	}
	if l.MaxHeaderBytes > 0 {
		d.MaxHeaderBytes = l.MaxHeaderBytes
	}
	return d
}

// Serve serves the fake model on ln with limits until ctx ends, then shuts
// down, giving requests in flight up to 5 s. It returns nil after a shutdown
// asked for by ctx. The request body limit is MaxRequestBytes. Serve closes
// ln. It loads the token encoding before it accepts the first connection.
func (s *Server) Serve(ctx context.Context, ln net.Listener, limits Limits) error {
	l := limits.withDefaults()
	encoding() // load the token encoding now, not on the first request
	srv := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: l.ReadHeaderTimeout,
		ReadTimeout:       l.ReadTimeout,
		IdleTimeout:       l.IdleTimeout,
		MaxHeaderBytes:    l.MaxHeaderBytes,
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(LimitListener(ln, l.MaxConns)) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		err := srv.Shutdown(sctx)
		if errors.Is(err, context.DeadlineExceeded) {
			err = srv.Close()
		}
		if e := <-errc; !errors.Is(e, http.ErrServerClosed) && err == nil {
			err = e
		}
		return err
	}
}

// LimitListener returns a listener that has at most n connections open at
// once: Accept waits while n are open (golang.org/x/net/netutil).
func LimitListener(ln net.Listener, n int) net.Listener { return netutil.LimitListener(ln, n) }
