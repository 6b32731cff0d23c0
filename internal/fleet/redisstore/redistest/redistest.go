// Package redistest starts a real redis-server (Debian's redis-server
// package) for tests, on a free loopback port, with no persistence, and
// stops it when the test ends. Tests are skipped with a clear message when
// redis-server is not installed.
package redistest

import (
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
}

// Start starts redis-server on a free loopback port and stops it when the
// test ends. It skips the test if redis-server is not installed.
func Start(t testing.TB) *Server {
	t.Helper()
	path, err := exec.LookPath("redis-server")
	if err != nil {
		t.Skip("redis-server is not installed (apt-get install -y redis-server): skipping the Redis breaker store test")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("finding a free port: %v", err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	s := &Server{t: t, path: path, port: port}
	s.Restart()
	t.Cleanup(s.Kill)
	return s
}

// URL is the server's redis:// URL, database 0.
func (s *Server) URL() string { return fmt.Sprintf("redis://127.0.0.1:%d/0", s.port) }

// Kill stops the server at once (SIGKILL) and waits for it to exit.
func (s *Server) Kill() {
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Kill()
	_ = s.cmd.Wait()
	s.cmd = nil
}

// Restart starts the server again on the same port (empty: nothing is
// saved) and waits until it accepts connections.
func (s *Server) Restart() {
	s.t.Helper()
	s.Kill()
	cmd := exec.Command(s.path, "--port", strconv.Itoa(s.port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--daemonize", "no", "--loglevel", "warning")
	if err := cmd.Start(); err != nil {
		s.t.Fatalf("starting redis-server: %v", err)
	}
	s.cmd = cmd
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(s.port))
	for range 200 {
		if c, err := net.DialTimeout("tcp", addr, 100*time.Millisecond); err == nil {
			c.Close()
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	s.t.Fatalf("redis-server did not start listening on %s", addr)
}
