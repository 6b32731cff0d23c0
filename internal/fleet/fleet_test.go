package fleet_test

import (
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/drill-dev/drill/breaker"
	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/fleet"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

// drillConfig is a short busy drill against the in-process fake model:
// emails at rate, the primary broken from `from` to `to` on the given
// replicas (all if none), primary retries 0 and a breaker that opens after
// 3 failures in 10 s.
func drillConfig(emails int, rate float64, from, to time.Duration, latency float64, replicas ...int) workload.Config {
	cfg := workload.DefaultConfig()
	cfg.Emails, cfg.Rate, cfg.Follow = emails, rate, 0
	cfg.Outage, cfg.OutageFrom, cfg.OutageTo = "busy", from, to
	cfg.Outages = []event.Window{{FaultSpec: event.FaultSpec{Kind: "busy"}, From: from, To: to, Replicas: replicas}}
	cfg.Policy.Primary.Retries = 0
	cfg.Policy.Primary.Breaker.Trip.Failures = 3
	cfg.Endpoint.Transport = fakemodel.New(fakemodel.Options{Seed: 1, LatencyScale: latency}).Transport()
	return cfg
}

// run runs a fleet to its end and folds its log.
func run(t *testing.T, c fleet.Config) (scoring.FleetSummary, []event.Event) {
	t.Helper()
	f, err := fleet.Start(t.Context(), c)
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	if st := f.Wait(); st != event.StatusCompleted {
		t.Fatalf("fleet status %s, want completed", st)
	}
	return summarize(t, f.Log().Events())
}

// summarize folds a fleet log, checking first that it never runs
// backwards, though replicas append at once (journals require it).
func summarize(t *testing.T, evs []event.Event) (scoring.FleetSummary, []event.Event) {
	t.Helper()
	for k := 1; k < len(evs); k++ {
		if evs[k].At < evs[k-1].At {
			t.Fatalf("event %d (%s) at %s, before event %d at %s", k, evs[k].Kind, evs[k].At, k-1, evs[k-1].At)
		}
	}
	ff := scoring.NewFleetFold()
	ff.AddAll(evs)
	return ff.Summary(), evs
}

func TestRouting(t *testing.T) {
	rr := fleet.Config{Replicas: 3}.Route(7)
	if want := []int{1, 2, 3, 1, 2, 3, 1}; !slices.Equal(rr, want) {
		t.Errorf("round-robin: %v, want %v", rr, want)
	}
	c := fleet.Config{Replicas: 4, Routing: fleet.RoutingRandom}
	c.Run.Seed = 7
	a, b := c.Route(100), c.Route(100)
	if !slices.Equal(a, b) {
		t.Error("random routing with one seed differs between two calls")
	}
	seen := map[int]int{}
	for _, r := range a {
		seen[r]++
	}
	if len(seen) != 4 || slices.Equal(a, fleet.Config{Replicas: 4}.Route(100)) {
		t.Errorf("random routing over 4 replicas: %v", seen)
	}
	c.Run.Seed = 8
	if slices.Equal(a, c.Route(100)) {
		t.Error("random routing is the same for seeds 7 and 8")
	}
}

func TestValidate(t *testing.T) {
	base := workload.DefaultConfig()
	ff := workload.DefaultConfig()
	ff.Policy, _ = workload.Preset("fallback")
	bad := drillConfig(10, 10, 0, time.Second, 0, 9)
	for _, c := range []struct {
		cfg  fleet.Config
		want string
	}{
		{fleet.Config{Run: base, Replicas: 0}, "replicas must be between 1 and 64"},
		{fleet.Config{Run: base, Replicas: 2, Routing: "hash"}, "valid: round-robin, random"},
		{fleet.Config{Run: base, Replicas: 2, Store: "memcached://x"}, "valid: local, redis://"},
		{fleet.Config{Run: ff, Replicas: 2, Store: "redis://127.0.0.1:1/0"}, "needs a policy with breakers"},
		{fleet.Config{Run: bad, Replicas: 8}, "names replica 9, but the fleet has 8"},
	} {
		err := c.cfg.Validate()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Validate(%+v): %v, want an error containing %q", c.cfg.Store, err, c.want)
		}
	}
	synth := workload.DefaultConfig()
	synth.Policy.Primary.Breaker.Probe = breaker.ProbeSynthetic
	if err := (fleet.Config{Run: synth, Replicas: 2, Store: "redis://127.0.0.1:1/0"}).Validate(); err == nil ||
		!strings.Contains(err.Error(), "one customer probe") {
		t.Errorf("synthetic probe with a shared store: %v, want an error", err)
	}
	cons := workload.DefaultConfig()
	cons.Policy.Primary.Breaker.Trip.Consecutive = true
	if err := (fleet.Config{Run: cons, Replicas: 2, Store: "redis://127.0.0.1:1/0"}).Validate(); err == nil ||
		!strings.Contains(err.Error(), "only the count rule") {
		t.Errorf("consecutive rule with a shared store: %v, want an error naming the count rule", err)
	}
	// A route's breakers share the store too: one the store cannot keep
	// would never trip.
	routed := workload.DefaultConfig()
	p99 := workload.DefaultConfig().Policy
	p99.Name = "p99-breaker"
	p99.Primary.Breaker.Trip.Rules = []string{breaker.RuleP99}
	routed.Routes = []workload.Route{{Class: "safety", Policy: p99}}
	if err := (fleet.Config{Run: routed, Replicas: 2, Store: "redis://127.0.0.1:1/0"}).Validate(); err == nil ||
		!strings.Contains(err.Error(), "policy p99-breaker") {
		t.Errorf("a route's p99 breaker with a shared store: %v, want an error naming the route's policy", err)
	}
}

// One bad replica, local breakers: only replica 3 meets the fault and
// only its breaker opens; the others stay on the primary throughout.
func TestOneBadReplicaLocal(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s, evs := run(t, fleet.Config{Run: drillConfig(40, 4, 2*time.Second, 8*time.Second, 1, 3), Replicas: 4})
		if s.Replicas != 4 || s.BreakerStore != "local" || s.Routing != "round-robin" || len(s.PerReplica) != 4 {
			t.Fatalf("fleet %d replicas, store %s, routing %s, %d rows", s.Replicas, s.BreakerStore, s.Routing, len(s.PerReplica))
		}
		total := 0
		for _, r := range s.PerReplica {
			total += r.EmailsSent
			if r.EmailsSent != 10 {
				t.Errorf("replica %d sent %d emails, want 10 (round-robin)", r.Replica, r.EmailsSent)
			}
			if r.Replica == 3 {
				if r.CallsToBrokenOutage == 0 || r.BreakerOpens == 0 || r.Served.Backup == 0 {
					t.Errorf("replica 3 (broken): %+v, want broken calls, an open and backups", r)
				}
				continue
			}
			if r.CallsToBrokenOutage != 0 || r.BreakerOpens != 0 || r.Served.Primary != 10 {
				t.Errorf("healthy replica %d: %d broken calls, %d opens, served %+v; want 0, 0, all 10 by the primary",
					r.Replica, r.CallsToBrokenOutage, r.BreakerOpens, r.Served)
			}
		}
		if total != 40 || s.Fleet.EmailsAnswered != 40 || s.Fleet.Served.Error != 0 {
			t.Errorf("fleet: %d sent, %d answered, %d errors; want 40, 40, 0", total, s.Fleet.EmailsAnswered, s.Fleet.Served.Error)
		}
		if evs[0].Kind != event.RunStart || evs[len(evs)-1].Kind != event.RunEnd {
			t.Errorf("the fleet log runs from %s to %s, want run_start … run_end", evs[0].Kind, evs[len(evs)-1].Kind)
		}
		starts := 0
		for _, e := range evs {
			if e.Kind == event.RunStart || e.Kind == event.RunEnd || e.Kind == event.OutageStart {
				starts++
			}
			if e.Kind == event.EmailSent && e.Replica == 0 {
				t.Fatalf("email %d has no replica", e.Email)
			}
		}
		if starts != 3 {
			t.Errorf("%d run_start, run_end and outage_start events, want one of each", starts)
		}
	})
}

// Stop ends every replica at once; no goroutine outlives the fleet (the
// bubble checks).
func TestStop(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := drillConfig(40, 2, 0, 30*time.Second, 1)
		cfg.Outage, cfg.Outages = "hang", []event.Window{{FaultSpec: event.FaultSpec{Kind: "hang"}, From: 0, To: 30 * time.Second}}
		f, err := fleet.Start(t.Context(), fleet.Config{Run: cfg, Replicas: 3})
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(3 * time.Second)
		f.Stop()
		if st := f.Wait(); st != event.StatusInterrupted {
			t.Errorf("status after Stop: %s, want interrupted", st)
		}
	})
}
