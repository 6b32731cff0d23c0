package workload

import (
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/fakemodel"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/triage"
)

// benchmarkOverhead runs a no-outage drill in real time at rate emails/s
// against the fake model with its usual latencies, and reports the p50 and
// p99 of the wait the engine adds (SDK, chain, breaker, log, scheduling).
func benchmarkOverhead(b *testing.B, rate float64, emails int) {
	var all []time.Duration
	for b.Loop() {
		cfg := fakeConfig()
		cfg.Outage, cfg.Rate, cfg.Emails, cfg.Follow = OutageNone, rate, emails, 1
		r, err := Start(b.Context(), cfg)
		if err != nil {
			b.Fatal(err)
		}
		r.Wait()
		all = append(all, scoring.EngineOverheads(r.Log().Events())...)
	}
	slices.Sort(all)
	b.ReportMetric(float64(all[len(all)/2].Microseconds())/1000, "p50-overhead-ms")
	b.ReportMetric(float64(all[len(all)*99/100].Microseconds())/1000, "p99-overhead-ms")
}

// BenchmarkOverhead2PerSecond is the chapter's arrival rate (20 emails, so
// one run takes about 11 s of real time).
func BenchmarkOverhead2PerSecond(b *testing.B) { benchmarkOverhead(b, 2, 20) }

// BenchmarkOverhead200PerSecond is a hundred times the chapter's rate: all
// 120 emails in 0.6 s, about 150 in flight at once.
func BenchmarkOverhead200PerSecond(b *testing.B) { benchmarkOverhead(b, 200, 120) }

// BenchmarkThroughput measures the most emails per second one process
// pushes through the engine against a zero-latency fake model: all 120
// emails released at once, repeatedly.
func BenchmarkThroughput(b *testing.B) {
	model := fakemodel.New(fakemodel.Options{NoLatency: true}).Transport()
	start := time.Now()
	n := 0
	for b.Loop() {
		cfg := DefaultConfig()
		cfg.Outage, cfg.Rate, cfg.Follow = OutageNone, 1e6, 1
		cfg.Endpoint.Transport = model
		r, err := Start(b.Context(), cfg)
		if err != nil {
			b.Fatal(err)
		}
		r.Wait()
		n += cfg.Emails
	}
	b.ReportMetric(float64(n)/time.Since(start).Seconds(), "emails/s")
}

// BenchmarkEngineVsBareSDK puts the engine's wait per email beside the bare
// openai-go call, in one run, against the same in-process zero-latency fake
// model. Bare: one Chat.Completions.New with the triage request and a
// strict parse of the answer, one call at a time. Engine: a drill of the
// same emails (no outage, the breaker preset) spaced 5 ms apart so they do
// not overlap, each email's wait from email_sent to email_done — SDK, chain,
// breaker, injector, observer and event log included. The two are
// interleaved in every iteration so machine load hits both alike. Reported:
// the median of each (µs) and their ratio, engine over bare.
func BenchmarkEngineVsBareSDK(b *testing.B) {
	const n = 200
	model := fakemodel.New(fakemodel.Options{NoLatency: true}).Transport()
	client := openai.NewClient(option.WithBaseURL(fakeBaseURL), option.WithAPIKey("drill-fake-model"),
		option.WithHTTPClient(&http.Client{Transport: model}), option.WithMaxRetries(0))
	var bare, engine []time.Duration
	for b.Loop() {
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
		cfg := DefaultConfig()
		cfg.Outage, cfg.Rate, cfg.Emails, cfg.Follow = OutageNone, 200, n, 1
		cfg.Endpoint.Transport = model
		r, err := Start(b.Context(), cfg)
		if err != nil {
			b.Fatal(err)
		}
		r.Wait()
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
}
