package fakemodel

import (
	"context"
	"errors"
	"net"
	"net/http"
	"sync"
	"time"
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
// that shares them fairly: at the cap, a new client takes the slot of the
// connection idle the longest (kept alive between requests, or silent for
// a second since it connected), and while every slot serves a request, the next
// slot goes to the waiting connection whose client (remote host) holds the
// fewest, so one client's queue cannot starve another's. A plain cap
// (netutil.LimitListener) let 1,000 idle connections keep a healthy client
// waiting past a minute. The server must report its connections' states
// to ConnState.
type FairListener struct {
	net.Listener
	limit int

	mu      sync.Mutex
	changed *sync.Cond
	conns   map[net.Conn]connInfo // every connection handed to the server
	pending []net.Conn            // accepted from the socket, not yet handed out
	err     error                 // the socket's accept error: the listener is done
	started bool
	recheck bool // a timer will wake Accept to look for silent connections again
}

// maxPendingPerSlot bounds the connections waiting for a slot: at most
// this many per slot; past it a new connection is closed at once.
const maxPendingPerSlot = 4

// connInfo is what the listener knows of one open connection.
type connInfo struct {
	client string    // remote host
	busy   bool      // serving a request
	served bool      // has had a request: idle now means kept alive
	since  time.Time // when it last became idle (or was accepted)
}

// silentGrace is how long a connection that has not sent a request yet
// keeps its slot at the cap: a client that just connected is about to send
// one; one silent longer is taken for idle.
const silentGrace = time.Second

// NewFairListener wraps ln with a cap of n connections (at least 1).
func NewFairListener(ln net.Listener, n int) *FairListener {
	l := &FairListener{Listener: ln, limit: max(n, 1), conns: map[net.Conn]connInfo{}}
	l.changed = sync.NewCond(&l.mu)
	return l
}

// acceptLoop takes connections from the socket as they come, so that
// Accept can choose among the waiting ones.
func (l *FairListener) acceptLoop() {
	for {
		c, err := l.Listener.Accept()
		l.mu.Lock()
		switch {
		case err != nil:
			l.err = err
		case len(l.pending) >= maxPendingPerSlot*l.limit:
			_ = c.Close() // past any fair wait: refused at once
		default:
			l.pending = append(l.pending, c)
		}
		l.changed.Broadcast()
		l.mu.Unlock()
		if err != nil {
			return
		}
	}
}

// Accept hands the server its next connection: when a slot is free (or an
// idle connection gives its slot up), the waiting connection of the client
// holding the fewest connections, the earliest first among equals.
func (l *FairListener) Accept() (net.Conn, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.started {
		l.started = true
		go l.acceptLoop()
	}
	for {
		if l.err != nil {
			for _, c := range l.pending {
				_ = c.Close()
			}
			l.pending = nil
			return nil, l.err
		}
		if len(l.pending) > 0 {
			if len(l.conns) >= l.limit {
				if victim := l.longestIdle(); victim != nil {
					delete(l.conns, victim)
					_ = victim.Close() // its server goroutine sees the close and ends
				}
			}
			if len(l.conns) < l.limit {
				c := l.nextPending()
				l.conns[c] = connInfo{client: clientOf(c), since: time.Now()}
				return c, nil
			}
			// A silent connection may pass its grace with no state
			// change to wake this wait: look again then. One look-again
			// at a time: every other wake-up (a new or changed
			// connection) would otherwise add a timer, and each timer's
			// wake-up another, for as long as the slots stay full.
			if !l.recheck {
				l.recheck = true
				time.AfterFunc(silentGrace/4, func() {
					l.mu.Lock()
					l.recheck = false
					l.changed.Broadcast()
					l.mu.Unlock()
				})
			}
		}
		l.changed.Wait()
	}
}

// nextPending removes and returns the waiting connection whose client
// holds the fewest open connections (the earliest among equals).
func (l *FairListener) nextPending() net.Conn {
	held := map[string]int{}
	for _, info := range l.conns {
		held[info.client]++
	}
	best := 0
	for i, c := range l.pending {
		if held[clientOf(c)] < held[clientOf(l.pending[best])] {
			best = i
		}
	}
	c := l.pending[best]
	l.pending = append(l.pending[:best], l.pending[best+1:]...)
	return c
}

// clientOf is a connection's client: its remote host.
func clientOf(c net.Conn) string {
	addr := c.RemoteAddr().String()
	if host, _, err := net.SplitHostPort(addr); err == nil {
		return host
	}
	return addr
}

// longestIdle is the open connection idle the longest (kept alive between
// requests, or silent past silentGrace since it connected), nil if none is.
func (l *FairListener) longestIdle() net.Conn {
	var victim net.Conn
	var since time.Time
	now := time.Now()
	for c, info := range l.conns {
		idle := !info.busy && (info.served || now.Sub(info.since) >= silentGrace)
		if idle && (victim == nil || info.since.Before(since)) {
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
		info.busy, info.served = true, true
	case http.StateIdle:
		info.busy, info.since = false, time.Now()
	case http.StateClosed, http.StateHijacked:
		delete(l.conns, c)
		l.changed.Broadcast()
		return
	default:
		return
	}
	l.conns[c] = info
	if !info.busy {
		l.changed.Broadcast() // an Accept waiting for a slot may now evict it
	}
}
