package proxy

import (
	"context"
	"errors"
	"log"
	"net"
	"net/http"
	"time"

	"github.com/drill-dev/drill/internal/listen"
)

// Limits bound the proxy's HTTP server. The zero value takes every default.
type Limits struct {
	// MaxConns is the most client connections served at once (default
	// listen.DefaultLimits'). Connections still sending their headers hold
	// no slot; at the cap a new client takes the slot of the longest-idle
	// one (listen.FairListener); it waits only while every slot serves a
	// request.
	MaxConns int
	// ReadHeaderTimeout is how long a client has to send its request line
	// and headers (default 10 s). The body has BodyReadTimeout.
	ReadHeaderTimeout time.Duration
	// IdleTimeout closes a kept-alive connection idle this long (default
	// 5 s: idle connections hold slots of MaxConns).
	IdleTimeout time.Duration
	// MaxHeaderBytes bounds a request's headers (default 64 KiB, as
	// listen.DefaultLimits).
	MaxHeaderBytes int
	// ShutdownGrace is how long Serve waits, after its context ends, for
	// responses in flight to finish before cutting them (default 2 s).
	ShutdownGrace time.Duration
}

func (l Limits) withDefaults() Limits {
	if l.MaxConns <= 0 {
		l.MaxConns = listen.DefaultLimits.MaxConns
	}
	if l.ReadHeaderTimeout <= 0 {
		l.ReadHeaderTimeout = 10 * time.Second
	}
	if l.IdleTimeout <= 0 {
		l.IdleTimeout = 5 * time.Second
	}
	if l.MaxHeaderBytes <= 0 {
		l.MaxHeaderBytes = listen.DefaultLimits.MaxHeaderBytes
	}
	if l.ShutdownGrace <= 0 {
		l.ShutdownGrace = 2 * time.Second
	}
	return l
}

// Serve serves p on ln until ctx ends, then stops accepting, gives
// responses in flight ShutdownGrace to finish, ends the rest (hangs
// included) and closes p with detail "proxy stopped". There is no write
// timeout: a stream lasts as long as the upstream sends it, and a hang as
// long as the client waits; the connection cap bounds how many there are.
func Serve(ctx context.Context, ln net.Listener, p *Proxy, lim Limits) error {
	lim = lim.withDefaults()
	srv := &http.Server{
		Handler:     p,
		BaseContext: func(net.Listener) context.Context { return p.Context() },
		ErrorLog:    log.New(discard{}, "", 0),
	}
	fair := listen.Configure(srv, ln, listen.Limits{MaxConns: lim.MaxConns, ReadHeaderTimeout: lim.ReadHeaderTimeout,
		IdleTimeout: lim.IdleTimeout, MaxHeaderBytes: lim.MaxHeaderBytes})
	// The body has BodyReadTimeout, lifted once it is read (readBody): a
	// whole-request deadline would cut long answers and streams.
	srv.ReadTimeout = 0
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(fair) }()
	var err error
	select {
	case err = <-errc:
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), lim.ShutdownGrace)
		defer cancel()
		if serr := srv.Shutdown(sctx); serr != nil {
			// Responses still in flight (a hang, a long stream): end them.
			p.Close("proxy stopped")
			_ = srv.Close()
		}
		err = <-errc
	}
	p.Close("proxy stopped")
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

type discard struct{}

func (discard) Write(b []byte) (int, error) { return len(b), nil }
