package workload

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/inject"
)

// faultDrill is a short drill of n emails on policy with one outage window
// of kind, set from KEY=VALUE settings, over the whole drill.
func faultDrill(t *testing.T, policy string, n int, stream bool, kind string, kv ...string) Config {
	t.Helper()
	cfg := chapterConfig(t, kind, policy)
	w, err := inject.ParseFault(kind, kv)
	if err != nil {
		t.Fatal(err)
	}
	w.From, w.To = 0, 10*time.Minute
	cfg.Emails, cfg.Follow, cfg.Stream = n, 0, stream
	cfg.OutageFrom, cfg.OutageTo = w.From, w.To
	cfg.Outages = []event.Window{w}
	return cfg
}

// results returns each email's result and the run's events of kind.
func results(evs []event.Event, kind event.Kind) (map[int]*event.Result, []event.Event) {
	res := map[int]*event.Result{}
	var of []event.Event
	for _, e := range evs {
		if e.Kind == event.EmailDone {
			res[e.Email] = e.Result
		}
		if e.Kind == kind {
			of = append(of, e)
		}
	}
	return res, of
}

// TestRateLimitRetryAfterMakesFailedEmailsWait40s: rate-limit with
// retry_after 20s on primary-only: each email is tried three times, two
// server-directed waits of 20 s apart, and fails after 40 s.
func TestRateLimitRetryAfterMakesFailedEmailsWait40s(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s, _, evs := runDrill(t, faultDrill(t, "primary-only", 6, false, "rate-limit", "retry_after=20s"))
		res, faults := results(evs, event.Fault)
		if s.Served.Error != 6 {
			t.Fatalf("served %+v, want 6 errors", s.Served)
		}
		for id, r := range res {
			if r.Wait < 40*time.Second || r.Wait > 41*time.Second {
				t.Errorf("email %d waited %s, want about 40s", id, r.Wait)
			}
		}
		if len(faults) != 18 || faults[0].FaultParams["retry_after"] != "20s" || faults[0].Fault != "rate-limit" {
			t.Errorf("%d fault events (first %+v), want 18 rate-limit faults with retry_after 20s", len(faults), faults[0])
		}
		// attempt_end keeps the server's Retry-After, as drill proxy logs it,
		// so replayfault replays a drill run journal with it.
		_, ends := results(evs, event.AttemptEnd)
		for _, e := range ends {
			if e.Status == 429 && e.RetryAfter != 20*time.Second {
				t.Errorf("attempt_end %d/%d: status 429, retry_after %s, want 20s", e.Email, e.Attempt, e.RetryAfter)
			}
		}
		if len(ends) != 18 {
			t.Errorf("%d attempt_end events, want 18", len(ends))
		}
	})
}

// TestTrickleIsCutAtTheAttemptLimit: a stream trickling at 2 tokens a
// second is cut at the 5 s attempt limit (--time-limit-scope attempt):
// http.Client.Timeout covers the body, and the SDK does not retry a
// broken stream, so each email fails after 5 s, as a timeout.
func TestTrickleIsCutAtTheAttemptLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := faultDrill(t, "primary-only", 4, true, "trickle", "tokens_per_s=2")
		s, _, evs := runDrill(t, cfg)
		res, streams := results(evs, event.StreamEnd)
		if s.Served.Error != 4 {
			t.Fatalf("served %+v, want 4 errors", s.Served)
		}
		for id, r := range res {
			if r.Wait != 5*time.Second {
				t.Errorf("email %d waited %s, want the 5s attempt limit", id, r.Wait)
			}
		}
		if len(streams) != 4 {
			t.Fatalf("%d stream_end events, want 4", len(streams))
		}
		for _, e := range streams {
			if e.Outcome != event.Timeout || e.TTFT <= 0 || e.TTFT >= 5*time.Second || e.TokensPerS > 2.5 {
				t.Errorf("stream_end %+v: want a timeout after a first token, at about 2 tokens/s", e)
			}
		}
	})
}

// TestStallAfterThreeChunksFailsAtTheLimit: headers and three chunks, then
// silence: each streamed email fails at the 5 s limit.
func TestStallAfterThreeChunksFailsAtTheLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s, _, evs := runDrill(t, faultDrill(t, "primary-only", 4, true, "stall", "after_chunks=3"))
		res, _ := results(evs, event.StreamEnd)
		if s.Served.Error != 4 {
			t.Fatalf("served %+v, want 4 errors", s.Served)
		}
		for id, r := range res {
			if r.Wait != 5*time.Second {
				t.Errorf("email %d waited %s, want the 5s attempt limit", id, r.Wait)
			}
		}
	})
}

// TestStreamedDrillRecordsTTFT: a healthy streamed drill answers every
// email and records each call's time to first token and tokens a second.
func TestStreamedDrillRecordsTTFT(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := chapterConfig(t, OutageNone, "fallback")
		cfg.Emails, cfg.Follow, cfg.Stream = 20, 0, true
		s, _, evs := runDrill(t, cfg)
		_, streams := results(evs, event.StreamEnd)
		if s.Served.Primary != 20 || len(streams) != 20 {
			t.Fatalf("served %+v with %d stream_end events, want 20 from the primary", s.Served, len(streams))
		}
		for _, e := range streams {
			if e.Outcome != event.OK || e.TTFT <= 0 || e.Tokens <= 0 || e.TokensPerS <= 0 {
				t.Errorf("stream_end %+v: want ok with a first token, tokens and a rate", e)
			}
		}
	})
}

// TestMalformedIsInvalidAndFallsBack: a malformed 200 on the primary is an
// invalid answer; the fallback chain serves the email from the backup.
func TestMalformedIsInvalidAndFallsBack(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s, _, evs := runDrill(t, faultDrill(t, "fallback", 5, false, "malformed", "kind=enum"))
		if s.Served.Backup != 5 {
			t.Fatalf("served %+v, want 5 from the backup", s.Served)
		}
		for _, e := range evs {
			if e.Kind == event.RungEnd && e.Rung == event.ServedPrimary && e.Outcome != event.Invalid {
				t.Errorf("primary rung_end %+v, want invalid", e)
			}
		}
	})
}

// TestModelsBothBreaksTheBackupToo: a window on both models leaves the
// fallback chain only its canned reply.
func TestModelsBothBreaksTheBackupToo(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s, _, _ := runDrill(t, faultDrill(t, "fallback", 5, false, "busy", "models=both"))
		if s.Served.Canned != 5 {
			t.Fatalf("served %+v, want 5 canned", s.Served)
		}
	})
}
