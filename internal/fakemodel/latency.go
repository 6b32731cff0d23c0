package fakemodel

import (
	"context"
	"encoding/binary"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"time"
)

// LatencyProfile is the latency distribution of one model profile: a
// lognormal around Median with spread Sigma, cut off at Max, and with
// probability TailProb a slow call uniform in [TailMin, TailMax] instead.
// Streamed answers send their first chunk after the drawn latency and then
// TokensPerSecond tokens a second.
type LatencyProfile struct {
	Median          time.Duration
	Sigma           float64
	Max             time.Duration
	TailProb        float64
	TailMin         time.Duration
	TailMax         time.Duration
	TokensPerSecond float64
}

// Draw returns the latency for one call from the random source r.
func (p LatencyProfile) Draw(r *rand.Rand) time.Duration {
	z := r.NormFloat64()
	tail := r.Float64()
	u := r.Float64()
	if p.TailProb > 0 && tail < p.TailProb {
		return (p.TailMin + time.Duration(u*float64(p.TailMax-p.TailMin))).Round(time.Millisecond)
	}
	d := time.Duration(float64(p.Median) * math.Exp(p.Sigma*z))
	if p.Max > 0 && d > p.Max {
		d = p.Max
	}
	return d.Round(time.Millisecond)
}

// callRand returns the random source for one call, seeded from the server
// seed, the model, the retry count and the request body.
func callRand(seed int64, model string, body []byte, retry int) *rand.Rand {
	return randOf(callSeed(seed, model, body, retry))
}

// randOf is callRand's source for a call's seed: the handler hashes a body
// once and draws its latency and its id from two sources of the one seed.
func randOf(s uint64) *rand.Rand { return rand.New(rand.NewPCG(s, s^0x9e3779b97f4a7c15)) }

// callSeed hashes what seeds a call's random source.
func callSeed(seed int64, model string, body []byte, retry int) uint64 {
	h := fnv.New64a()
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(seed))
	h.Write(b[:])
	h.Write([]byte(model))
	h.Write([]byte{0})
	binary.LittleEndian.PutUint64(b[:], uint64(retry))
	h.Write(b[:])
	h.Write(body)
	return h.Sum64()
}

// Latency returns the latency that a server with seed and profile defaults
// (LatencyScale 1) waits before answering this request body for model on
// retry number retry (the X-Stainless-Retry-Count header; 0 for the first
// attempt). It returns 0 for an unknown model.
func Latency(seed int64, model string, body []byte, retry int) time.Duration {
	p, ok := profiles[model]
	if !ok {
		return 0
	}
	return p.Latency.Draw(callRand(seed, model, body, retry))
}

// sleep waits d, or until ctx ends; it reports whether the full wait passed.
// It uses a timer, so it runs in fake time inside a synctest bubble.
func sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
