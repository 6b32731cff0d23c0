package workload

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/scoring"
)

// TestHedgingOnASlowOutage: the injector's slow fault (answers 3 s late,
// 15–40 s) on the fallback policy. Hedging after 2 s lowers the p95 wait
// of the emails sent during the outage, and the summary counts the hedged
// calls.
func TestHedgingOnASlowOutage(t *testing.T) {
	run := func(hedge time.Duration) scoring.Summary {
		var s scoring.Summary
		synctest.Test(t, func(t *testing.T) {
			cfg := chapterConfig(t, "slow", "fallback")
			cfg.Outages = []event.Window{{FaultSpec: event.FaultSpec{Kind: "slow", Params: map[string]string{"delay": "3s"}}, From: cfg.OutageFrom, To: cfg.OutageTo}}
			cfg.Policy.HedgeAfter = hedge
			s, _, _ = runDrill(t, cfg)
		})
		return s
	}
	plain, hedged := run(0), run(2*time.Second)
	t.Logf("slow outage p95 wait: %.2f s plain, %.2f s hedging after 2 s (%d hedged calls); median %.2f vs %.2f",
		deref(plain.P95WaitOutageS), deref(hedged.P95WaitOutageS), hedged.HedgedCalls,
		deref(plain.MedianWaitOutageS), deref(hedged.MedianWaitOutageS))
	if plain.P95WaitOutageS == nil || hedged.P95WaitOutageS == nil || *hedged.P95WaitOutageS >= *plain.P95WaitOutageS {
		t.Fatalf("hedging did not lower the slow outage's p95 wait: %v vs %v", hedged.P95WaitOutageS, plain.P95WaitOutageS)
	}
	if plain.HedgedCalls != 0 || hedged.HedgedCalls < 40 {
		t.Fatalf("hedged calls %d plain and %d hedging, want 0 and about one per email of the outage", plain.HedgedCalls, hedged.HedgedCalls)
	}
}

// TestStreamFloorFeedsTheBreaker is seed 000's "mostly slow" run: the
// primary's streams trickle at 2 tokens a second from 15 s to 40 s. A
// status-only breaker never opens (every answer is a 200); with a 15
// tokens-a-second floor checked at 3 s and count_slow_stream, the cut
// streams open it.
func TestStreamFloorFeedsTheBreaker(t *testing.T) {
	run := func(floor bool) (scoring.Summary, int) {
		var s scoring.Summary
		cut := 0
		synctest.Test(t, func(t *testing.T) {
			cfg := chapterConfig(t, "trickle", "breaker")
			cfg.Stream = true
			cfg.Policy.Primary.TimeLimit = 0 // no limit covers the body: only the floor can cut it
			if floor {
				cfg.Policy.Primary.MinTokensPerS = 15
				cfg.Policy.Primary.Check = 3 * time.Second
				cfg.Policy.Primary.Breaker.CountSlowStream = true
			}
			var evs []event.Event
			s, _, evs = runDrill(t, cfg)
			for _, e := range evs {
				if e.Kind == event.RungEnd && e.Outcome == event.SlowStream {
					cut++
				}
			}
		})
		return s, cut
	}
	plain, _ := run(false)
	floored, cut := run(true)
	t.Logf("trickle: status breaker first open %v, p95 %.1f s; with the floor: first open %.2f s, %d streams cut, p95 %.1f s",
		plain.BreakerFirstOpenS, deref(plain.P95WaitOutageS), deref(floored.BreakerFirstOpenS), cut, deref(floored.P95WaitOutageS))
	if plain.BreakerFirstOpenS != nil {
		t.Fatalf("a status-only breaker opened on 200s: %v", *plain.BreakerFirstOpenS)
	}
	if floored.BreakerFirstOpenS == nil || cut < 5 {
		t.Fatalf("with the floor: first open %v after %d cut streams, want it to open", floored.BreakerFirstOpenS, cut)
	}
}
