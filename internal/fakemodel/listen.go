package fakemodel

import (
	"context"
	"errors"
	"math"
	"net"
	"net/http"
	"sync"
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
	// next request (default 5 s: an SDK reuses a connection within
	// milliseconds, and idle ones hold slots of MaxConns).
	IdleTimeout time.Duration
	// MaxConns caps the connections open at once (default 256). At the
	// cap, a new client takes the slot of the longest-idle connection (a
	// kept-alive one between requests, or one that has sent nothing yet);
	// only when every slot serves a request does it wait until one ends.
	MaxConns int
	// MaxHeaderBytes caps the request headers (default 64 KiB).
	MaxHeaderBytes int
}

// DefaultLimits are the limits drill fake-model and drill eval serve with.
var DefaultLimits = Limits{
	ReadHeaderTimeout: 10 * time.Second,
	ReadTimeout:       30 * time.Second,
	IdleTimeout:       5 * time.Second,
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
	fair := NewFairListener(ln, l.MaxConns)
	srv := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: l.ReadHeaderTimeout,
		ReadTimeout:       l.ReadTimeout,
		IdleTimeout:       l.IdleTimeout,
		MaxHeaderBytes:    l.MaxHeaderBytes,
		ConnState:         fair.ConnState,
	}
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

// FairListener is a listener with at most limit connections open at once
// that serves a new client before an idle one: at the cap, Accept closes
// the connection idle the longest (kept alive between requests, or never
// having sent a request) to take its slot, and waits only while every
// slot serves a request. A plain cap (netutil.LimitListener) let 1,000
// idle connections keep a healthy client waiting past a minute. The
// server must report its connections' states to ConnState.
type FairListener struct {
	net.Listener
	limit int

	mu    sync.Mutex
	freed *sync.Cond
	conns map[net.Conn]connInfo // every connection open, by its state
}

// connInfo is what the listener knows of one open connection.
type connInfo struct {
	busy  bool      // serving a request
	since time.Time // when it last became idle (or was accepted)
}

// NewFairListener wraps ln with a cap of n connections (at least 1).
func NewFairListener(ln net.Listener, n int) *FairListener {
	l := &FairListener{Listener: ln, limit: max(n, 1), conns: map[net.Conn]connInfo{}}
	l.freed = sync.NewCond(&l.mu)
	return l
}

// Accept accepts the next connection, evicting the longest-idle one if the
// cap is reached, or waiting while every open connection is busy.
func (l *FairListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for len(l.conns) >= l.limit {
		if victim := l.longestIdle(); victim != nil {
			delete(l.conns, victim)
			_ = victim.Close() // its server goroutine sees the close and ends
			continue
		}
		l.freed.Wait()
	}
	l.conns[c] = connInfo{since: time.Now()}
	return c, nil
}

// longestIdle is the open connection idle the longest, nil if all are busy.
func (l *FairListener) longestIdle() net.Conn {
	var victim net.Conn
	var since time.Time
	for c, info := range l.conns {
		if !info.busy && (victim == nil || info.since.Before(since)) {
			victim, since = c, info.since
		}
	}
	return victim
}

// ConnState is the http.Server's ConnState hook: it tells the listener
// which connections serve a request and which are idle or gone.
func (l *FairListener) ConnState(c net.Conn, s http.ConnState) {
	l.mu.Lock()
	defer l.mu.Unlock()
	info, open := l.conns[c]
	if !open {
		return // evicted already, or not this listener's
	}
	switch s {
	case http.StateActive:
		info.busy = true
	case http.StateIdle:
		info.busy, info.since = false, time.Now()
	case http.StateClosed, http.StateHijacked:
		delete(l.conns, c)
		l.freed.Signal()
		return
	default:
		return
	}
	l.conns[c] = info
	if !info.busy {
		l.freed.Signal() // an Accept waiting for a slot may now evict it
	}
}

// Close closes the listener and wakes an Accept waiting for a slot.
func (l *FairListener) Close() error {
	err := l.Listener.Close()
	l.mu.Lock()
	l.limit = math.MaxInt // nothing waits on a closed listener
	l.freed.Broadcast()
	l.mu.Unlock()
	return err
}

// LimitListener returns a listener that has at most n connections open at
// once: Accept waits while n are open (golang.org/x/net/netutil).
func LimitListener(ln net.Listener, n int) net.Listener { return netutil.LimitListener(ln, n) }
