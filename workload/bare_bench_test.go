//go:build unix

package workload

import (
	"net/http"
	"runtime"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/triage"
)

// BenchmarkEngineVsBareSDK puts the engine's wait per email beside the bare
// openai-go call, in one run, against the same in-process zero-latency fake
// model. Three phases, interleaved in every iteration so machine load hits
// them alike:
//
//   - bare, spaced: one Chat.Completions.New with the triage request and a
//     strict parse of the answer per email, each email on its own goroutine
//     started 5 ms after the last: the engine's arrival pattern without the
//     engine. This is the comparison: a service handling emails as they
//     arrive pays the same wake-ups between calls.
//   - bare, back to back: the same calls one after the other on one
//     goroutine with no gap, the best case any caller gets; kept for
//     reference, not for the ratio, since no service calls back to back.
//   - engine: a drill of the same emails (no outage, the breaker preset) at
//     200 emails a second, each email's wait from email_sent to
//     email_done: SDK, chain, breaker, injector, observer and event log.
//
// Reported: each phase's median wait (µs), engine/bare (over the spaced
// calls) and engine/bare-b2b (over back to back); the process's CPU time
// per email (getrusage) and heap allocations per email in each phase, which
// load on a shared machine does not inflate the way it inflates waits.
func BenchmarkEngineVsBareSDK(b *testing.B) {
	const n = 200
	const gap = 5 * time.Millisecond // the engine's spacing at 200 emails a second
	model := fakemodel.New(fakemodel.Options{NoLatency: true}).Transport()
	client := openai.NewClient(option.WithBaseURL(fakeBaseURL), option.WithAPIKey("drill-fake-model"),
		option.WithHTTPClient(&http.Client{Transport: model}), option.WithMaxRetries(0))
	call := func(i int) {
		e, _ := emails.Nth(i + 1)
		resp, err := client.Chat.Completions.New(b.Context(), triage.Params(DefaultPrimaryModel, e))
		if err != nil {
			b.Error(err)
			return
		}
		if _, err := triage.Parse(resp.Choices[0].Message.Content); err != nil {
			b.Error(err)
		}
	}
	engineRun := func() *Run {
		cfg := DefaultConfig()
		cfg.Outage, cfg.Rate, cfg.Emails, cfg.Follow = OutageNone, float64(time.Second/gap), n, 1
		cfg.Endpoint.Transport = model
		r, err := Start(b.Context(), cfg)
		if err != nil {
			b.Fatal(err)
		}
		r.Wait()
		return r
	}
	// Warm up every path first (the fake model's tokenizer loads on its
	// first call), so no phase pays a one-off cost.
	engineRun()
	call(0)

	var spaced, b2b, engine phase
	for b.Loop() {
		spaced.measure(b, func() []time.Duration {
			waits := make([]time.Duration, n)
			var wg sync.WaitGroup
			start := time.Now()
			for i := range n {
				time.Sleep(time.Until(start.Add(time.Duration(i) * gap)))
				wg.Go(func() {
					t0 := time.Now()
					call(i)
					waits[i] = time.Since(t0)
				})
			}
			wg.Wait()
			return waits
		})
		b2b.measure(b, func() []time.Duration {
			waits := make([]time.Duration, n)
			for i := range n {
				t0 := time.Now()
				call(i)
				waits[i] = time.Since(t0)
			}
			return waits
		})
		engine.measure(b, func() []time.Duration {
			var waits []time.Duration
			for _, e := range engineRun().Log().Events() {
				if e.Kind == event.EmailDone && e.Result != nil {
					waits = append(waits, e.Result.Wait)
				}
			}
			return waits
		})
	}
	ps, pb, pe := spaced.p50(), b2b.p50(), engine.p50()
	b.ReportMetric(us(ps), "bare-p50-µs")
	b.ReportMetric(us(pb), "bare-b2b-p50-µs")
	b.ReportMetric(us(pe), "engine-p50-µs")
	b.ReportMetric(float64(pe)/float64(ps), "engine/bare")
	b.ReportMetric(float64(pe)/float64(pb), "engine/bare-b2b")
	b.ReportMetric(spaced.cpuPerEmail(), "bare-cpu-µs/email")
	b.ReportMetric(engine.cpuPerEmail(), "engine-cpu-µs/email")
	b.ReportMetric(engine.cpuPerEmail()/spaced.cpuPerEmail(), "engine/bare-cpu")
	b.ReportMetric(spaced.allocsPerEmail(), "bare-allocs/email")
	b.ReportMetric(engine.allocsPerEmail(), "engine-allocs/email")
}

// phase gathers one phase's waits, CPU time and heap allocations.
type phase struct {
	waits  []time.Duration
	cpu    time.Duration
	allocs uint64
}

func (p *phase) measure(b *testing.B, run func() []time.Duration) {
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	c0 := cpuTime(b)
	p.waits = append(p.waits, run()...)
	p.cpu += cpuTime(b) - c0
	runtime.ReadMemStats(&m1)
	p.allocs += m1.Mallocs - m0.Mallocs
}

func (p *phase) p50() time.Duration {
	slices.Sort(p.waits)
	return p.waits[len(p.waits)/2]
}

func (p *phase) cpuPerEmail() float64 { return us(p.cpu) / float64(len(p.waits)) }

func (p *phase) allocsPerEmail() float64 { return float64(p.allocs) / float64(len(p.waits)) }

func us(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }

// cpuTime is the CPU time (user + system) the process has used.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
