package proxybench

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// Plan says how long each target is measured: Total in slices of Slice,
// the targets taking turns, after a Warmup slice each that is not counted.
type Plan struct {
	Slice, Total, Warmup time.Duration
}

func (p Plan) rounds() int { return max(1, int((p.Total+p.Slice-1)/p.Slice)) }

// OpenLoop sends non-streamed requests to each target at rate a second,
// open loop (each at its due time, whether or not earlier ones have been
// answered, so that queueing shows as latency), the targets taking turns
// slice by slice. A request's latency runs from its sending to the end of
// its body.
func OpenLoop(ctx context.Context, targets []Target, bodies [][]byte, rate float64, p Plan) ([]Figures, error) {
	figs := make([]Figures, len(targets))
	var scratch Figures
	for _, t := range targets {
		if err := openSlice(ctx, t, bodies, rate, p.Warmup, &scratch); err != nil {
			return nil, err
		}
	}
	for r := range p.rounds() {
		for _, i := range order(len(targets), r) {
			if err := openSlice(ctx, targets[i], bodies, rate, p.Slice, &figs[i]); err != nil {
				return nil, err
			}
		}
	}
	return figs, nil
}

// openSlice sends rate×d requests to t at their due times, waits for
// every answer and counts them into f.
func openSlice(ctx context.Context, t Target, bodies [][]byte, rate float64, d time.Duration, f *Figures) error {
	n := int(rate * d.Seconds())
	lat := make([]float64, n)
	var errs atomic.Int64
	var mu sync.Mutex
	var first error
	var wg sync.WaitGroup
	u0, t0 := now(), time.Now()
	for i := range n {
		if wait := time.Until(t0.Add(time.Duration(float64(i) / rate * float64(time.Second)))); wait > 0 {
			time.Sleep(wait)
		}
		if ctxDone(ctx) {
			break
		}
		wg.Go(func() {
			start := time.Now()
			if err := call(ctx, t, bodies[i%len(bodies)]); err != nil {
				errs.Add(1)
				mu.Lock()
				first = cmp.Or(first, err)
				mu.Unlock()
				return
			}
			lat[i] = micros(time.Since(start))
		})
	}
	wg.Wait()
	f.add(u0, now(), time.Since(t0))
	for _, l := range lat {
		if l > 0 {
			f.Latency = append(f.Latency, l)
		}
	}
	f.Requests += n
	f.Errors += int(errs.Load())
	if first != nil && f.Errors > f.Requests/10 {
		return fmt.Errorf("proxybench: %s: %d of %d requests failed: %w", t.Name, f.Errors, f.Requests, first)
	}
	return ctx.Err()
}

// post sends body to t's chat completions.
func post(ctx context.Context, t Target, body []byte) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.Base+"/chat/completions", bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("proxybench: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer sk-bench")
	resp, err := t.Client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("proxybench: %s: %w", t.Name, err)
	}
	if resp.StatusCode != http.StatusOK {
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return nil, fmt.Errorf("proxybench: %s answered %s", t.Name, resp.Status)
	}
	return resp, nil
}

// call makes one non-streamed call and reads its answer to the end.
func call(ctx context.Context, t Target, body []byte) error {
	resp, err := post(ctx, t, body)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return fmt.Errorf("proxybench: %s: reading the answer: %w", t.Name, err)
	}
	return nil
}

// Streams keeps conc streams open to each target in turn, slice by slice:
// each of conc workers starts a stream as soon as its last one ended, until
// the slice is over. A stream's time to first chunk runs from its sending
// to its first data line; its gaps are between one data line's arrival and
// the next's.
func Streams(ctx context.Context, targets []Target, bodies [][]byte, conc int, p Plan) ([]Figures, error) {
	figs := make([]Figures, len(targets))
	var scratch Figures
	for _, t := range targets {
		if err := streamSlice(ctx, t, bodies, conc, p.Warmup, &scratch); err != nil {
			return nil, err
		}
	}
	for r := range p.rounds() {
		for _, i := range order(len(targets), r) {
			if err := streamSlice(ctx, targets[i], bodies, conc, p.Slice, &figs[i]); err != nil {
				return nil, err
			}
		}
	}
	return figs, nil
}

// streamSlice runs conc workers streaming from t for d and counts their
// streams into f.
func streamSlice(ctx context.Context, t Target, bodies [][]byte, conc int, d time.Duration, f *Figures) error {
	var mu sync.Mutex
	var errs []error
	var wg sync.WaitGroup
	u0, t0 := now(), time.Now()
	end := t0.Add(d)
	for w := range conc {
		wg.Go(func() {
			var s sample
			for i := w; time.Now().Before(end) && !ctxDone(ctx); i += conc {
				if err := stream(ctx, t, bodies[i%len(bodies)], &s); err != nil {
					s.errs++
					mu.Lock()
					if len(errs) == 0 {
						errs = append(errs, err)
					}
					mu.Unlock()
				}
			}
			mu.Lock()
			f.TTFT, f.Gaps = append(f.TTFT, s.ttft...), append(f.Gaps, s.gaps...)
			f.Requests += s.n
			f.Errors += s.errs
			mu.Unlock()
		})
	}
	wg.Wait()
	f.add(u0, now(), time.Since(t0))
	if f.Errors > f.Requests/100+1 {
		return fmt.Errorf("proxybench: %s: %d of %d streams failed: %w", t.Name, f.Errors, f.Requests, errors.Join(errs...))
	}
	return ctx.Err()
}

// sample is one worker's streams.
type sample struct {
	n, errs int
	ttft    []float64
	gaps    []float64
}

// stream makes one streamed call and reads it to its [DONE].
func stream(ctx context.Context, t Target, body []byte, s *sample) error {
	start := time.Now()
	resp, err := post(ctx, t, body)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	r := bufio.NewReaderSize(resp.Body, 16<<10)
	var last time.Time
	for {
		line, err := r.ReadSlice('\n')
		if bytes.HasPrefix(line, []byte("data:")) {
			at := time.Now()
			if last.IsZero() {
				s.ttft = append(s.ttft, micros(at.Sub(start)))
			} else {
				s.gaps = append(s.gaps, micros(at.Sub(last)))
			}
			last = at
			if bytes.HasPrefix(line, []byte("data: [DONE]")) {
				s.n++
				return nil
			}
		}
		if err != nil {
			return fmt.Errorf("proxybench: %s: the stream ended before [DONE]: %w", t.Name, err)
		}
	}
}
