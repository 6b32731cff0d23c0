package predict

import (
	"time"

	"github.com/drill-dev/drill/internal/sdkprofile"
)

// backoffSum is the range of openai-go's own waits over n retries (no
// server hint), with maxDelay as its option.WithMaxRetryDelay (0: default).
func backoffSum(n int, maxDelay time.Duration) (lo, hi time.Duration) {
	return sumWaits(goSDK(), n, sdkprofile.Settings{MaxRetryDelay: maxDelay})
}

// backoffSum is the range of the model's SDK's own waits over n retries.
func (m *model) backoffSum(n int) (lo, hi time.Duration) {
	return sumWaits(m.sdk, n, m.settings())
}

func sumWaits(p sdkprofile.Profile, n int, s sdkprofile.Settings) (lo, hi time.Duration) {
	for k := range n {
		l, h, _, _ := p.Wait(k, 0, s)
		lo, hi = lo+l, hi+h
	}
	return lo, hi
}
