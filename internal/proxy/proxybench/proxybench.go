// Package proxybench measures what a proxy adds to the calls a workload
// makes through it: open-loop, non-streamed requests at a fixed rate and
// concurrent event streams, sent to several targets (the upstream
// directly, drill's proxy, another proxy) in interleaved slices of time, so
// that whatever else the machine runs hits every target alike. Each
// target's figures are its latencies, its streams' gaps between chunks and
// times to the first chunk, and the process's CPU time and allocations per
// request while it was the one served; a proxy's added figures are its own
// less the direct target's.
//
// The benchmarks in this package's tests put drill's proxy beside
// Toxiproxy (a test dependency only) in front of one in-process fake model.
package proxybench

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"runtime/metrics"
	"slices"
	"time"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/internal/cputime"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/triage"
)

// Target is one way to reach the upstream: its base URL (ending in /v1)
// and the client that calls it.
type Target struct {
	Name string
	Base string
	// Client calls Base; NewClient gives one with a connection pool big
	// enough for the rates measured.
	Client *http.Client
}

// NewClient returns a client whose pool keeps up to conns connections to a
// host idle, so that an open-loop burst reuses them rather than opening new
// ones.
func NewClient(conns int) *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns, t.MaxIdleConnsPerHost = conns, conns
	t.DisableCompression = true
	return &http.Client{Transport: t}
}

// Figures are one target's measurements over its slices.
type Figures struct {
	Requests int           // requests (or streams) finished
	Errors   int           // requests that failed or were not 200
	Latency  []float64     // each request's time to its whole body, µs (sorted after Sort)
	TTFT     []float64     // each stream's time to its first chunk, µs
	Gaps     []float64     // the gaps between a stream's chunks, µs
	CPU      time.Duration // the process's CPU time during the target's slices
	Alloc    uint64        // bytes the process allocated during them
	Wall     time.Duration // the slices' length
}

// Sort sorts the samples, for scoring.Quantile.
func (f *Figures) Sort() {
	slices.Sort(f.Latency)
	slices.Sort(f.TTFT)
	slices.Sort(f.Gaps)
}

// CPUPerRequest is the process's CPU time per finished request during the
// target's slices.
func (f *Figures) CPUPerRequest() time.Duration {
	if f.Requests == 0 {
		return 0
	}
	return f.CPU / time.Duration(f.Requests)
}

// AllocPerRequest is the bytes the process allocated per finished request
// during the target's slices.
func (f *Figures) AllocPerRequest() float64 {
	if f.Requests == 0 {
		return 0
	}
	return float64(f.Alloc) / float64(f.Requests)
}

// Bodies returns n triage requests for model as openai-go encodes them,
// one per data-set email in turn, streamed or not.
func Bodies(n int, model string, stream bool) ([][]byte, error) {
	out := make([][]byte, n)
	for i := range out {
		e, _ := emails.Nth(i + 1)
		p := triage.Params(model, e)
		b, err := json.Marshal(p)
		if err != nil {
			return nil, fmt.Errorf("proxybench: encoding a request: %w", err)
		}
		if stream {
			var m map[string]json.RawMessage
			if err := json.Unmarshal(b, &m); err != nil {
				return nil, fmt.Errorf("proxybench: reading a request back: %w", err)
			}
			m["stream"] = json.RawMessage("true")
			if b, err = json.Marshal(m); err != nil {
				return nil, fmt.Errorf("proxybench: encoding a streamed request: %w", err)
			}
		}
		out[i] = b
	}
	return out, nil
}

// Model is the model every request names: the fake model's mini.
const Model = fakemodel.ModelMini

// micros is d in microseconds, as samples are kept.
func micros(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }

// usage is the process's CPU time and allocated bytes so far.
type usage struct {
	cpu   time.Duration
	alloc uint64
}

var allocSample = []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}

func now() usage {
	metrics.Read(allocSample)
	return usage{cpu: cputime.Self(), alloc: allocSample[0].Value.Uint64()}
}

// add counts the usage from u0 to u1 into f.
func (f *Figures) add(u0, u1 usage, wall time.Duration) {
	f.CPU += u1.cpu - u0.cpu
	f.Alloc += u1.alloc - u0.alloc
	f.Wall += wall
}

// order is the targets' order in round r: rotated, so that no target
// always follows the same one.
func order(n, r int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = (i + r) % n
	}
	return out
}

// ctxDone reports whether ctx has ended.
func ctxDone(ctx context.Context) bool { return ctx.Err() != nil }
