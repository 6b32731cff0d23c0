package fakemodel

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/drill-dev/drill/internal/cputime"
	"github.com/drill-dev/drill/internal/testwait"
)

// bigEmail returns a distinct email of about n bytes: ordinary support-email
// prose, varied by i.
func bigEmail(i, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "From: big%d@example.com\nSubject: Long story about order %06d\n\n", i, 100000+i)
	parts := []string{
		"I bought the Summit 4 tent for a family trip and the zip on the door keeps sticking. ",
		"We are not in a hurry, but I would like to know if it is covered by the warranty. ",
		"The stove worked fine, thanks for the quick delivery last month! ",
		"Could you tell me whether the poles can be replaced on their own? ",
	}
	for k := 0; b.Len() < n; k++ {
		b.WriteString(parts[(i+k)%len(parts)])
		if k%7 == 0 {
			fmt.Fprintf(&b, "Note %d. ", k)
		}
	}
	return b.String()
}

// TestMemoBoundedBigEmails sends 50 distinct 1 MB emails to the fake model
// and checks that the memo's byte count stays under its bound.
func TestMemoBoundedBigEmails(t *testing.T) {
	srv := New(Options{NoLatency: true})
	hc := &http.Client{Transport: srv.Transport()}
	r := profiles[ModelMini].Reader
	for i := range 50 {
		body, _ := json.Marshal(map[string]any{"model": ModelMini, "messages": []any{
			map[string]any{"role": "user", "content": bigEmail(i, 1<<20)}}})
		resp, err := hc.Post("http://fake/v1/chat/completions", "application/json", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("email %d: status %d", i, resp.StatusCode)
		}
		if b := r.memo.Bytes(); b > MemoMaxBytes {
			t.Fatalf("after %d emails the memo holds %d bytes, over its bound %d", i+1, b, MemoMaxBytes)
		}
	}
}

// TestMemoLRU fills a small memo past its bound: it evicts the least
// recently used answers and stays within bytes.
func TestMemoLRU(t *testing.T) {
	r := newReader(func(string, string) bool { return true })
	r.urgency = miniUrgency
	r.memo = newLRU(8<<10, memoMaxText, readingBytes)
	first := bigEmail(0, 2000)
	r.Triage(first)
	for i := 1; i < 100; i++ {
		r.Triage(first) // keep the first one recently used
		r.Triage(bigEmail(i, 2000))
		if b := r.memo.Bytes(); b > 8<<10 {
			t.Fatalf("memo holds %d bytes, bound %d", b, 8<<10)
		}
	}
	if _, ok := r.memo.Get(first); !ok {
		t.Error("the most used answer was evicted")
	}
	if _, ok := r.memo.Get(bigEmail(1, 2000)); ok {
		t.Error("an old answer was kept past the bound")
	}
	if n := r.memo.Len(); n < 2 || n > 4 {
		t.Errorf("memo holds %d answers of about 2.3 KB in 8 KB", n)
	}
}

// TestSlowBodyDisconnected: a client that trickles its body is cut off by the
// read timeout, and the server keeps serving others.
func TestSlowBodyDisconnected(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- New(Options{NoLatency: true}).Serve(ctx, ln, Limits{ReadTimeout: 300 * time.Millisecond})
	}()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()

	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{")
	// Trickle a byte every 50 ms until the server hangs up; give up (and
	// fail) after 20 s, far past the 300 ms limit.
	start := time.Now()
	closed := false
	for time.Since(start) < 20*time.Second {
		time.Sleep(50 * time.Millisecond)
		if _, err := conn.Write([]byte(" ")); err != nil {
			closed = true
			break
		}
		conn.SetReadDeadline(time.Now().Add(time.Millisecond))
		buf := make([]byte, 512)
		if _, err := conn.Read(buf); err != nil {
			if ne, ok := err.(net.Error); !ok || !ne.Timeout() {
				closed = true
				break
			}
		} else {
			closed = true // the server answered (an error) and will close
			break
		}
	}
	if !closed {
		t.Fatal("a client trickling its body was still connected after 20 s")
	}

	// Others are still served.
	resp, err := http.Get("http://" + ln.Addr().String() + "/health")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("health after the slow client: %v", err)
	}
	resp.Body.Close()
}

// TestMaxConns: with a cap of 2, a third connection is not served while
// two are serving requests, and is served once one closes; two idle
// kept-alive connections do not keep it out (the longest idle is evicted).
func TestMaxConns(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- New(Options{NoLatency: true}).Serve(ctx, ln, Limits{MaxConns: 2}) }()
	defer func() {
		cancel()
		<-done
	}()
	addr := ln.Addr().String()
	third := &http.Client{Timeout: 300 * time.Millisecond, Transport: &http.Transport{DisableKeepAlives: true}}

	// Two idle kept-alive connections: one request each, answered.
	var idle []net.Conn
	for range 2 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(c, "GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		if _, err := c.Read(make([]byte, 1)); err != nil {
			t.Fatal(err)
		}
		idle = append(idle, c)
	}
	third.Timeout = 10 * time.Second
	resp, err := third.Get("http://" + addr + "/health")
	if err != nil {
		t.Fatalf("two idle connections kept a third client out: %v", err)
	}
	resp.Body.Close()
	for _, c := range idle {
		c.Close()
	}

	// Two busy connections: each sent its headers and is reading a body
	// still to come.
	var held []net.Conn
	for range 2 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		testwait.BodyRead(t, c, "/v1/chat/completions", 100) // the server has read its headers: it holds a slot
		fmt.Fprint(c, "{")
		held = append(held, c)
	}
	third.Timeout = 300 * time.Millisecond
	if resp, err := third.Get("http://" + addr + "/health"); err == nil {
		resp.Body.Close()
		t.Fatal("a third connection was served while two were serving requests under a cap of 2")
	}
	held[0].Close()
	third.Timeout = 10 * time.Second
	resp, err = third.Get("http://" + addr + "/health")
	if err != nil {
		t.Fatalf("after a slot freed: %v", err)
	}
	resp.Body.Close()
	held[1].Close()
}

// BenchmarkReadPerMB measures one profile's reading cost on a 1 MB email:
// ns/op is the wall time per MB and cpu-ms/MB the process CPU time (garbage
// collection included) per MB, which is what the target (under 50 ms) is
// about; on a shared machine the wall time also counts waiting for a core.
func BenchmarkReadPerMB(b *testing.B) {
	for _, name := range []string{ModelMini, ModelNano} {
		b.Run(name, func(b *testing.B) {
			text := bigEmail(1, 1<<20)
			r := profiles[name].Reader
			b.SetBytes(int64(len(text)))
			before := cputime.Self()
			for b.Loop() {
				r.read(text)
			}
			mb := float64(len(text)) / (1 << 20)
			b.ReportMetric(float64(cputime.Self()-before)/float64(time.Millisecond)/float64(b.N)/mb, "cpu-ms/MB")
		})
	}
}
