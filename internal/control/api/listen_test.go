package api

import (
	"net"
	"testing"
	"time"

	"github.com/drill-dev/drill/internal/control"
	"github.com/drill-dev/drill/internal/listen"
	"github.com/drill-dev/drill/internal/listen/listentest"
)

// TestServeHasListenerLimits: the control API's server has the header,
// body and idle timeouts and the connection cap every drill listener has.
func TestServeHasListenerLimits(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := Serve(ln, Options{Target: &fakeTarget{}, Name: "run"})
	defer s.Close()
	got, want := s.Limits(), listen.DefaultLimits
	if got.ReadHeaderTimeout <= 0 || got.ReadTimeout <= 0 || got.IdleTimeout <= 0 || got.MaxConns <= 0 || got != want {
		t.Errorf("control API limits %+v, want drill's listener limits %+v", got, want)
	}
}

// TestServesHealthyClientsFirst: the control API answers a healthy
// client within a second while 1,000 idle, slowloris or slow-body
// (POST /outages) connections are held.
func TestServesHealthyClientsFirst(t *testing.T) {
	if testing.Short() {
		t.Skip("holds 3,000 connections")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := Serve(ln, Options{Target: &fakeTarget{}, Name: "run", Start: time.Now(),
		Figures: func() []control.Figure { return []control.Figure{{Key: "requests", Value: 1, Unit: control.UnitCount}} }})
	defer s.Close()
	listentest.HealthyFirst(t, s.Addr(), "/outages", listentest.Healthy("http://"+s.Addr()+"/status", ""))
}
