package main

import (
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/control"
	"github.com/drill-dev/drill/internal/fleet/redisstore/redistest"
	"github.com/drill-dev/drill/internal/proxyfleet"
)

type noTarget struct{}

func (noTarget) Apply(control.Command) error { return nil }

// runMember runs a fleet member whose log holds a run with n finished
// requests, until its events are all in Redis.
func runMember(t *testing.T, url, fleet, name string, n int) {
	t.Helper()
	log := event.NewLog(time.Now())
	m, err := proxyfleet.Join(context.Background(), proxyfleet.Options{URL: url, Fleet: fleet, Member: name, Log: log, Target: noTarget{}})
	if err != nil {
		t.Fatal(err)
	}
	log.Append(event.Event{Kind: event.RunStart, Run: &event.RunInfo{Policy: "proxy", Outage: "none", Target: "upstream"}})
	for i := 1; i <= n; i++ {
		pc := &event.ProxyCall{ID: i, Method: "POST", Path: "/v1/chat/completions"}
		log.Append(event.Event{Kind: event.AttemptStart, Rung: "upstream", Model: "m", Proxy: pc})
		log.Append(event.Event{Kind: event.AttemptEnd, Rung: "upstream", Model: "m", Outcome: event.OK, Status: 200, Proxy: pc})
	}
	log.Append(event.Event{Kind: event.RunEnd, Detail: "proxy stopped"})
	log.Close()
	if unsent, err := m.Close(context.Background()); err != nil || unsent != 0 {
		t.Fatalf("member %s: %d unsent, %v", name, unsent, err)
	}
}

// drill watch --no-tui shows one row per member and the fleet's totals;
// drill journal pull writes a journal drill replay reads.
func TestWatchAndPullAProxyFleet(t *testing.T) {
	srv := redistest.Start(t)
	runMember(t, srv.URL(), "f1", "pod-a", 2)
	runMember(t, srv.URL(), "f1", "pod-b", 3)
	out, errOut, code := execute(context.Background(), "watch", srv.URL(), "--fleet", "f1", "--no-tui")
	if code != 0 {
		t.Fatalf("drill watch: exit %d: %s", code, errOut)
	}
	for _, want := range []string{"proxy fleet f1: 2 members, 0 lost", "pod-a", "pod-b", "ended"} {
		if !strings.Contains(out, want) {
			t.Errorf("drill watch printed\n%s\nwithout %q", out, want)
		}
	}
	if !regexp.MustCompile(`(?m)^fleet\s+5\s`).MatchString(out) {
		t.Errorf("drill watch printed\n%s\nwithout the fleet's 5 requests", out)
	}
	path := filepath.Join(t.TempDir(), "fleet.jsonl")
	if _, errOut, code := execute(context.Background(), "journal", "pull", srv.URL(), "--fleet", "f1", "-o", path); code != 0 {
		t.Fatalf("drill journal pull: exit %d: %s", code, errOut)
	}
	if _, errOut, code := execute(context.Background(), "journal", "pull", srv.URL(), "--fleet", "f1", "-o", path); code != 2 || !strings.Contains(errOut, "--force") {
		t.Errorf("pulling over an existing journal: exit %d (%s), want 2 naming --force", code, errOut)
	}
	if _, errOut, code := execute(context.Background(), "replay", "--json", path); code != 0 {
		t.Errorf("drill replay of the pulled journal: exit %d: %s", code, errOut)
	}
}

func TestProxyFleetFlagsGoTogether(t *testing.T) {
	_, errOut, code := execute(context.Background(), "proxy", "--no-tui", "--coordinate", "redis://127.0.0.1:1/0")
	if code != 2 || !strings.Contains(errOut, "go together") {
		t.Errorf("--coordinate alone: exit %d, %q; want 2 saying the flags go together", code, errOut)
	}
	_, errOut, code = execute(context.Background(), "proxy", "--no-tui", "--coordinate", "redis://127.0.0.1:1/0", "--fleet", "a b", "--member", "x")
	if code != 2 || !strings.Contains(errOut, "--fleet") {
		t.Errorf("a fleet name with a space: exit %d, %q; want 2 naming --fleet", code, errOut)
	}
}
