package workload

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/drill-dev/drill/breaker"
	"github.com/drill-dev/drill/event"
)

// hangAtTen is a hang at 10 emails a second with a pool of 20 workers:
// 40 s of arrivals, the hang from 15 s to 40 s.
func hangAtTen(t *testing.T, policy string, pool int) Config {
	cfg := chapterConfig(t, "hang", policy)
	cfg.Rate, cfg.Emails, cfg.MaxInFlight = 10, 400, pool
	return cfg
}

// TestWorkerPoolRejectsDuringAHang: without a breaker a hang holds every
// worker (10 a second × 16 s per email is 160 wanted, 20 there), so
// emails are rejected during the hang and none before it; with no pool
// none are; and a breaker that trips on a call 1 s in flight frees the
// workers before they run out, so none are either.
func TestWorkerPoolRejectsDuringAHang(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s, _, evs := runDrill(t, hangAtTen(t, "fallback", 20))
		if s.Served.Rejected == 0 || s.InFlight.RejectedOutage == 0 {
			t.Fatalf("served %+v, rejected in the outage %d: want rejections during the hang", s.Served, s.InFlight.RejectedOutage)
		}
		sent := map[int]time.Duration{}
		turnedAway := map[int]bool{} // email_sent said the pool had no worker
		for _, e := range evs {
			switch {
			case e.Kind == event.EmailSent:
				sent[e.Email] = e.At
				turnedAway[e.Email] = e.Rejected
			case e.Kind == event.EmailDone && e.Result.ServedBy == event.ServedRejected:
				if !turnedAway[e.Email] {
					t.Errorf("email %d rejected, but its email_sent does not say so", e.Email)
				}
				if sent[e.Email] < 15*time.Second {
					t.Errorf("email %d rejected, sent at %s: before the hang the pool has room", e.Email, sent[e.Email])
				}
				if e.Result.Wait != 0 {
					t.Errorf("email %d rejected after %s: rejection is at once", e.Email, e.Result.Wait)
				}
			}
		}
		if s.Served.Total() != s.Emails {
			t.Errorf("served %+v adds up to %d, want all %d emails", s.Served, s.Served.Total(), s.Emails)
		}
		// Rejected emails are counted apart: never answered, never in flight.
		if s.Rejected != s.Served.Rejected || s.EmailsAnswered+s.Rejected != s.EmailsSent || s.InFlight.PeakEmails > s.MaxInFlight {
			t.Errorf("answered %d + rejected %d, sent %d; peak in flight %d of %d workers: want answered + rejected = sent, the peak within the pool",
				s.EmailsAnswered, s.Rejected, s.EmailsSent, s.InFlight.PeakEmails, s.MaxInFlight)
		}
	})
	synctest.Test(t, func(t *testing.T) {
		if s, _, _ := runDrill(t, hangAtTen(t, "fallback", 0)); s.Served.Rejected != 0 || s.MaxInFlight != 0 || s.InFlight != nil {
			t.Errorf("no pool: %d rejected, max_in_flight %d, in_flight %v; want none, 0 and no in_flight", s.Served.Rejected, s.MaxInFlight, s.InFlight)
		}
	})
	synctest.Test(t, func(t *testing.T) {
		cfg := hangAtTen(t, "breaker", 20)
		cfg.Policy.Primary.Breaker = &breaker.Settings{Trip: breaker.Trip{Rules: []string{breaker.RuleCount, breaker.RuleInFlight}, InFlightAge: time.Second}}
		if s, _, _ := runDrill(t, cfg); s.Served.Rejected != 0 || s.MaxInFlight != 20 {
			t.Errorf("in-flight breaker at 1 s: %d rejected (max_in_flight %d), want none", s.Served.Rejected, s.MaxInFlight)
		}
	})
}

// TestMaxInFlightIsChecked: a negative pool is refused.
func TestMaxInFlightIsChecked(t *testing.T) {
	cfg := DefaultConfig()
	cfg.MaxInFlight = -1
	if cfg.Validate() == nil {
		t.Error("max in flight -1 accepted")
	}
}
