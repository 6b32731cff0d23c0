package main

import (
	"bufio"
	"errors"
	"io"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/journal"
)

// signalled is how a child drill ended after a signal: its exit code and
// stderr, and how long after the signal it exited.
type signalled struct {
	code   int
	stderr string
	after  time.Duration
}

// interruptDrill runs drill's main (runDrillMain) with args, waits until
// its stderr has a line holding ready (the signal handler is set by
// then), waits delay more, sends sig and waits for the exit. A child still
// running bound after the signal is killed and fails the test.
func interruptDrill(t *testing.T, ready string, delay time.Duration, sig syscall.Signal, bound time.Duration, args ...string) signalled {
	t.Helper()
	cmd := runDrillMain(t, args...)
	pr, pw := io.Pipe()
	cmd.Stderr = pw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var (
		mu     sync.Mutex
		stderr strings.Builder
		wg     sync.WaitGroup
	)
	seen := make(chan struct{})
	wg.Go(func() {
		sc := bufio.NewScanner(pr)
		once := sync.OnceFunc(func() { close(seen) })
		for sc.Scan() {
			mu.Lock()
			stderr.WriteString(sc.Text() + "\n")
			mu.Unlock()
			if strings.Contains(sc.Text(), ready) {
				once()
			}
		}
		_, _ = io.Copy(io.Discard, pr)
	})
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait(); pw.Close() }()
	defer wg.Wait()

	select {
	case <-seen:
	case err := <-exited:
		wg.Wait()
		t.Fatalf("%v exited (%v) before it said %q: %s", args, err, ready, stderr.String())
	case <-time.After(bound):
		_ = cmd.Process.Kill()
		<-exited
		t.Fatalf("%v did not say %q within %v", args, ready, bound)
	}
	time.Sleep(delay)
	_ = cmd.Process.Signal(sig)
	sent := time.Now()
	var err error
	select {
	case err = <-exited:
	case <-time.After(bound):
		_ = cmd.Process.Kill()
		<-exited
		wg.Wait()
		t.Fatalf("%v still running %v after %v: %s", args, bound, sig, stderr.String())
	}
	after := time.Since(sent)
	wg.Wait()
	code := 0
	if ee, ok := errors.AsType[*exec.ExitError](err); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	return signalled{code: code, stderr: stderr.String(), after: after}
}

// TestVirtualRunInterrupted: SIGINT on a virtual-clock run, at varied moments
// (while its baseline plays first, or the drill itself: half the tries
// have none), exits 130 and
// leaves an interrupted journal, 20 times of 20. Before, a Ctrl-C while the
// baseline played made the drill's own child refuse to start ("vclock:
// starting the virtual-clock process: context canceled"): exit 1 and no
// journal.
func TestVirtualRunInterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	dir := t.TempDir()
	for i := range 20 {
		delay := time.Duration(i/2) * 90 * time.Millisecond
		path := filepath.Join(dir, "r"+strconv.Itoa(i)+".jsonl")
		args := []string{"run", "--clock", "virtual", "--no-tui", "--emails", "20000", "--rate", "1000", "--record", path}
		if i%2 == 1 {
			args = append(args, "--baseline", "none") // the signal lands on the drill's own child
		}
		got := interruptDrill(t, "drill: warning: 20000 emails", delay, syscall.SIGINT, 60*time.Second, args...)
		if got.code != 130 || !strings.Contains(got.stderr, "drill: interrupted") {
			t.Errorf("try %d (SIGINT %v after the start): exit %d, want 130; stderr:\n%s", i, delay, got.code, got.stderr)
			continue
		}
		j, err := journal.ReadFile(path)
		if err != nil {
			t.Errorf("try %d: the journal is unreadable: %v", i, err)
			continue
		}
		if j.CutShort() || j.Summary == nil || j.Summary.Status != event.StatusInterrupted {
			t.Errorf("try %d: journal cut short %v, summary %+v; want a whole journal of an interrupted run", i, j.CutShort(), j.Summary)
		}
		t.Logf("try %d: SIGINT %v after the start, exit 130 %v after it", i, delay, got.after.Round(time.Millisecond))
	}
}
