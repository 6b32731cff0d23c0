package fakemodel

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	"github.com/drill-dev/drill/internal/listen"
)

// Limits bounds what one client can cost the fake model when it is served
// over HTTP: drill's shared listener limits (header, body and idle
// timeouts, a connection cap with healthy clients first).
type Limits = listen.Limits

// DefaultLimits are the limits drill fake-model and drill eval serve with.
var DefaultLimits = listen.DefaultLimits

// Serve serves the fake model on ln with limits until ctx ends, then shuts
// down, giving requests in flight up to 5 s. It returns nil after a shutdown
// asked for by ctx. The request body limit is MaxRequestBytes. Serve closes
// ln. It loads the token encoding before it accepts the first connection.
func (s *Server) Serve(ctx context.Context, ln net.Listener, limits Limits) error {
	encoding() // load the token encoding now, not on the first request
	srv := &http.Server{Handler: s}
	fair := listen.Configure(srv, ln, limits)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(fair) }()
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
