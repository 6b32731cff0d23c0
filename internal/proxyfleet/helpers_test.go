package proxyfleet_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/control"
	"github.com/drill-dev/drill/internal/proxyfleet"
)

// fakeTarget records the commands applied to it and when.
type fakeTarget struct {
	mu      sync.Mutex
	applied []control.Command
	at      chan time.Time
}

func newFakeTarget() *fakeTarget { return &fakeTarget{at: make(chan time.Time, 16)} }

func (f *fakeTarget) Apply(cmd control.Command) error {
	f.mu.Lock()
	f.applied = append(f.applied, cmd)
	f.mu.Unlock()
	f.at <- time.Now()
	return nil
}

func (f *fakeTarget) ids() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var ids []string
	for _, c := range f.applied {
		ids = append(ids, c.ID)
	}
	return ids
}

// join makes a member of fleet with log, a short heartbeat for quick
// tests, and closes it (if the test has not) when the test ends.
func join(t *testing.T, url, fleet, member string, log *event.Log, target proxyfleet.Target) *proxyfleet.Member {
	t.Helper()
	m, err := proxyfleet.Join(context.Background(), proxyfleet.Options{URL: url, Fleet: fleet, Member: member, Log: log,
		Target: target, Heartbeat: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// has reports whether log holds an event of kind matching ok.
func has(log *event.Log, kind event.Kind, ok func(event.Event) bool) bool {
	return slices.ContainsFunc(log.Events(), func(e event.Event) bool { return e.Kind == kind && ok(e) })
}
