package fakemodel_test

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/triage"
)

// requestBody is the body openai-go sends for the triage of e.
func requestBody(t testing.TB, model string, e emails.Email) []byte {
	b, err := json.Marshal(triage.Params(model, e))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestLatencyDistribution(t *testing.T) {
	for _, c := range []struct {
		model        string
		p50lo, p50hi time.Duration
		minOver3s    int
		maxAtMost    time.Duration
	}{
		{fakemodel.ModelMini, 1000 * time.Millisecond, 1400 * time.Millisecond, 3, 5 * time.Second},
		{fakemodel.ModelNano, 750 * time.Millisecond, 1050 * time.Millisecond, 0, 3 * time.Second},
	} {
		var ds []time.Duration
		over3 := 0
		for _, e := range emails.All() {
			d := fakemodel.Latency(fakemodel.DefaultSeed, c.model, requestBody(t, c.model, e), 0)
			if d != fakemodel.Latency(fakemodel.DefaultSeed, c.model, requestBody(t, c.model, e), 0) {
				t.Fatal("latency is not deterministic")
			}
			ds = append(ds, d)
			if d > 3*time.Second {
				over3++
			}
		}
		slices.Sort(ds)
		p50, p95, max := ds[len(ds)/2], ds[len(ds)*95/100], ds[len(ds)-1]
		t.Logf("%s over the 120 emails (seed %d): p50 %v, p95 %v, max %v, %d over 3 s",
			c.model, fakemodel.DefaultSeed, p50, p95, max, over3)
		if p50 < c.p50lo || p50 > c.p50hi {
			t.Errorf("%s: p50 %v outside %v..%v", c.model, p50, c.p50lo, c.p50hi)
		}
		if over3 < c.minOver3s {
			t.Errorf("%s: %d calls over 3 s, want at least %d", c.model, over3, c.minOver3s)
		}
		if max > c.maxAtMost {
			t.Errorf("%s: max %v over %v", c.model, max, c.maxAtMost)
		}
	}
	// A retry draws a new latency.
	e, _ := emails.ByID(1)
	b := requestBody(t, fakemodel.ModelMini, e)
	if fakemodel.Latency(1, fakemodel.ModelMini, b, 0) == fakemodel.Latency(1, fakemodel.ModelMini, b, 1) {
		t.Error("retry 1 drew the same latency as retry 0")
	}
	if fakemodel.Latency(1, "nope", b, 0) != 0 {
		t.Error("unknown model has a latency")
	}
	if d := fakemodel.New(fakemodel.Options{Seed: 1, LatencyScale: 0.5}).Latency(fakemodel.ModelMini, b, 0); d != fakemodel.Latency(1, fakemodel.ModelMini, b, 0)/2 {
		t.Errorf("scale 0.5: %v", d)
	}
	if d := fakemodel.New(fakemodel.Options{Seed: 1}).Latency(fakemodel.ModelMini, b, 0); d != fakemodel.Latency(1, fakemodel.ModelMini, b, 0) {
		t.Errorf("zero Options is not the profile default: %v", d)
	}
	if d := fakemodel.New(fakemodel.Options{Seed: 1, NoLatency: true}).Latency(fakemodel.ModelMini, b, 0); d != 0 {
		t.Errorf("NoLatency: %v", d)
	}
}
