package predict

import (
	"math"
	"time"
)

// sdkMaxBackoff is openai-go's cap on its own backoff (DefaultMaxServerDelay).
const sdkMaxBackoff = 8 * time.Second

// backoff returns the range of the SDK's wait before retry number k (0 for
// the first retry): 0.5 s doubling, capped at 8 s (or at the max retry
// delay, when one is set), minus up to 25 % jitter.
func backoff(k int, maxDelay time.Duration) (lo, hi time.Duration) {
	limit := sdkMaxBackoff
	if maxDelay > 0 {
		limit = maxDelay
	}
	b := time.Duration(0.5 * float64(time.Second) * math.Pow(2, float64(k)))
	if b >= limit {
		b = limit
	}
	return b - b/4, b
}

// backoffSum is the range of the SDK's waits over n retries.
func backoffSum(n int, maxDelay time.Duration) (lo, hi time.Duration) {
	for k := range n {
		l, h := backoff(k, maxDelay)
		lo, hi = lo+l, hi+h
	}
	return lo, hi
}
