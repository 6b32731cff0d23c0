package workload

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/scoring"
)

// TestArrivalsKeepTheirSchedule drives a whole drill in fake time with
// deliberately slow ticks: every arrival wakes up 1 to 4.9 ms late. Each
// email must still be sent within 5 ms of i / rate: a late tick sends at
// once and the next email keeps its own due time, so lateness never piles
// up (before, it did: up to 0.23 s by email 81).
func TestArrivalsKeepTheirSchedule(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := chapterConfig(t, "busy", "breaker")
		cfg.lateTick = func(i int) {
			time.Sleep(time.Millisecond + time.Duration(i%40)*100*time.Microsecond)
		}
		_, status, evs := runDrill(t, cfg)
		if status != event.StatusCompleted {
			t.Fatalf("status %s", status)
		}
		sent := 0
		for _, e := range evs {
			if e.Kind != event.EmailSent {
				continue
			}
			due := time.Duration(float64(sent) / cfg.Rate * float64(time.Second))
			if late := e.At - due; late < 0 || late > 5*time.Millisecond {
				t.Errorf("email %d sent at %s, due at %s: %s late", e.Email, e.At, due, late)
			}
			sent++
		}
		if sent != cfg.Emails {
			t.Errorf("%d emails sent, want %d", sent, cfg.Emails)
		}
	})
}

// TestPauseShiftsTheSchedule: a pause shifts every later arrival by its
// length, and nothing else.
func TestPauseShiftsTheSchedule(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := chapterConfig(t, "none", "breaker")
		cfg.Emails, cfg.Follow = 10, 1
		r, err := Start(t.Context(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(1250 * time.Millisecond) // emails 1-3 sent at 0, 0.5, 1.0 s
		r.Pause()
		time.Sleep(3 * time.Second)
		r.Resume()
		_, _, evs := finish(t, r)
		i := 0
		for _, e := range evs {
			if e.Kind != event.EmailSent {
				continue
			}
			due := time.Duration(i) * 500 * time.Millisecond
			if i >= 3 {
				due += 3 * time.Second
			}
			if e.At != due {
				t.Errorf("email %d sent at %s, want %s", e.Email, e.At, due)
			}
			i++
		}
	})
}

// TestProbesAreLogged: the engine flags the call a half-open breaker
// admitted as its probe, on its rung_start and every attempt, and the fold
// counts exactly those.
func TestProbesAreLogged(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, _, evs := runDrill(t, chapterConfig(t, "hang", "breaker"))
		state := "closed"
		probes, halfOpens := 0, 0
		for _, e := range evs {
			switch {
			case e.Kind == event.BreakerChange && e.Breaker.Name == event.ServedPrimary:
				state = e.Breaker.To
				if state == "half-open" {
					halfOpens++
				}
			case e.Kind == event.RungStart && e.Probe:
				probes++
				if e.Rung != event.ServedPrimary || state != "half-open" {
					t.Errorf("probe for email %d on %s while the breaker was %s", e.Email, e.Rung, state)
				}
			case e.Kind == event.AttemptStart && e.Rung == event.ServedPrimary && state == "half-open" && !e.Probe && e.Attempt == 0:
				t.Errorf("email %d started a first attempt through a half-open breaker without the probe flag", e.Email)
			}
		}
		if probes == 0 || probes > halfOpens {
			t.Errorf("%d probes for %d half-open periods", probes, halfOpens)
		}
		f := scoring.NewFold()
		f.AddAll(evs)
		if got := f.Breaker(event.ServedPrimary).Probes; got != probes {
			t.Errorf("fold counts %d probes, log has %d", got, probes)
		}
	})
}
