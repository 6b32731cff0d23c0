//go:build unix

package main

import (
	"context"
	"errors"
	"io"
	"net/http"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/session"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

// liveFold follows run's log with a cursor, as the dashboard and the
// progress line do, and returns the fold once the log is closed.
func liveFold(ctx context.Context, run *workload.Run) <-chan *scoring.Fold {
	out := make(chan *scoring.Fold, 1)
	go func() {
		fold := scoring.NewFold()
		cur := run.Log().Cursor()
		for {
			evs, err := cur.Next(ctx)
			if err != nil {
				if !errors.Is(err, io.EOF) {
					fold = nil
				}
				out <- fold
				return
			}
			fold.AddAll(evs)
		}
	}()
	return out
}

// BenchmarkScaleThroughput is the engine's throughput with everything a
// recorded drill attaches: the event log, the journal being written and a
// live fold following the log. Each iteration is one drill of 2,000 emails
// released at once (rate 10,000/s) against the zero-latency fake model; the
// summary goes to the journal from the live fold. A short drill before
// the measured ones loads what a process loads once.
//
// Beside wall-clock emails/s it reports the process's CPU time per email
// (user + system, from getrusage) and what that CPU time would give on two
// idle cores (2 s of CPU a second): on a shared machine the wall-clock
// figure measures the neighbours as much as drill.
func BenchmarkScaleThroughput(b *testing.B) {
	const perRun = 2000
	model := fakemodel.New(fakemodel.Options{NoLatency: true}).Transport()
	dir := b.TempDir()
	// One short drill first: what a process loads once (the fake model's
	// token encoding, about 0.2 s of CPU) is not a cost of each email.
	scaleDrill(b, model, dir, 100)
	cpu0 := cpuTime(b)
	start := time.Now()
	n := 0
	for b.Loop() {
		scaleDrill(b, model, dir, perRun)
		n += perRun
	}
	wall, cpu := time.Since(start), cpuTime(b)-cpu0
	b.ReportMetric(float64(n)/wall.Seconds(), "emails/s")
	b.ReportMetric(float64(cpu.Microseconds())/float64(n), "cpu-µs/email")
	b.ReportMetric(2*float64(n)/cpu.Seconds(), "emails/s-on-2-idle-cores")
}

// scaleDrill runs one drill of emails released at once against model,
// recorded in dir with a live fold attached, and checks every email was
// served.
func scaleDrill(b *testing.B, model http.RoundTripper, dir string, emails int) {
	b.Helper()
	cfg := workload.DefaultConfig()
	cfg.Outage, cfg.Rate, cfg.Emails, cfg.Follow = workload.OutageNone, workload.MaxRate, emails, 1
	cfg.Endpoint.Transport = model
	run, err := workload.Start(b.Context(), cfg)
	if err != nil {
		b.Fatal(err)
	}
	w, err := session.Record(filepath.Join(dir, "scale.jsonl"), run)
	if err != nil {
		b.Fatal(err)
	}
	folded := liveFold(b.Context(), run)
	status := run.Wait()
	fold := <-folded
	sum := fold.Summary()
	if err := session.Finish(w, sum, status, nil); err != nil {
		b.Fatal(err)
	}
	if got := sum.Served.Total(); got != emails {
		b.Fatalf("served %d emails, want %d", got, emails)
	}
}

// cpuTime is the CPU time (user + system) the process has used.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
