package listen

import (
	"bytes"
	"errors"
	"net"
	"net/http"
	"sync"
	"syscall"
	"time"
)

// FairListener is a listener that serves healthy clients first. It reads
// each new connection's request headers itself, before the server sees the
// connection, so a connection that sends nothing or trickles its headers
// (slowloris) holds a goroutine and a socket but no slot; it hands the
// server at most MaxConns connections at once; at the cap, a connection
// whose headers have arrived takes the slot of the one kept alive idle the
// longest; and while every slot serves a request, the next slot goes to the
// waiting connection whose client (remote host) holds the fewest, so one
// client's queue cannot starve another's. A plain cap
// (netutil.LimitListener) let 1,000 idle connections keep a healthy client
// waiting past a minute; a cap that counted connections still silent kept
// it 2.25 s. The server must report its connections' states to ConnState
// (Configure does).
type FairListener struct {
	net.Listener
	limit         int           // slots: connections handed to the server at once
	maxWaiting    int           // connections reading headers; as many with headers read
	headerTimeout time.Duration // for the headers of a new connection
	headerBytes   int           // past this many bytes without an end of headers, hand it over

	mu      sync.Mutex
	changed *sync.Cond
	conns   map[net.Conn]connInfo  // every connection handed to the server
	reading map[net.Conn]time.Time // accepted, headers not yet read: when accepted
	ready   []*conn                // headers read, waiting for a slot
	err     error                  // the socket's accept error: the listener is done
	started bool
	wg      sync.WaitGroup // the accept loop and the header readers
}

// connInfo is what the listener knows of one connection handed out.
type connInfo struct {
	client string    // remote host
	busy   bool      // serving a request
	served bool      // has had a request: idle now means kept alive
	since  time.Time // when it last became idle (or was handed out)
}

// MinWaiting is the fewest connections a FairListener lets send their
// headers at once (and the fewest it lets wait for a slot with their
// headers read), however small its cap: they cost a goroutine, a socket
// and the bytes they sent.
const MinWaiting = 1024

// NewFairListener wraps ln with l's connection cap and header timeout
// (defaults filled in).
func NewFairListener(ln net.Listener, l Limits) *FairListener {
	l = l.WithDefaults()
	f := &FairListener{Listener: ln, limit: l.MaxConns, maxWaiting: max(l.MaxConns, MinWaiting), headerTimeout: l.ReadHeaderTimeout,
		headerBytes: l.MaxHeaderBytes + 4096, conns: map[net.Conn]connInfo{}, reading: map[net.Conn]time.Time{}}
	f.changed = sync.NewCond(&f.mu)
	return f
}

// acceptLoop takes connections from the socket as they come and starts
// reading each one's headers. When the process is out of file descriptors
// it closes the connection reading its headers the longest and backs off,
// as http.Server does.
func (l *FairListener) acceptLoop() {
	defer l.wg.Done()
	var backoff time.Duration
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			if errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE) || errors.Is(err, syscall.ECONNABORTED) {
				l.mu.Lock()
				l.closeOldestReading()
				l.mu.Unlock()
				backoff = min(max(2*backoff, 5*time.Millisecond), time.Second)
				time.Sleep(backoff)
				continue
			}
			l.mu.Lock()
			l.err = err
			for r := range l.reading {
				_ = r.Close() // its reader sees the close and ends
			}
			for _, r := range l.ready {
				_ = r.Close()
			}
			l.ready = nil
			l.changed.Broadcast()
			l.mu.Unlock()
			return
		}
		backoff = 0
		l.mu.Lock()
		if len(l.reading) >= l.maxWaiting {
			l.closeOldestReading()
		}
		l.reading[c] = time.Now()
		l.wg.Add(1)
		l.mu.Unlock()
		go l.readHeaders(c)
	}
}

// closeOldestReading closes the connection that has been sending its
// headers the longest: it has had more time than any other. l.mu is held.
func (l *FairListener) closeOldestReading() {
	var oldest net.Conn
	var at time.Time
	for c, t := range l.reading {
		if oldest == nil || t.Before(at) {
			oldest, at = c, t
		}
	}
	if oldest != nil {
		delete(l.reading, oldest)
		_ = oldest.Close() // its reader sees the close and ends
	}
}

// readHeaders reads c up to the end of its request headers (or
// headerBytes) within headerTimeout, then queues it for a slot with what it
// read. A connection that closes or times out first is closed and
// forgotten: the server never sees it.
func (l *FairListener) readHeaders(c net.Conn) {
	defer l.wg.Done()
	buf, ok := readHead(c, l.headerTimeout, l.headerBytes)
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, mine := l.reading[c]; !mine {
		return // closed to make room, or the listener is done
	}
	delete(l.reading, c)
	switch {
	case !ok || l.err != nil:
		_ = c.Close()
	case len(l.ready) >= l.maxWaiting:
		_ = c.Close() // past any fair wait: refused
	default:
		l.ready = append(l.ready, &conn{Conn: c, head: buf})
		l.changed.Broadcast()
	}
}

// readHead reads from c until the end of an HTTP request's headers (an
// empty line) or limit bytes, within timeout. It reports false if c ended or
// timed out first.
func readHead(c net.Conn, timeout time.Duration, limit int) ([]byte, bool) {
	_ = c.SetReadDeadline(time.Now().Add(timeout))
	buf := make([]byte, 0, 1024)
	for {
		if len(buf) == cap(buf) {
			grown := make([]byte, len(buf), min(2*cap(buf), limit))
			copy(grown, buf)
			buf = grown
		}
		from := max(0, len(buf)-3)
		n, err := c.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if headEnded(buf[from:]) || len(buf) >= limit {
			_ = c.SetReadDeadline(time.Time{})
			return buf, true
		}
		if err != nil {
			return nil, false
		}
	}
}

// headEnded reports whether b holds the empty line that ends request
// headers ("\r\n\r\n", or "\n\n" as net/http also accepts).
func headEnded(b []byte) bool {
	return bytes.Contains(b, []byte("\n\r\n")) || bytes.Contains(b, []byte("\n\n"))
}

// Accept hands the server its next connection: when a slot is free (or an
// idle kept-alive connection gives its slot up), the ready connection of
// the client holding the fewest connections, the earliest first among
// equals.
func (l *FairListener) Accept() (net.Conn, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.started {
		l.started = true
		l.wg.Add(1)
		go l.acceptLoop()
	}
	for {
		if l.err != nil {
			return nil, l.err
		}
		if len(l.ready) > 0 {
			if len(l.conns) >= l.limit {
				if victim := l.longestIdle(); victim != nil {
					delete(l.conns, victim)
					_ = victim.Close() // its server goroutine sees the close and ends
				}
			}
			if len(l.conns) < l.limit {
				c := l.nextReady()
				l.conns[c] = connInfo{client: clientOf(c), since: time.Now()}
				return c, nil
			}
		}
		l.changed.Wait()
	}
}

// Close closes the socket, every connection not handed to the server yet,
// and waits for the listener's goroutines to end.
func (l *FairListener) Close() error {
	err := l.Listener.Close()
	l.mu.Lock()
	started := l.started
	if !started {
		l.started = true // no accept loop starts after Close
		l.err = net.ErrClosed
	}
	l.mu.Unlock()
	if started {
		l.wg.Wait()
	}
	return err
}

// nextReady removes and returns the ready connection whose client holds
// the fewest connections (the earliest among equals).
func (l *FairListener) nextReady() net.Conn {
	held := map[string]int{}
	for _, info := range l.conns {
		held[info.client]++
	}
	best := 0
	for i, c := range l.ready {
		if held[clientOf(c)] < held[clientOf(l.ready[best])] {
			best = i
		}
	}
	c := l.ready[best]
	l.ready = append(l.ready[:best], l.ready[best+1:]...)
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

// longestIdle is the connection kept alive idle the longest (it has had a
// request and is between requests), nil if none is.
func (l *FairListener) longestIdle() net.Conn {
	var victim net.Conn
	var since time.Time
	for c, info := range l.conns {
		if info.served && !info.busy && (victim == nil || info.since.Before(since)) {
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

// conn is a connection handed to the server with the request headers the
// listener read from it, which its first reads return.
type conn struct {
	net.Conn
	head []byte
}

// Read returns what the listener read first, then reads the connection.
func (c *conn) Read(p []byte) (int, error) {
	if len(c.head) > 0 {
		n := copy(p, c.head)
		c.head = c.head[n:]
		return n, nil
	}
	return c.Conn.Read(p)
}

// CloseWrite shuts down the writing side, as the server does before
// closing a connection after an error, when the connection supports it.
func (c *conn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}
