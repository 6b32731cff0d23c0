package listen

import (
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/drill-dev/drill/internal/listen/listentest"
)

// ok reads the request's body, as the alert receiver does, and answers.
var ok = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	if _, err := io.Copy(io.Discard, r.Body); err != nil {
		return
	}
	io.WriteString(w, "ok\n")
})

// TestListenServesHealthyClientsFirst: the metrics and alert listeners
// serve a healthy client within a second while 1,000 idle, slowloris or
// slow-body connections are held.
func TestListenServesHealthyClientsFirst(t *testing.T) {
	s, err := Listen("127.0.0.1:0", ok)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	listentest.HealthyFirst(t, s.Addr(), "/metrics", listentest.Healthy("http://"+s.Addr()+"/metrics", ""))
}

// TestListenHasLimits: the server Listen starts has header, body and idle
// timeouts and a connection cap (it had a header timeout only: an idle
// keep-alive connection or a trickled body held it open for good).
func TestListenHasLimits(t *testing.T) {
	s, err := Listen("127.0.0.1:0", ok)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.srv.ReadHeaderTimeout <= 0 || s.srv.ReadTimeout <= 0 || s.srv.IdleTimeout <= 0 || s.srv.ConnState == nil {
		t.Errorf("server limits: header %v, body %v, idle %v, connection cap hooked %v",
			s.srv.ReadHeaderTimeout, s.srv.ReadTimeout, s.srv.IdleTimeout, s.srv.ConnState != nil)
	}
}

// TestIdleAndSlowlorisHoldNoSlot: with a cap of 8, 1,000 idle or
// slowloris connections still leave a healthy client served at once:
// a connection holds a slot only once its headers have arrived (a cap
// that counted silent connections kept the client 2.25 s behind 1,000).
func TestIdleAndSlowlorisHoldNoSlot(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: ok}
	fair := Configure(srv, ln, Limits{MaxConns: 8})
	done := make(chan error, 1)
	go func() { done <- srv.Serve(fair) }()
	defer func() {
		srv.Close()
		<-done
	}()
	addr := ln.Addr().String()
	listentest.HealthyFirstBehind(t, addr, "/", listentest.Healthy("http://"+addr+"/", ""), listentest.Idle, listentest.Slowloris)
}

// TestKeptAliveIdleGivesWay: at the cap, a kept-alive connection idle
// between requests gives its slot to a new client.
func TestKeptAliveIdleGivesWay(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: ok}
	fair := Configure(srv, ln, Limits{MaxConns: 1, IdleTimeout: time.Minute})
	done := make(chan error, 1)
	go func() { done <- srv.Serve(fair) }()
	defer func() {
		srv.Close()
		<-done
	}()
	url := "http://" + ln.Addr().String() + "/"
	keep := &http.Client{Timeout: 10 * time.Second}
	resp, err := keep.Get(url) // its connection stays open, idle
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if err := listentest.Healthy(url, "")(); err != nil {
		t.Fatalf("new client behind a kept-alive idle one at a cap of 1: %v", err)
	}
}
