package predict

import (
	"time"

	"github.com/drill-dev/drill/internal/sdkprofile"
)

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
