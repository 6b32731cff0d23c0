package fleet

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/fleet/redisstore/redistest"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

// joinEnv makes the test binary a coordinated fleet's worker (TestMain):
// URL|FLEET|NAME|LATENCY-SCALE.
const joinEnv = "DRILL_FLEET_TEST_JOIN"

// joinMain is the body of a worker process started by startWorker.
func joinMain(spec string) int {
	p := strings.Split(spec, "|")
	scale, _ := strconv.ParseFloat(p[3], 64)
	err := Join(context.Background(), JoinOptions{URL: p[0], Fleet: p[1], Name: p[2], Timeout: 20 * time.Second,
		Wire: func(c *workload.Config) {
			c.Endpoint.Transport = fakemodel.New(fakemodel.Options{Seed: c.Seed, LatencyScale: scale}).Transport()
		}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// startWorker starts the test binary as a worker of fleet on url, joined
// only through Redis; it is killed, if still running, when the test ends.
func startWorker(t *testing.T, url, fleet, name string, latency float64) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s|%s|%s|%g", joinEnv, url, fleet, name, latency))
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
	})
	return cmd
}

// figuresDrill is 20 emails at 5/s with a busy outage from 1.1 s to 2.1 s
// on the fallback policy (no breaker): which replica serves an email does
// not change how it is served, so any split of the emails gives the same
// figures. The window's edges sit 100 ms from any email's due time.
func figuresDrill(t *testing.T) workload.Config {
	cfg := workload.DefaultConfig()
	p, err := workload.Preset("fallback")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Policy = p
	cfg.Emails, cfg.Rate, cfg.Follow = 20, 5, 0
	cfg.Outage, cfg.OutageFrom, cfg.OutageTo = "busy", 1100*time.Millisecond, 2100*time.Millisecond
	cfg.Outages = nil
	cfg.Policy.Primary.Retries = 0
	return cfg
}

// figures are the parts of a fleet summary that do not depend on timing.
func figures(s scoring.FleetSummary) string {
	f := s.Fleet
	return fmt.Sprintf("sent %d, answered %d, served %+v, calls to the broken model %d, all four right %.4f",
		f.EmailsSent, f.EmailsAnswered, f.Served, f.CallsToBrokenOutage, f.All4Right)
}

// Workers started as separate processes, joined only through Redis, give
// the same figures as --processes on the same seed.
func TestCoordinatedSameFiguresAsProcesses(t *testing.T) {
	srv := redistest.Start(t)
	cfg := figuresDrill(t)
	piped := finishFleet(t, Config{Run: cfg, Replicas: 2, Worker: []string{os.Args[0]}, WorkerEnv: []string{workerEnv}})

	startWorker(t, srv.URL(), "same", "w1", 0.05)
	startWorker(t, srv.URL(), "same", "w2", 0.05)
	coord := finishFleet(t, Config{Run: cfg, Replicas: 2, Coordinate: srv.URL(), Name: "same", JoinTimeout: 20 * time.Second})
	if got, want := figures(coord), figures(piped); got != want {
		t.Errorf("coordinated: %s\nprocesses:   %s", got, want)
	}
	if coord.Routing != RoutingQueue || len(coord.PerReplica) != 2 {
		t.Errorf("routing %q, %d replicas; want queue, 2", coord.Routing, len(coord.PerReplica))
	}
	for _, r := range coord.PerReplica {
		if r.EmailsSent == 0 {
			t.Errorf("replica %d sent nothing: the work was not shared", r.Replica)
		}
	}
	t.Logf("both: %s", figures(coord))
}

// finishFleet runs a fleet to its end, checks it completed, and folds it.
func finishFleet(t *testing.T, c Config) scoring.FleetSummary {
	t.Helper()
	f, err := Start(t.Context(), c)
	if err != nil {
		t.Fatal(err)
	}
	if st := f.Wait(); st != event.StatusCompleted {
		t.Fatalf("status %s, want completed", st)
	}
	ff := scoring.NewFleetFold()
	ff.AddAll(f.Log().Events())
	return ff.Summary()
}

// A worker killed (kill -9) in the middle of the run: the other takes over
// the emails it held once they are idle for the claim time, and every
// email is answered exactly once.
func TestCoordinatedWorkerKilled(t *testing.T) {
	srv := redistest.Start(t)
	cfg := figuresDrill(t)
	cfg.Outage = workload.OutageNone
	victim := startWorker(t, srv.URL(), "kill", "victim", 1)
	startWorker(t, srv.URL(), "kill", "survivor", 1)
	// A fleet whose victim's emails are never taken over would wait for
	// them forever: stop it after 60 s (the test then fails).
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	f, err := Start(ctx, Config{Run: cfg, Replicas: 2, Coordinate: srv.URL(), Name: "kill",
		JoinTimeout: 20 * time.Second, ClaimAfter: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	// Kill the victim once it has sent two emails and has one in flight.
	c := f.Log().Cursor()
	victimSent, inFlight := map[int]bool{}, map[int]bool{}
	for len(victimSent) < 2 || len(inFlight) == 0 {
		evs, err := c.Next(t.Context())
		if err != nil {
			t.Fatal("the run ended before the victim had emails in flight")
		}
		for _, e := range evs {
			if e.Replica == 0 || f.coord.names[e.Replica-1] != "victim" {
				continue
			}
			switch e.Kind {
			case event.EmailSent:
				victimSent[e.Email], inFlight[e.Email] = true, true
			case event.EmailDone:
				delete(inFlight, e.Email)
			}
		}
	}
	if err := victim.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if st := f.Wait(); st != event.StatusCompleted {
		t.Fatalf("status %s, want completed (the survivor finished the victim's emails)", st)
	}
	evs := f.Log().Events()
	done := map[int]int{}
	reclaimed := 0
	for _, e := range evs {
		switch e.Kind {
		case event.EmailDone:
			done[e.Email]++
		case event.Reclaimed:
			reclaimed += len(e.Reclaim.Emails)
			if e.Reclaim.From != "victim" || e.Reclaim.By != "survivor" {
				t.Errorf("reclaimed from %q by %q, want victim by survivor", e.Reclaim.From, e.Reclaim.By)
			}
		}
	}
	if len(done) != cfg.Emails {
		t.Errorf("%d emails done, want %d", len(done), cfg.Emails)
	}
	for id, n := range done {
		if n != 1 {
			t.Errorf("email %d answered %d times, want once", id, n)
		}
	}
	ff := scoring.NewFleetFold()
	ff.AddAll(evs)
	s := ff.Summary()
	if reclaimed == 0 || s.Reclaimed != reclaimed || s.Fleet.EmailsAnswered != cfg.Emails || s.Fleet.Served.Cancelled != 0 {
		t.Errorf("reclaimed %d (summary %d), answered %d, cancelled %d; want some reclaimed, every email answered",
			reclaimed, s.Reclaimed, s.Fleet.EmailsAnswered, s.Fleet.Served.Cancelled)
	}
	t.Logf("victim sent %d before the kill; %d reclaimed; %s", len(victimSent), reclaimed, figures(s))
}
