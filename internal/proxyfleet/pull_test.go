package proxyfleet_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/fleet/redisstore/redistest"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/proxy"
	"github.com/drill-dev/drill/internal/proxyfleet"
	"github.com/drill-dev/drill/scoring"
)

// post sends one chat completion through the proxy at base and reports
// whether an answer came back.
func post(t *testing.T, base string) bool {
	t.Helper()
	resp, err := http.Post(base+"/v1/chat/completions", "application/json",
		strings.NewReader(`{"model":"gpt-5.4-mini","messages":[{"role":"user","content":"ping"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode > 0
}

// TestPulledJournalCountsEqualTheClients: three proxies of one fleet, each
// with its own plain HTTP client, play the plan the first set; the journal
// pulled from Redis holds every member's requests, counted per member as
// each client counted them, and reads back like any journal.
func TestPulledJournalCountsEqualTheClients(t *testing.T) {
	srv := redistest.Start(t)
	up, _ := url.Parse("http://fake.invalid/v1")
	plan, _, err := proxyfleet.Agree(context.Background(), srv.URL(), "drill1", proxyfleet.Plan{Start: time.Now(), By: "a",
		Windows: []event.Window{{FaultSpec: event.FaultSpec{Kind: "busy"}, From: 0, To: time.Hour}}})
	if err != nil {
		t.Fatal(err)
	}
	sent := map[string]int{"a": 3, "b": 5, "c": 7}
	type run struct {
		p   *proxy.Proxy
		s   *httptest.Server
		m   *proxyfleet.Member
		got int
	}
	runs := map[string]*run{}
	for name := range sent {
		p, err := proxy.New(proxy.Options{Upstream: up, Start: plan.Start, Windows: plan.Windows,
			Transport: fakemodel.New(fakemodel.Options{NoLatency: true}).Transport()})
		if err != nil {
			t.Fatal(err)
		}
		runs[name] = &run{p: p, s: httptest.NewServer(p), m: join(t, srv.URL(), "drill1", name, p.Log(), newFakeTarget())}
	}
	for name, n := range sent {
		for range n {
			if post(t, runs[name].s.URL) {
				runs[name].got++
			}
		}
	}
	for name, r := range runs {
		r.s.Close()
		r.p.Close("proxy stopped")
		if unsent, err := r.m.Close(context.Background()); err != nil || unsent != 0 {
			t.Errorf("member %s: Close = %d unsent, %v", name, unsent, err)
		}
	}
	p, err := proxyfleet.Pull(context.Background(), srv.URL(), "drill1")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "run.jsonl")
	status, _, err := proxyfleet.WriteJournal(path, false, p)
	if err != nil || status != event.StatusCompleted {
		t.Fatalf("WriteJournal = %q, %v; want completed", status, err)
	}
	j, err := journal.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f := scoring.NewProxyFleetFold()
	f.AddAll(j.Events)
	total := 0
	for name, r := range runs {
		m, ok := f.Member(name)
		if !ok || m.Tally.Requests != r.got || m.Faults() != r.got {
			t.Errorf("member %s: journal has %v requests (%v faulted), its client counted %d answers", name,
				m.Tally.Requests, m.Faults(), r.got)
		}
		total += r.got
	}
	whole := scoring.NewProxyTally() // as drill report reads a proxy's journal
	for _, e := range j.Events {
		whole.Add(e)
	}
	if whole.Requests != total || f.Totals().Requests != total || j.Status() != event.StatusCompleted {
		t.Errorf("journal: %d requests (fleet totals %d), status %q; want %d, completed", whole.Requests,
			f.Totals().Requests, j.Status(), total)
	}
	if starts := countKind(j.Events, event.RunStart); starts != 1 {
		t.Errorf("the pulled journal has %d run_start events, want 1", starts)
	}
}

func countKind(evs []event.Event, k event.Kind) int {
	n := 0
	for _, e := range evs {
		if e.Kind == k {
			n++
		}
	}
	return n
}
