package fakemodel

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"
)

// healthyBehindIdle serves the fake model with limits, opens idle
// connections (half kept alive after one request, half never sending a
// byte), then times one healthy client's request on a new connection.
func healthyBehindIdle(t *testing.T, limits Limits, idle int) time.Duration {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- New(Options{NoLatency: true}).Serve(ctx, ln, limits) }()
	defer func() { cancel(); <-done }()
	addr := ln.Addr().String()
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for i := range idle {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		if i%2 == 0 {
			// A kept-alive connection: one request, then silence. Reading
			// the answer would wait while the server is at its cap, so do
			// not wait for it.
			io.WriteString(c, "GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
		}
	}
	time.Sleep(200 * time.Millisecond) // let the server take what it will
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 60 * time.Second}
	start := time.Now()
	resp, err := client.Post("http://"+addr+"/v1/chat/completions", "application/json",
		strings.NewReader(`{"model":"gpt-5.4-mini","messages":[{"role":"user","content":"Where is DR-123456?"}]}`))
	took := time.Since(start)
	if err != nil {
		t.Fatalf("healthy client after %v: %v", took, err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("healthy client: status %d", resp.StatusCode)
	}
	return took
}

// TestHealthyClientBehindIdleConnections: behind 1,000 idle connections
// (the cap is 256), a healthy client is answered at once: idle ones are
// evicted to make room. Set DRILL_FAIR_REPORT=1 to print the latency.
func TestHealthyClientBehindIdleConnections(t *testing.T) {
	took := healthyBehindIdle(t, Limits{}, 1000)
	if os.Getenv("DRILL_FAIR_REPORT") != "" {
		t.Logf("healthy client behind 1,000 idle connections: %v", took)
	}
	if took > 30*time.Second { // a plain cap: past a minute
		t.Errorf("healthy client waited %v behind idle connections", took)
	}
}

// TestDeepJSONRefusedBeforeDecoding: a json_schema nested 4,900 deep is a
// 400 naming the bound; one nested a few levels still decodes.
func TestDeepJSONRefusedBeforeDecoding(t *testing.T) {
	deep := strings.Repeat(`{"type":"object","properties":{"a":`, 4900) + `{"type":"string"}` + strings.Repeat(`}}`, 4900)
	body := `{"model":"gpt-5.4-mini","messages":[{"role":"user","content":"json please"}],` +
		`"response_format":{"type":"json_schema","json_schema":{"name":"x","schema":` + deep + `}}}`
	s := New(Options{NoLatency: true})
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest("POST", "/v1/chat/completions", strings.NewReader(body)))
	if rec.Code != 400 || !strings.Contains(rec.Body.String(), "deeper than 64") {
		t.Errorf("deep schema: %d %s", rec.Code, rec.Body.String()[:min(200, rec.Body.Len())])
	}
	if d := jsonDepth([]byte(body)); d != 2*4900+4 {
		t.Errorf("jsonDepth = %d", d)
	}
	if d := jsonDepth([]byte(`{"a":"[[[{{{\"]]]","b":[1,{"c":2}]}`)); d != 3 {
		t.Errorf("jsonDepth counted brackets inside a string: %d", d)
	}
}
