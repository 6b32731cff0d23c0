package workload

import (
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/drill-dev/drill/breaker"
	"github.com/drill-dev/drill/event"
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
				cfg.Policy.Primary.Breaker.Probe = breaker.ProbeSynthetic
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

// TestEndpointScopeSharesOneBreaker: with scope endpoint, rungs on the same
// base URL and model share one breaker (seed 001's per-dependency breaker):
// when the primary's calls open it, the backup, calling the same model
// with no breaker policy of its own, is skipped too. With scope rung each
// rung has its own and the backup's stays closed.
func TestEndpointScopeSharesOneBreaker(t *testing.T) {
	for _, scope := range []breaker.Scope{breaker.ScopeRung, breaker.ScopeEndpoint} {
		t.Run(string(scope), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				cfg := chapterConfig(t, "busy", "breaker")
				cfg.BackupModel = cfg.PrimaryModel
				cfg.Policy.Primary.Breaker.Scope = scope
				if scope == breaker.ScopeRung {
					cfg.Policy.Backup.Breaker = &breaker.Settings{} // its own, for a healthy model
				}
				s, _, evs := runDrill(t, cfg)
				names := map[string]bool{}
				backupSkips := 0
				for _, e := range evs {
					switch {
					case e.Kind == event.BreakerChange:
						names[e.Breaker.Name] = true
					case e.Kind == event.RungSkipped && e.Rung == event.ServedBackup:
						backupSkips++
					}
				}
				t.Logf("scope %s: breakers %v, backup skipped %d times; served %+v", scope, names, backupSkips, s.Served)
				if scope == breaker.ScopeEndpoint {
					if len(names) != 1 || !names[event.ServedPrimary] || backupSkips == 0 || s.Served.Canned == 0 || s.BreakerFirstOpenS == nil {
						t.Fatalf("one shared breaker, the primary's, should skip the backup too: breakers %v, %d skips, %d canned, first open %v",
							names, backupSkips, s.Served.Canned, s.BreakerFirstOpenS)
					}
					return
				}
				if names[event.ServedBackup] || backupSkips != 0 || s.Served.Canned != 0 {
					t.Fatalf("per-rung breakers: the healthy backup's breaker changed (%v) or it was skipped %d times", names, backupSkips)
				}
			})
		})
	}
}
