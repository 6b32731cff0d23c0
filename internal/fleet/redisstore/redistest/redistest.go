// Package redistest starts a real redis-server (Debian's redis-server
// package) for tests, on a free loopback port, with no persistence (or,
// StartPersistent, an append-only file that survives a restart), and
// stops it when the test ends. Tests are skipped with a clear message when
// redis-server is not installed.
package redistest

import (
	"bytes"
	"fmt"
	"net"
	"os/exec"
	"strconv"
	"testing"
	"time"
)

// Server is a redis-server started for one test.
type Server struct {
	t    testing.TB
	path string
	port int
	cmd  *exec.Cmd
	// exited is closed when cmd has exited (its Wait has returned).
	exited chan struct{}
	// dir, when set, is where the server keeps its append-only file
	// (StartPersistent): a restart reads back what was written.
	dir string
}

// Start starts redis-server on a free loopback port and stops it when the
// test ends. It skips the test if redis-server is not installed. A port
// taken between finding it free and the server binding it is tried again
// with another.
func Start(t testing.TB) *Server {
	t.Helper()
	return startIn(t, "")
}

// StartPersistent is Start with an append-only file in a temporary
// directory, synced on every write (appendfsync always): a server killed
// and restarted comes back with everything it acknowledged.
func StartPersistent(t testing.TB) *Server {
	t.Helper()
	return startIn(t, t.TempDir())
}

func startIn(t testing.TB, dir string) *Server {
	t.Helper()
	path, err := exec.LookPath("redis-server")
	if err != nil {
		t.Skip("redis-server is not installed (apt-get install -y redis-server): skipping the Redis breaker store test")
	}
	var last error
	for range 3 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatalf("finding a free port: %v", err)
		}
		port := l.Addr().(*net.TCPAddr).Port
		l.Close()
		s := &Server{t: t, path: path, port: port, dir: dir}
		if last = s.start(); last == nil {
			t.Cleanup(s.Kill)
			return s
		}
	}
	t.Fatal(last)
	return nil
}

// URL is the server's redis:// URL, database 0.
func (s *Server) URL() string { return fmt.Sprintf("redis://127.0.0.1:%d/0", s.port) }

// Kill stops the server at once (SIGKILL) and waits for it to exit.
func (s *Server) Kill() {
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Kill()
	<-s.exited
	s.cmd = nil
}

// Restart starts the server again on the same port and waits until it
// accepts connections: empty, or for StartPersistent's server with what
// its append-only file holds.
func (s *Server) Restart() {
	s.t.Helper()
	if err := s.start(); err != nil {
		s.t.Fatal(err)
	}
}

// start starts the server on its port and waits until it accepts
// connections: up to 15 s, since a loaded machine (go test -race on every
// package at once) can take seconds to start a process. It returns an
// error, with what the server said, if it exits first or never listens.
func (s *Server) start() error {
	s.Kill()
	var out bytes.Buffer
	args := []string{"--port", strconv.Itoa(s.port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--daemonize", "no", "--loglevel", "warning"}
	if s.dir != "" {
		args = append(args, "--appendonly", "yes", "--appendfsync", "always", "--dir", s.dir)
	}
	cmd := exec.Command(s.path, args...)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting redis-server: %w", err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	s.cmd, s.exited = cmd, exited
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(s.port))
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			s.cmd = nil
			return fmt.Errorf("redis-server on %s exited before listening: %s", addr, bytes.TrimSpace(out.Bytes()))
		default:
		}
		if c, err := net.DialTimeout("tcp", addr, 100*time.Millisecond); err == nil {
			c.Close()
			return nil
		}
		time.Sleep(10 * time.Millisecond)
	}
	s.Kill()
	return fmt.Errorf("redis-server did not start listening on %s within 15 s", addr)
}
