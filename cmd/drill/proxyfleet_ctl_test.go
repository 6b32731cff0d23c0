package main

import (
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/fleet/redisstore/redistest"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/scoring"
)

// fleetMember is one drill proxy of the end-to-end fleet and what its
// client sent through it.
type fleetMember struct {
	name, base string
	done       <-chan error
	sent       int // requests the client sent (plain HTTP: one attempt each)
}

// post sends one chat request through the member and returns its status
// (0 when the request failed).
func (m *fleetMember) post(client *http.Client) int {
	m.sent++
	resp, err := client.Post(m.base+"/chat/completions", "application/json",
		strings.NewReader(`{"model":"gpt-5.4-mini","messages":[{"role":"user","content":"Where is DR-123456?"}]}`))
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	return resp.StatusCode
}

// until sends requests through the member every few milliseconds until
// one answers want, and returns how long that took (or fails the test
// after 5 s).
func (m *fleetMember) until(t *testing.T, client *http.Client, want int) time.Duration {
	t.Helper()
	start := time.Now()
	for time.Since(start) < 5*time.Second {
		if m.post(client) == want {
			return time.Since(start)
		}
		time.Sleep(2 * time.Millisecond)
	}
	t.Fatalf("member %s: no %d within 5 s", m.name, want)
	return 0
}

// TestProxyFleetCommandReachesEveryMember: three drill proxy members of
// one fleet on a real Redis, plain HTTP traffic through each, then drill
// ctl outage start on one member's control API: the other members inject
// it within 250 ms; drill ctl --coordinate ends it on all three through
// Redis; the pulled journal's requests per member equal what each
// member's client sent.
func TestProxyFleetCommandReachesEveryMember(t *testing.T) {
	srv := redistest.Start(t)
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	var members []*fleetMember
	ctlAddr := ""
	for i, name := range []string{"pod-a", "pod-b", "pod-c"} {
		args := []string{"--listen", "127.0.0.1:0", "--latency-scale", "0", "--no-tui",
			"--coordinate", srv.URL(), "--fleet", "e2e", "--member", name}
		if i == 0 {
			args = append(args, "--control-listen", "127.0.0.1:0")
		}
		base, _, errOut, done := startProxy(t, ctx, args...)
		members = append(members, &fleetMember{name: name, base: base, done: done})
		if i == 0 {
			ctlAddr = controlAddr(t, errOut)
		}
	}
	client := &http.Client{Timeout: 2 * time.Second}
	for _, m := range members {
		for range 3 {
			if code := m.post(client); code != http.StatusOK {
				t.Fatalf("member %s before the outage: %d, want 200", m.name, code)
			}
		}
	}

	out, stderr, code := execute(ctx, "ctl", "outage", "start", "--kind", "busy", "--param", "status=503", "--as", "ana", "--addr", ctlAddr)
	if code != 0 || !strings.Contains(out, "started") {
		t.Fatalf("drill ctl outage start: exit %d: %s %s", code, out, stderr)
	}
	for _, m := range members {
		took := m.until(t, client, http.StatusServiceUnavailable)
		t.Logf("member %s: the outage in %s", m.name, took)
		if took > 250*time.Millisecond {
			t.Errorf("member %s injected the outage %s after drill ctl returned, want within 250 ms", m.name, took)
		}
	}

	out, stderr, code = execute(ctx, "ctl", "outage", "stop", "--coordinate", srv.URL(), "--fleet", "e2e", "--as", "ben")
	if code != 0 || !strings.Contains(out, "sent to fleet e2e") {
		t.Fatalf("drill ctl --coordinate outage stop: exit %d: %s %s", code, out, stderr)
	}
	for _, m := range members {
		if took := m.until(t, client, http.StatusOK); took > 250*time.Millisecond {
			t.Errorf("member %s ended the outage %s after drill ctl returned, want within 250 ms", m.name, took)
		}
	}

	cancel()
	for _, m := range members {
		if err := <-m.done; err != nil {
			t.Errorf("member %s: %v", m.name, err)
		}
	}
	path := filepath.Join(t.TempDir(), "fleet.jsonl")
	if _, errOut, code := execute(context.Background(), "journal", "pull", srv.URL(), "--fleet", "e2e", "-o", path); code != 0 {
		t.Fatalf("drill journal pull: exit %d: %s", code, errOut)
	}
	fold := scoring.NewProxyFleetFold()
	if _, err := journal.Scan(path, func(e event.Event) error { fold.Add(e); return nil }); err != nil {
		t.Fatal(err)
	}
	for _, m := range members {
		got, ok := fold.Member(m.name)
		if !ok {
			t.Errorf("the pulled journal has no member %s", m.name)
			continue
		}
		if got.Tally.Requests != m.sent {
			t.Errorf("member %s: the pulled journal has %d requests, its client sent %d", m.name, got.Tally.Requests, m.sent)
		}
		if got.Faults() == 0 {
			t.Errorf("member %s: no faulted request in the pulled journal", m.name)
		}
	}
}
