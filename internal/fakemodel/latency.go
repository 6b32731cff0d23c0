package fakemodel

import (
	"context"
	"encoding/binary"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"sync"
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

// callSeed hashes what seeds a call's random source: the seed, the model,
// the retry count, then the body. The hash of a long body is kept
// (seedCache): a drill sends the same few hundred bodies again and again,
// and hashing each byte by byte was a twentieth of a drill's CPU.
func callSeed(seed int64, model string, body []byte, retry int) uint64 {
	h := fnv.New64a()
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(seed))
	h.Write(b[:])
	h.Write([]byte(model))
	h.Write([]byte{0})
	binary.LittleEndian.PutUint64(b[:], uint64(retry))
	h.Write(b[:])
	if len(body) < seedCacheMinBytes || len(body) > seedCacheMaxBytes {
		h.Write(body)
		return h.Sum64()
	}
	// FNV's state is its sum: the hash of the body after this prefix is a
	// function of the prefix's sum and the body.
	k := seedKey{prefix: h.Sum64(), body: unsafeString(body)}
	seedCache.RLock()
	sum, ok := seedCache.m[k]
	seedCache.RUnlock()
	if ok {
		return sum
	}
	h.Write(body)
	sum = h.Sum64()
	seedCache.Lock()
	if seedCache.bytes+len(body) <= seedCacheTotalBytes {
		if _, ok := seedCache.m[k]; !ok {
			k.body = string(body) // the key must not alias the request's bytes
			seedCache.m[k] = sum
			seedCache.bytes += len(body)
		}
	}
	seedCache.Unlock()
	return sum
}

// seedKey is a body and the hash of what callSeed writes before it.
type seedKey struct {
	prefix uint64
	body   string
}

// seedCache holds callSeed's sums of long bodies. It fills up to
// seedCacheTotalBytes of bodies and then stays as it is; bodies past it
// are hashed afresh.
var seedCache = struct {
	sync.RWMutex
	m     map[seedKey]uint64
	bytes int
}{m: map[seedKey]uint64{}}

const (
	seedCacheMinBytes   = 512
	seedCacheMaxBytes   = 64 << 10
	seedCacheTotalBytes = 8 << 20
)

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
