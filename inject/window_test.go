package inject

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/drill-dev/drill/event"
)

// attempt sends one request with a distinct body through rt and reports
// whether a fault hit it (a busy 503 instead of the 200 behind).
func attempt(t *testing.T, rt http.RoundTripper, i int) bool {
	t.Helper()
	req, _ := http.NewRequest("POST", "http://model.invalid/v1/chat/completions", strings.NewReader(fmt.Sprintf(`{"n":%d}`, i)))
	resp, err := rt.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusServiceUnavailable
}

// TestRateHitsItsShare: rate 0.3 hits 30 % ± 5 % of 1,000 attempts, and
// the same seed hits the same attempts.
func TestRateHitsItsShare(t *testing.T) {
	hits := func(seed int64) []bool {
		in := New(&okTransport{}, time.Now(), Options{Seed: seed})
		w := parse(t, "busy", "rate=0.3")
		if err := in.Add(w); err != nil {
			t.Fatal(err)
		}
		out := make([]bool, 1000)
		for i := range out {
			out[i] = attempt(t, in, i)
		}
		return out
	}
	a, b, other := hits(1), hits(1), hits(2)
	n, same, differ := 0, true, false
	for i := range a {
		if a[i] {
			n++
		}
		same = same && a[i] == b[i]
		differ = differ || a[i] != other[i]
	}
	if n < 250 || n > 350 {
		t.Errorf("rate 0.3 hit %d of 1000 attempts, want 250–350", n)
	}
	if !same || !differ {
		t.Errorf("seeded draws: same seed same hits %v, another seed other hits %v; want both", same, differ)
	}
	t.Logf("rate 0.3: %d of 1000 attempts hit", n)
}

// TestFlapHitsOnlyOnPeriods: on 2 s / off 3 s from the window's start;
// attempts every 100 ms for 30 s are hit exactly when they start in an on
// period.
func TestFlapHitsOnlyOnPeriods(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		in := New(&okTransport{}, start, Options{})
		w := parse(t, "busy", "flap=2s/3s")
		w.From, w.To = 10*time.Second, 40*time.Second
		if err := in.Add(w); err != nil {
			t.Fatal(err)
		}
		time.Sleep(10 * time.Second)
		hit := 0
		for i := range 300 {
			at := time.Since(start)
			phase := (at - 10*time.Second) % (5 * time.Second)
			if got, want := attempt(t, in, i), phase < 2*time.Second; got != want {
				t.Fatalf("attempt at %s (phase %s): hit %v, want %v", at, phase, got, want)
			}
			if phase < 2*time.Second {
				hit++
			}
			time.Sleep(100 * time.Millisecond)
		}
		if hit != 120 {
			t.Errorf("%d attempts hit, want 120 (2 s of every 5 s)", hit)
		}
	})
}

// TestRampGrowsTheRate: across a 20 s ramp to rate 1, the first quarter
// is hit about an eighth of the time and the last quarter about seven
// eighths.
func TestRampGrowsTheRate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		in := New(&okTransport{}, start, Options{Seed: 3})
		w := parse(t, "busy", "ramp=true")
		w.To = 20 * time.Second
		if err := in.Add(w); err != nil {
			t.Fatal(err)
		}
		var quarters [4]int
		for i := range 2000 {
			if attempt(t, in, i) {
				quarters[i/500]++
			}
			time.Sleep(10 * time.Millisecond)
		}
		if quarters[0] < 30 || quarters[0] > 95 || quarters[3] < 400 || quarters[3] > 470 {
			t.Errorf("hits per 5 s quarter %v, want about 62 in the first and 437 in the last", quarters)
		}
		if !(quarters[0] < quarters[1] && quarters[1] < quarters[2] && quarters[2] < quarters[3]) {
			t.Errorf("hits per quarter %v do not grow", quarters)
		}
	})
}

// TestModelsPicksRungs: a window names its models; without them it breaks
// the injector's target.
func TestModelsPicksRungs(t *testing.T) {
	in := New(&okTransport{}, time.Now(), Options{Target: ModelBackup})
	if err := in.Add(event.Window{FaultSpec: event.FaultSpec{Kind: "busy"}, To: -1}); err != nil {
		t.Fatal(err)
	}
	if attempt(t, in.For(ModelPrimary), 0) || !attempt(t, in.For(ModelBackup), 0) || !attempt(t, in, 0) {
		t.Error("a window without models must break the target (backup) only")
	}
	in = New(&okTransport{}, time.Now(), Options{})
	w := parse(t, "busy", "models=both")
	if err := in.Add(w); err != nil {
		t.Fatal(err)
	}
	if !attempt(t, in.For(ModelPrimary), 0) || !attempt(t, in.For(ModelBackup), 0) {
		t.Error("models=both must break primary and backup")
	}
}
