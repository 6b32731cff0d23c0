package workload

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/drill-dev/drill/breaker"
	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/fakemodel"
	"github.com/drill-dev/drill/scoring"
)

// firstOpen is when the primary's breaker first opened, from the run's start.
func firstOpen(evs []event.Event) (time.Duration, bool) {
	for _, e := range evs {
		if e.Kind == event.BreakerChange && e.Breaker.To == "open" {
			return e.At, true
		}
	}
	return 0, false
}

// TestInFlightAgeOpensWithinFiveSeconds: with the default 5 s limit and 2
// retries kept, the in-flight rule (age 4 s) opens the breaker within 5 s
// of a hang starting, where the count rule alone waits about 18 s.
func TestInFlightAgeOpensWithinFiveSeconds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := chapterConfig(t, "hang", "breaker")
		b := cfg.Policy.Primary.Breaker
		b.Trip.Rules = []string{breaker.RuleCount, breaker.RuleInFlight}
		b.Trip.InFlightAge = 4 * time.Second
		if cfg.Policy.Primary.TimeLimit != 5*time.Second || cfg.Policy.Primary.Retries != 2 {
			t.Fatal("the breaker preset no longer has the 5 s limit and 2 retries")
		}
		s, _, evs := runDrill(t, cfg)
		at, ok := firstOpen(evs)
		if !ok {
			t.Fatal("the breaker never opened")
		}
		after := at - cfg.OutageFrom
		t.Logf("opened %.2f s into the hang; %s", after.Seconds(), summaryLine(s))
		if after <= 0 || after > 5*time.Second {
			t.Fatalf("opened %.2f s after the hang started, want within 5 s", after.Seconds())
		}
		for _, e := range evs {
			if e.Kind == event.BreakerChange && e.Breaker.To == "open" {
				if !strings.HasPrefix(e.Breaker.Reason, "in-flight age 4s") {
					t.Fatalf("first open's reason %q, want the in-flight rule", e.Breaker.Reason)
				}
				break
			}
		}
	})
}

// TestSyntheticProbesNeverSendCustomerEmails: with probe: synthetic, no
// customer email reaches the primary while its breaker is open or
// half-open; the breaker's own health calls (email 0, marked synthetic) do,
// and one of them closes it after the outage.
func TestSyntheticProbesNeverSendCustomerEmails(t *testing.T) {
	for _, outage := range []string{"busy", "hang"} {
		t.Run(outage, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				cfg := chapterConfig(t, outage, "breaker")
				cfg.Policy.Primary.Breaker.Probe = ProbeSynthetic
				cfg.Policy.Primary.Breaker.ProbeInterval = 2 * time.Second
				cfg.Policy.Primary.Breaker.ProbeTimeout = 5 * time.Second
				s, _, evs := runDrill(t, cfg)
				state, synth, opens := "closed", 0, 0
				for _, e := range evs {
					switch {
					case e.Kind == event.BreakerChange:
						state = e.Breaker.To
						if state == "open" {
							opens++
						}
					case e.Kind == event.AttemptStart && e.Rung == event.ServedPrimary && e.Synthetic:
						synth++
						if e.Email != 0 {
							t.Fatalf("a synthetic attempt carries email %d", e.Email)
						}
					case e.Kind == event.RungStart && e.Rung == event.ServedPrimary && state != "closed":
						// (SDK retries of calls let through while closed may still run.)
						t.Fatalf("email %d was sent to the primary at %.2f s while its breaker was %s",
							e.Email, e.At.Seconds(), state)
					}
				}
				t.Logf("%d synthetic attempts, %d opens; %s", synth, opens, summaryLine(s))
				if opens == 0 || synth == 0 || state != "closed" || s.PrimaryBackS == nil {
					t.Fatalf("opens %d, synthetic attempts %d, final state %s, primary back %v: want the breaker to open, probe and close",
						opens, synth, state, s.PrimaryBackS)
				}
			})
		})
	}
}

// slowPrimary delays every request for the primary's model by delay while
// the run is between from and to: a slow outage, where the model answers,
// late.
type slowPrimary struct {
	next            http.RoundTripper
	start           time.Time
	from, to, delay time.Duration
	model           string
}

func (s *slowPrimary) RoundTrip(req *http.Request) (*http.Response, error) {
	if at := time.Since(s.start); at >= s.from && at < s.to && modelOf(req) == s.model {
		select {
		case <-time.After(s.delay):
		case <-req.Context().Done():
			return nil, req.Context().Err()
		}
	}
	return s.next.RoundTrip(req)
}

// modelOf reads the model a chat completion request asks for.
func modelOf(req *http.Request) string {
	body, err := req.GetBody()
	if err != nil {
		return ""
	}
	defer body.Close()
	var r struct {
		Model string `json:"model"`
	}
	if json.NewDecoder(body).Decode(&r) != nil {
		return ""
	}
	return r.Model
}

// TestHedgingLowersSlowOutageWaits: the primary answers 4 s late from 15 s
// to 40 s. Hedging after 2 s lowers the p95 wait of emails sent then, and
// the summary counts the hedged calls.
func TestHedgingLowersSlowOutageWaits(t *testing.T) {
	p95 := func(hedge time.Duration) (float64, scoring.Summary) {
		var p float64
		var sum scoring.Summary
		synctest.Test(t, func(t *testing.T) {
			cfg := chapterConfig(t, "none", "fallback")
			cfg.Policy.HedgeAfter = hedge
			cfg.Endpoint.Transport = &slowPrimary{next: fakemodel.New(fakemodel.Options{Seed: cfg.Seed, LatencyScale: 1}).Transport(),
				start: time.Now(), from: 15 * time.Second, to: 40 * time.Second, delay: 4 * time.Second, model: cfg.PrimaryModel}
			s, _, evs := runDrill(t, cfg)
			sent := map[int]time.Duration{}
			var waits []float64
			for _, e := range evs {
				switch e.Kind {
				case event.EmailSent:
					sent[e.Email] = e.At
				case event.EmailDone:
					if at := sent[e.Email]; at >= 15*time.Second && at < 40*time.Second {
						waits = append(waits, e.Result.Wait.Seconds())
					}
				}
			}
			slices.Sort(waits)
			p, sum = waits[(95*len(waits)+99)/100-1], s
		})
		return p, sum
	}
	plain, s0 := p95(0)
	hedged, s1 := p95(2 * time.Second)
	t.Logf("p95 wait of the slow outage: %.2f s without hedging, %.2f s hedging after 2 s (%d hedged calls); served %+v vs %+v",
		plain, hedged, s1.HedgedCalls, s0.Served, s1.Served)
	if hedged >= plain {
		t.Fatalf("hedging did not lower the p95 wait: %.2f s vs %.2f s", hedged, plain)
	}
	if s0.HedgedCalls != 0 || s1.HedgedCalls < 40 {
		t.Fatalf("hedged calls %d without hedging and %d with, want 0 and about one per slow email", s0.HedgedCalls, s1.HedgedCalls)
	}
}

// TestInFlightOnTheHangRows measures what the in-flight rule (age 4 s)
// does to the chapter's two hang rows with a breaker: it opens within 5 s
// of the hang either way, so the plain breaker stops making emails wait
// 16 s long before its count rule would have opened.
func TestInFlightOnTheHangRows(t *testing.T) {
	for _, policy := range []string{"breaker", "fail-fast"} {
		t.Run(policy, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				cfg := chapterConfig(t, "hang", policy)
				cfg.Policy.Primary.Breaker.Trip.Rules = []string{breaker.RuleCount, breaker.RuleInFlight}
				cfg.Policy.Primary.Breaker.Trip.InFlightAge = 4 * time.Second
				s, _, _ := runDrill(t, cfg)
				t.Logf("hang/%s with in-flight age 4s: %s", policy, summaryLine(s))
				if s.BreakerFirstOpenS == nil || *s.BreakerFirstOpenS > 5 {
					t.Fatalf("first open %v, want within 5 s", s.BreakerFirstOpenS)
				}
			})
		})
	}
}
