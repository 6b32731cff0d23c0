// Package listentest checks that one of drill's HTTP servers serves a
// healthy client first: within a second while it holds 1,000 idle,
// slowloris or slow-body connections.
package listentest

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// Kind is a kind of hostile connection.
type Kind string

// The kinds of hostile connection HealthyFirst holds.
const (
	// Idle connections connect and send nothing.
	Idle Kind = "idle"
	// Slowloris connections send part of their request headers and then
	// nothing more (as if trickling the rest).
	Slowloris Kind = "slowloris"
	// SlowBody connections send whole headers announcing a large body,
	// a few bytes of it, and then nothing more.
	SlowBody Kind = "slow-body"
)

// Kinds are every kind of hostile connection, in the order HealthyFirst
// holds them.
var Kinds = []Kind{Idle, Slowloris, SlowBody}

// Bound is how long a healthy client may wait behind hostile connections,
// on top of what its request takes on the same server with none (Baseline):
// the time the server's own work takes on a loaded machine is not the
// server's queueing. A binary built with the race detector, which makes
// the server's work on 1,000 connections many times slower, is allowed
// raceBound instead: it still catches a server that queues the healthy
// client behind them (tens of seconds), and CI runs these tests without
// -race too, against Bound.
const Bound = time.Second

// bound is the allowance in force: Bound, or raceBound under -race.
func bound() time.Duration {
	if raceEnabled {
		return raceBound
	}
	return Bound
}

// raceBound is the allowance under the race detector.
const raceBound = 10 * time.Second

// Held is how many hostile connections HealthyFirst holds.
const Held = 1000

// Hold opens n connections of kind to addr, each sending what its kind
// sends of a request to path. It returns them; the caller closes them.
func Hold(addr, path string, kind Kind, n int) ([]net.Conn, error) {
	conns := make([]net.Conn, 0, n)
	for range n {
		c, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			closeAll(conns)
			return nil, fmt.Errorf("opening %s connection %d: %w", kind, len(conns)+1, err)
		}
		conns = append(conns, c)
		var msg string
		switch kind {
		case Idle:
		case Slowloris:
			msg = "POST " + path + " HTTP/1.1\r\nHost: x\r\nUser-Agent: slow"
		case SlowBody:
			msg = "POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{\"mod"
		}
		if msg != "" {
			if _, err := io.WriteString(c, msg); err != nil {
				closeAll(conns)
				return nil, fmt.Errorf("writing to %s connection %d: %w", kind, len(conns), err)
			}
		}
	}
	return conns, nil
}

func closeAll(conns []net.Conn) {
	for _, c := range conns {
		_ = c.Close()
	}
}

// stillOpen counts the connections the server has not closed: a read
// waits 200 ms and times out rather than ending.
func stillOpen(conns []net.Conn) int {
	var wg sync.WaitGroup
	var mu sync.Mutex
	open := 0
	for _, c := range conns {
		wg.Go(func() {
			_ = c.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
			_, err := c.Read(make([]byte, 1))
			if errors.Is(err, os.ErrDeadlineExceeded) {
				mu.Lock()
				open++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return open
}

// timed runs healthy and returns how long it took.
func timed(healthy func() error) (time.Duration, error) {
	start := time.Now()
	err := healthy()
	return time.Since(start), err
}

// Baseline is the longer of two runs of healthy on a server holding no
// hostile connection.
func Baseline(t *testing.T, healthy func() error) time.Duration {
	t.Helper()
	var base time.Duration
	for range 2 {
		took, err := timed(healthy)
		if err != nil {
			t.Fatalf("healthy client, no other connection: %v", err)
		}
		base = max(base, took)
	}
	return base
}

// HealthyFirst holds Held connections of each kind in turn on the server
// at addr (sending their requests to path) and checks that healthy — one
// request on a new connection, with a time limit of its own — succeeds
// within Bound of the baseline while they are held, and that the server
// still holds them all afterwards (it served the healthy client beside
// them, not by dropping them). Set DRILL_FAIR_REPORT=1 to log the times.
func HealthyFirst(t *testing.T, addr, path string, healthy func() error) {
	t.Helper()
	HealthyFirstBehind(t, addr, path, healthy, Kinds...)
}

// HealthyFirstBehind is HealthyFirst with the given kinds of connection
// only.
func HealthyFirstBehind(t *testing.T, addr, path string, healthy func() error, kinds ...Kind) {
	t.Helper()
	base := Baseline(t, healthy)
	for _, kind := range kinds {
		conns, err := Hold(addr, path, kind, Held)
		if err != nil {
			t.Fatal(err)
		}
		took, err := timed(healthy)
		open := stillOpen(conns)
		closeAll(conns)
		if os.Getenv("DRILL_FAIR_REPORT") != "" {
			t.Logf("behind %d %s connections: healthy client in %v (baseline %v); %d still held", Held, kind, took, base, open)
		}
		switch {
		case err != nil:
			t.Errorf("behind %d %s connections: healthy client failed after %v: %v", Held, kind, took, err)
		case took > base+bound():
			t.Errorf("behind %d %s connections: healthy client took %v, more than %v past its %v baseline", Held, kind, took, bound(), base)
		}
		if open != len(conns) {
			t.Errorf("behind %d %s connections: the server closed %d of them", Held, kind, len(conns)-open)
		}
	}
}

// Healthy is a healthy client: one request on a new connection, with a
// time limit of its own, that must read a whole 200 answer. An empty body
// sends a GET, any other a POST of JSON.
func Healthy(url, body string) func() error {
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 10 * time.Second}
	return func() error {
		var resp *http.Response
		var err error
		if body == "" {
			resp, err = client.Get(url)
		} else {
			resp, err = client.Post(url, "application/json", strings.NewReader(body))
		}
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if _, err := io.Copy(io.Discard, resp.Body); err != nil {
			return err
		}
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("status %d", resp.StatusCode)
		}
		return nil
	}
}
