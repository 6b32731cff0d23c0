//go:build unix

package workload

import (
	"net/http"
	"slices"
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
// model. Bare: one Chat.Completions.New with the triage request and a
// strict parse of the answer, one call at a time. Engine: a drill of the
// same emails (no outage, the breaker preset) spaced 5 ms apart so they do
// not overlap, each email's wait from email_sent to email_done — SDK, chain,
// breaker, injector, observer and event log included. The two are
// interleaved in every iteration so machine load hits both alike. Reported:
// the median of each (µs) and their ratio, engine over bare; and the
// process's CPU time per email in each phase (getrusage), which load on a
// shared machine does not inflate the way it inflates waits.
func BenchmarkEngineVsBareSDK(b *testing.B) {
	const n = 200
	model := fakemodel.New(fakemodel.Options{NoLatency: true}).Transport()
	client := openai.NewClient(option.WithBaseURL(fakeBaseURL), option.WithAPIKey("drill-fake-model"),
		option.WithHTTPClient(&http.Client{Transport: model}), option.WithMaxRetries(0))
	// Warm up both paths first (the fake model's tokenizer loads on its
	// first call), so neither phase pays a one-off cost.
	warm := DefaultConfig()
	warm.Outage, warm.Rate, warm.Emails, warm.Follow = OutageNone, 200, 20, 1
	warm.Endpoint.Transport = model
	if r, err := Start(b.Context(), warm); err != nil {
		b.Fatal(err)
	} else {
		r.Wait()
	}
	var bare, engine []time.Duration
	var bareCPU, engineCPU time.Duration
	for b.Loop() {
		c0 := cpuTime(b)
		for i := range n {
			e, _ := emails.Nth(i + 1)
			t0 := time.Now()
			resp, err := client.Chat.Completions.New(b.Context(), triage.Params(DefaultPrimaryModel, e))
			if err != nil {
				b.Fatal(err)
			}
			if _, err := triage.Parse(resp.Choices[0].Message.Content); err != nil {
				b.Fatal(err)
			}
			bare = append(bare, time.Since(t0))
		}
		c1 := cpuTime(b)
		bareCPU += c1 - c0
		cfg := DefaultConfig()
		cfg.Outage, cfg.Rate, cfg.Emails, cfg.Follow = OutageNone, 200, n, 1
		cfg.Endpoint.Transport = model
		r, err := Start(b.Context(), cfg)
		if err != nil {
			b.Fatal(err)
		}
		r.Wait()
		engineCPU += cpuTime(b) - c1
		for _, e := range r.Log().Events() {
			if e.Kind == event.EmailDone && e.Result != nil {
				engine = append(engine, e.Result.Wait)
			}
		}
	}
	slices.Sort(bare)
	slices.Sort(engine)
	pb, pe := bare[len(bare)/2], engine[len(engine)/2]
	b.ReportMetric(float64(pb.Nanoseconds())/1e3, "bare-p50-µs")
	b.ReportMetric(float64(pe.Nanoseconds())/1e3, "engine-p50-µs")
	b.ReportMetric(float64(pe)/float64(pb), "engine/bare")
	b.ReportMetric(float64(bareCPU.Nanoseconds())/1e3/float64(len(bare)), "bare-cpu-µs/email")
	b.ReportMetric(float64(engineCPU.Nanoseconds())/1e3/float64(len(engine)), "engine-cpu-µs/email")
	b.ReportMetric(float64(engineCPU)/float64(len(engine))/(float64(bareCPU)/float64(len(bare))), "engine/bare-cpu")
}

// cpuTime is the CPU time (user + system) the process has used.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
