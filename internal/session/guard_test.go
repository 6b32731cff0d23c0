package session_test

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/session"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

// TestAbortStopsTheRun: when an abort condition holds, arrivals stop,
// calls in flight are cancelled, the status is aborted with the reason, and
// the recorded journal reads back whole.
func TestAbortStopsTheRun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := workload.DefaultConfig()
		cfg.Policy, _ = workload.Preset("primary-only")
		cfg.Outage, cfg.OutageFrom, cfg.OutageTo = "busy", 5*time.Second, 60*time.Second
		abort, err := scoring.ParseExprs([]string{"served.error > 3"})
		if err != nil {
			t.Fatal(err)
		}
		cfg.Endpoint.Transport = fakemodel.New(fakemodel.Options{Seed: cfg.Seed, LatencyScale: 1}).Transport()
		run, err := workload.Start(t.Context(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		var rec bytes.Buffer
		w, err := journal.NewWriter(&rec, journal.Header{}, run.Log(), journal.Options{})
		if err != nil {
			t.Fatal(err)
		}
		tripped := make(chan string, 1)
		go func() { tripped <- session.Guard(run, abort, session.GuardInterval) }()
		status := run.Wait()
		sum := scoring.Summarize(run.Log().Events())
		reason := <-tripped
		if status != event.StatusAborted || !strings.HasPrefix(reason, "served.error > 3 (measured 4") {
			t.Fatalf("status %s, reason %q; want aborted by served.error > 3", status, reason)
		}
		// The fourth error lands a few seconds into the outage (each busy
		// email fails after two SDK retries, about 1.4 s); the guard looks
		// every 250 ms, so arrivals stop long before the 60 s schedule ends.
		evs := run.Log().Events()
		sent := 0
		for _, e := range evs {
			if e.Kind == event.EmailSent {
				sent++
			}
		}
		t.Logf("aborted at %s: %d sent, served %+v, %s", evs[len(evs)-1].At, sent, sum.Served, reason)
		if sent > 20 || sum.Served.Error < 4 || sum.Served.Error > 10 {
			t.Errorf("sent %d, errors %d: the abort did not stop the run promptly", sent, sum.Served.Error)
		}
		if last := evs[len(evs)-1]; last.Kind != event.RunEnd || !strings.Contains(last.Detail, "aborted: served.error > 3") {
			t.Errorf("last event %+v, want the run end with the reason", last)
		}
		if err := w.Finish(sum, status); err != nil {
			t.Fatal(err)
		}
		r, err := journal.NewReader(&rec, "aborted.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for {
			_, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("reading the aborted run's journal: %v", err)
			}
			n++
		}
		if n != len(evs) || r.Status() != event.StatusAborted {
			t.Errorf("journal: %d of %d events, status %s", n, len(evs), r.Status())
		}
	})
}

// TestGuardWithoutTripLeavesTheRunAlone: conditions that never hold (and
// one on a figure not measured yet) let the run complete.
func TestGuardWithoutTripLeavesTheRunAlone(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := workload.DefaultConfig()
		cfg.Emails, cfg.Rate, cfg.Follow, cfg.Outage = 10, 5, 0, workload.OutageNone
		abort, _ := scoring.ParseExprs([]string{"served.error > 0", "p95_wait_outage_s > 1"})
		cfg.Endpoint.Transport = fakemodel.New(fakemodel.Options{Seed: cfg.Seed, LatencyScale: 1}).Transport()
		run, err := workload.Start(t.Context(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		tripped := make(chan string, 1)
		go func() { tripped <- session.Guard(run, abort, session.GuardInterval) }()
		status := run.Wait()
		if reason := <-tripped; status != event.StatusCompleted || reason != "" {
			t.Errorf("status %s, tripped %q; want completed", status, reason)
		}
	})
}
