package fleet

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/workload"
)

// workerEnv makes the test binary a fleet worker (TestMain).
const workerEnv = "DRILL_FLEET_TEST_WORKER=1"

// TestMain runs the test binary as a fleet worker when the parent asks:
// a pipe worker, or a coordinated fleet's worker (joinEnv).
func TestMain(m *testing.M) {
	if j := os.Getenv(joinEnv); j != "" {
		os.Exit(joinMain(j))
	}
	if os.Getenv("DRILL_FLEET_TEST_WORKER") == "1" {
		err := Work(context.Background(), os.Stdin, os.Stdout, func(c *workload.Config) {
			c.Endpoint.Transport = fakemodel.New(fakemodel.Options{Seed: c.Seed, LatencyScale: 0.05}).Transport()
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// quickDrill is 30 emails at 20/s with a busy outage on replica 2.
func quickDrill() workload.Config {
	cfg := workload.DefaultConfig()
	cfg.Emails, cfg.Rate, cfg.Follow = 30, 20, 0
	cfg.OutageFrom, cfg.OutageTo = 0, 2*time.Second
	cfg.Policy.Primary.Retries = 0
	cfg.Policy.Primary.Breaker.Trip.Failures = 3
	cfg.Outages = nil
	return cfg
}

// Each replica its own process: the parent gathers every worker's events
// into one log, and the fleet ends only when every worker has exited.
func TestProcesses(t *testing.T) {
	cfg := quickDrill()
	f, err := Start(t.Context(), Config{Run: cfg, Replicas: 3, Worker: []string{os.Args[0]}, WorkerEnv: []string{workerEnv}})
	if err != nil {
		t.Fatal(err)
	}
	if st := f.Wait(); st != event.StatusCompleted {
		t.Fatalf("status %s, want completed", st)
	}
	sent, done := map[int]int{}, 0
	for _, e := range f.Log().Events() {
		switch e.Kind {
		case event.EmailSent:
			sent[e.Replica]++
		case event.EmailDone:
			done++
		}
	}
	if sent[1] != 10 || sent[2] != 10 || sent[3] != 10 || done != 30 {
		t.Errorf("sent per replica %v, done %d; want 10 each, 30", sent, done)
	}
	for k, r := range f.runs {
		if p := r.(*processReplica); p.cmd.ProcessState == nil || !p.cmd.ProcessState.Exited() {
			t.Errorf("worker %d is still running after the fleet ended", k+1)
		}
	}
}

// A worker whose stdin closes (its parent stopped it or died) stops its
// drill and exits, even in the middle of a long hang.
func TestWorkerExitsWhenThePipeCloses(t *testing.T) {
	cfg := quickDrill()
	cfg.Outage, cfg.OutageTo = "hang", 60*time.Second
	spec, err := json.Marshal(workerSpec{Config: cfg, Replica: 1, Route: Config{Replicas: 1}.Route(30), Store: StoreLocal})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), workerEnv)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if _, err := stdin.Write(append(spec, '\n')); err != nil {
		t.Fatal(err)
	}
	// The worker's first event says its drill is under way: close its stdin
	// then, and keep reading what it writes so it never blocks on the pipe.
	started := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		started <- sc.Scan()
		_, _ = io.Copy(io.Discard, stdout)
	}()
	select {
	case ok := <-started:
		if !ok {
			t.Fatal("the worker wrote no event before closing its output")
		}
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("the worker wrote no event within 10 s")
	}
	stdin.Close()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("worker exit: %v", err)
		}
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("the worker did not exit within 10 s of its stdin closing")
	}
}
