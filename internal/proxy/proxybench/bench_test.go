package proxybench

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	toxiproxy "github.com/Shopify/toxiproxy/v2"
	"github.com/rs/zerolog"

	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/livefold"
	"github.com/drill-dev/drill/internal/proxy"
	"github.com/drill-dev/drill/scoring"
)

// seconds is how long each target is measured in each case:
// DRILL_PROXYBENCH_SECONDS, default 2.
func seconds(b *testing.B) time.Duration {
	s := os.Getenv("DRILL_PROXYBENCH_SECONDS")
	if s == "" {
		return 2 * time.Second
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f <= 0 {
		b.Fatalf("DRILL_PROXYBENCH_SECONDS=%q: want a number of seconds above 0", s)
	}
	return time.Duration(f * float64(time.Second))
}

// BenchmarkVsToxiproxy measures, in one run, what drill's proxy (no
// outage, every request recorded: its log, the plain lines and a journal,
// as `drill proxy --no-tui --record` runs it) and Toxiproxy (no toxics) add
// over calling the same loopback fake model directly: open-loop
// non-streamed requests at 1,000 and 5,000 a second, and 200 concurrent
// streams from a fake model that writes a chunk every few milliseconds.
// The targets take turns in short slices. Run it alone:
//
//	go test ./internal/proxy/proxybench -run '^$' -bench VsToxiproxy -benchtime 1x
func BenchmarkVsToxiproxy(b *testing.B) {
	d := seconds(b)
	open := Plan{Slice: 250 * time.Millisecond, Total: d, Warmup: 200 * time.Millisecond}
	for _, rate := range []float64{1000, 5000} {
		b.Run(fmt.Sprintf("open-%.0f", rate), func(b *testing.B) {
			bodies, err := Bodies(120, Model, false)
			if err != nil {
				b.Fatal(err)
			}
			ts := trio(b, fakemodel.New(fakemodel.Options{NoLatency: true}))
			for b.Loop() {
				figs, err := OpenLoop(b.Context(), ts, bodies, rate, open)
				if err != nil {
					b.Fatal(err)
				}
				reportOpen(b, ts, figs)
			}
		})
	}
	b.Run("streams-200", func(b *testing.B) {
		bodies, err := Bodies(120, Model, true)
		if err != nil {
			b.Fatal(err)
		}
		// At a tenth of its usual latency the fake model's mini sends its
		// first chunk after about 120 ms and a chunk every 3.3 ms.
		ts := trio(b, fakemodel.New(fakemodel.Options{LatencyScale: 0.1}))
		for b.Loop() {
			figs, err := Streams(b.Context(), ts, bodies, 200, Plan{Slice: time.Second, Total: d, Warmup: 500 * time.Millisecond})
			if err != nil {
				b.Fatal(err)
			}
			reportStreams(b, ts, figs)
		}
	})
}

// trio serves model on loopback and returns the targets in front of it:
// direct, drill's proxy and Toxiproxy, each with a client of its own, and
// net/http's reverse proxy with nothing of drill's (httputil), the floor
// under any proxy that reads its traffic as HTTP in Go.
func trio(b *testing.B, model http.Handler) []Target {
	up := httptest.NewServer(model)
	b.Cleanup(up.Close)
	return []Target{
		{Name: "direct", Base: up.URL + "/v1", Client: NewClient(4096)},
		{Name: "drill", Base: drillProxy(b, up.URL+"/v1"), Client: NewClient(4096)},
		{Name: "toxiproxy", Base: toxi(b, strings.TrimPrefix(up.URL, "http://")) + "/v1", Client: NewClient(4096)},
		{Name: "httputil", Base: bareProxy(b, up.URL) + "/v1", Client: NewClient(4096)},
	}
}

// bareProxy serves httputil.ReverseProxy alone in front of upstream (a
// base URL without a path), as drill's proxy keeps its upstream
// connections (proxy.MaxIdleUpstream), and returns its base URL.
func bareProxy(b *testing.B, upstream string) string {
	u, err := url.Parse(upstream)
	if err != nil {
		b.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(u)
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = proxy.MaxIdleUpstream
	rp.Transport = tr
	srv := httptest.NewServer(rp)
	b.Cleanup(srv.Close)
	return srv.URL
}

// drillProxy runs drill's proxy in front of upstream as drill proxy
// --no-tui --record does: its server and limits, the plain line of every
// request and a journal.
func drillProxy(b *testing.B, upstream string) string {
	u, err := url.Parse(upstream)
	if err != nil {
		b.Fatal(err)
	}
	p, err := proxy.New(proxy.Options{Upstream: u})
	if err != nil {
		b.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	h, err := journal.NewHeader(map[string]string{"upstream": upstream}, p.Log().Start())
	if err != nil {
		b.Fatal(err)
	}
	rec, err := journal.Create(filepath.Join(b.TempDir(), "proxy.jsonl"), h, p.Log(), journal.Options{})
	if err != nil {
		b.Fatal(err)
	}
	// As drill proxy --no-tui: every reader attached, then the log drops
	// what they have all read, and the summary comes from a live fold.
	cur := p.Log().Cursor()
	fold := livefold.Follow(p.Log())
	p.Log().Release()
	ctx, stop := context.WithCancel(context.Background())
	served, lined := make(chan error, 1), make(chan error, 1)
	go func() { served <- proxy.Serve(ctx, ln, p, proxy.Limits{}) }()
	go func() {
		_, err := proxy.WriteLines(context.Background(), cur, io.Discard)
		lined <- err
	}()
	b.Cleanup(func() {
		stop()
		if err := <-served; err != nil {
			b.Error(err)
		}
		if err := <-lined; err != nil {
			b.Error(err)
		}
		if err := rec.Finish(fold.Wait().Summary(), "completed"); err != nil {
			b.Error(err)
		}
	})
	return "http://" + ln.Addr().String() + "/v1"
}

// toxi runs Toxiproxy, no toxics, in front of upstream (host:port) and
// returns its base URL.
func toxi(b *testing.B, upstream string) string {
	srv := toxiproxy.NewServer(toxiproxy.NewMetricsContainer(nil), zerolog.Nop())
	tp := toxiproxy.NewProxy(srv, "bench", "127.0.0.1:0", upstream)
	if err := tp.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(tp.Stop)
	return "http://" + tp.Listen
}

func us(d time.Duration) float64 { return micros(d) }

// reportOpen reports each proxy's added latency quantiles, CPU and bytes
// allocated per request over the direct target's (ts[0]), and logs the
// side-by-side table.
func reportOpen(b *testing.B, ts []Target, figs []Figures) {
	for i := range figs {
		figs[i].Sort()
	}
	qs := []struct {
		name string
		q    float64
	}{{"p50", 0.5}, {"p99", 0.99}, {"p99.9", 0.999}}
	direct := &figs[0]
	var tbl strings.Builder
	fmt.Fprintf(&tbl, "\n%-10s %8s %9s %9s %9s %8s %12s %12s\n", "target", "requests", "p50 µs", "p99 µs", "p99.9 µs", "errors", "CPU µs/req", "alloc B/req")
	for i, t := range ts {
		f := &figs[i]
		fmt.Fprintf(&tbl, "%-10s %8d %9.0f %9.0f %9.0f %8d %12.1f %12.0f\n", t.Name, f.Requests,
			(scoring.Quantile(f.Latency, 0.5)), (scoring.Quantile(f.Latency, 0.99)), (scoring.Quantile(f.Latency, 0.999)), f.Errors,
			us(f.CPUPerRequest()), f.AllocPerRequest())
		for _, q := range qs {
			v := scoring.Quantile(f.Latency, q.q)
			if i == 0 {
				b.ReportMetric(v, "direct-"+q.name+"-µs")
				continue
			}
			b.ReportMetric((v - scoring.Quantile(direct.Latency, q.q)), t.Name+"-added-"+q.name+"-µs")
		}
		if i > 0 {
			b.ReportMetric(us(f.CPUPerRequest()-direct.CPUPerRequest()), t.Name+"-added-cpu-µs/req")
			b.ReportMetric(f.AllocPerRequest()-direct.AllocPerRequest(), t.Name+"-added-B/req")
			b.ReportMetric(float64(f.Errors), t.Name+"-errors")
		}
	}
	// Ratios of whole figures, drill's over Toxiproxy's in the same run,
	// for scripts/bench.sh --check: load hits both alike.
	drill, toxi := &figs[1], &figs[2]
	b.ReportMetric(float64(drill.CPUPerRequest())/float64(toxi.CPUPerRequest()), "drill/toxiproxy-cpu")
	b.ReportMetric(scoring.Quantile(drill.Latency, 0.99)/scoring.Quantile(toxi.Latency, 0.99), "drill/toxiproxy-p99")
	b.Log(tbl.String())
}

// reportStreams reports each proxy's added time to first chunk and gaps
// between chunks over the direct target's, and logs the table.
func reportStreams(b *testing.B, ts []Target, figs []Figures) {
	for i := range figs {
		figs[i].Sort()
	}
	direct := &figs[0]
	var tbl strings.Builder
	fmt.Fprintf(&tbl, "\n%-10s %8s %10s %10s %10s %10s %10s %8s %12s\n", "target", "streams", "TTFT p50", "TTFT p99", "gap p50", "gap p99", "gap p99.9", "errors", "CPU µs/str")
	for i, t := range ts {
		f := &figs[i]
		fmt.Fprintf(&tbl, "%-10s %8d %10.0f %10.0f %10.0f %10.0f %10.0f %8d %12.1f\n", t.Name, f.Requests,
			(scoring.Quantile(f.TTFT, 0.5)), (scoring.Quantile(f.TTFT, 0.99)), (scoring.Quantile(f.Gaps, 0.5)), (scoring.Quantile(f.Gaps, 0.99)),
			(scoring.Quantile(f.Gaps, 0.999)), f.Errors, us(f.CPUPerRequest()))
		if i == 0 {
			b.ReportMetric((scoring.Quantile(f.TTFT, 0.5)), "direct-ttft-p50-µs")
			b.ReportMetric((scoring.Quantile(f.Gaps, 0.99)), "direct-gap-p99-µs")
			continue
		}
		for _, q := range []float64{0.5, 0.99} {
			name := strconv.FormatFloat(q*100, 'f', -1, 64)
			b.ReportMetric((scoring.Quantile(f.TTFT, q) - scoring.Quantile(direct.TTFT, q)), t.Name+"-added-ttft-p"+name+"-µs")
			b.ReportMetric((scoring.Quantile(f.Gaps, q) - scoring.Quantile(direct.Gaps, q)), t.Name+"-added-gap-p"+name+"-µs")
		}
		b.ReportMetric((scoring.Quantile(f.Gaps, 0.999) - scoring.Quantile(direct.Gaps, 0.999)), t.Name+"-added-gap-p99.9-µs")
		b.ReportMetric(us(f.CPUPerRequest()-direct.CPUPerRequest()), t.Name+"-added-cpu-µs/stream")
	}
	b.Log(tbl.String())
}

// BenchmarkPath is one non-streamed call after another, through each
// target in turn (8 at a time), for profiling a proxy's path: ns/op and
// the allocations per call include the client and the fake model, alike
// for every target.
//
//	go test ./internal/proxy/proxybench -run '^$' -bench Path -benchmem -cpuprofile cpu.prof
func BenchmarkPath(b *testing.B) {
	bodies, err := Bodies(120, Model, false)
	if err != nil {
		b.Fatal(err)
	}
	ts := trio(b, fakemodel.New(fakemodel.Options{NoLatency: true}))
	for _, t := range ts {
		b.Run(t.Name, func(b *testing.B) {
			b.SetParallelism(4)
			var n atomic.Int64
			h0, u0 := heapLive(), now()
			b.Cleanup(func() {
				u1 := now()
				b.ReportMetric(us(u1.cpu-u0.cpu)/float64(b.N), "cpu-µs/op")
				// What the target keeps of each call: drill's proxy, as
				// with --no-tui, drops the events its readers have read.
				b.ReportMetric((float64(heapLive())-float64(h0))/float64(b.N), "retained-B/op")
			})
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if err := call(b.Context(), t, bodies[int(n.Add(1))%len(bodies)]); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}

// heapLive is the heap's live bytes after a collection.
func heapLive() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
