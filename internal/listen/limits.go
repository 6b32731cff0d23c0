package listen

import (
	"net"
	"net/http"
	"time"
)

// Limits bound what clients can cost one of drill's HTTP servers (the
// fake model, the proxy, the metrics and alert listeners). Zero fields
// take the defaults of DefaultLimits.
type Limits struct {
	// ReadHeaderTimeout is how long a new connection has to send its
	// request line and headers (default 10 s). Until it has, it holds no
	// slot of MaxConns: a connection that sends nothing, or its headers a
	// byte at a time, never keeps a healthy client waiting.
	ReadHeaderTimeout time.Duration
	// ReadTimeout is how long a client has to send a whole request, body
	// included (default 30 s); a body trickled in slower is cut off and
	// the connection closed. A server that reads bodies under a deadline
	// of its own (the proxy) clears http.Server.ReadTimeout after
	// Configure.
	ReadTimeout time.Duration
	// IdleTimeout is how long a kept-alive connection may wait for its
	// next request (default 5 s).
	IdleTimeout time.Duration
	// MaxConns caps the connections the server handles at once (default
	// 2048). At the cap a connection whose headers have arrived takes the
	// slot of the connection kept alive idle the longest; it waits only
	// while every slot serves a request. As many again (at least
	// MinWaiting) may be sending their headers (past that the oldest of
	// them is closed to make room for a new one), and as many again may
	// wait for a slot with their headers read (past that a new one is
	// closed).
	MaxConns int
	// MaxHeaderBytes caps a request's headers (default 64 KiB).
	MaxHeaderBytes int
}

// DefaultLimits are the limits every drill listener has unless its command
// sets others.
var DefaultLimits = Limits{
	ReadHeaderTimeout: 10 * time.Second,
	ReadTimeout:       30 * time.Second,
	IdleTimeout:       5 * time.Second,
	MaxConns:          2048,
	MaxHeaderBytes:    64 << 10,
}

// WithDefaults returns l with each zero (or negative) field set to
// DefaultLimits'.
func (l Limits) WithDefaults() Limits {
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

// Configure sets srv's timeouts, header cap and ConnState hook from l
// (defaults filled in) and returns ln wrapped in the FairListener srv must
// serve: srv.Serve(Configure(srv, ln, l)). srv.ConnState must be unset.
func Configure(srv *http.Server, ln net.Listener, l Limits) net.Listener {
	l = l.WithDefaults()
	fair := NewFairListener(ln, l)
	srv.ReadHeaderTimeout = l.ReadHeaderTimeout
	srv.ReadTimeout = l.ReadTimeout
	srv.IdleTimeout = l.IdleTimeout
	srv.MaxHeaderBytes = l.MaxHeaderBytes
	srv.ConnState = fair.ConnState
	return fair
}
