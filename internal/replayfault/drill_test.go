package replayfault_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/inject"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/replayfault"
	"github.com/drill-dev/drill/workload"
)

// byModel sends requests naming model to broken and the rest to healthy, as
// a provider whose one model is in trouble would.
func byModel(model string, broken, healthy http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(r *http.Request) (*http.Response, error) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			return nil, err
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		var head struct {
			Model string `json:"model"`
		}
		_ = json.Unmarshal(body, &head)
		if head.Model == model {
			return broken.RoundTrip(r)
		}
		return healthy.RoundTrip(r)
	})
}

// flaps is the recorded incident: the primary model answers 503 in these
// windows of the drill, and normally otherwise.
var flaps = []replayfault.Window{
	busy503(500*time.Millisecond, 1000*time.Millisecond),
	busy503(1500*time.Millisecond, 2200*time.Millisecond),
}

// busy503 is a recorded window of 503s over [from, to).
func busy503(from, to time.Duration) replayfault.Window {
	return replayfault.Window{Window: event.Window{
		FaultSpec: event.FaultSpec{Kind: string(replayfault.Busy), Params: map[string]string{replayfault.ParamStatus: "503"}},
		From:      from, To: to,
	}}
}

func flappingPrimary(start time.Time, healthy http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		at := time.Since(start)
		for _, f := range flaps {
			if at >= f.From && at < f.To {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusServiceUnavailable)
				io.WriteString(w, `{"error":{"message":"overloaded","type":"server_error","code":"overloaded"}}`)
				return
			}
		}
		healthy.ServeHTTP(w, r)
	})
}

// drill runs the workload at 40 emails a second (dense attempts, so window
// edges are found to within 25 ms) with no outage of its own, against
// transport. A breaker's cooldown, if the policy has one, is cooldown.
func drill(t *testing.T, policy string, cooldown time.Duration, transport http.RoundTripper) []event.Event {
	t.Helper()
	cfg := workload.DefaultConfig()
	p, err := workload.Preset(policy)
	if err != nil {
		t.Fatal(err)
	}
	if p.Primary.Breaker != nil {
		p.Primary.Breaker.Cooldown = cooldown
	}
	cfg.Policy, cfg.Outage, cfg.Rate, cfg.Follow = p, workload.OutageNone, 40, 0
	cfg.Endpoint = workload.Endpoint{Transport: transport}
	r, err := workload.Start(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	r.Wait()
	return r.Log().Events()
}

// TestReplayAgainstFailFast is the acceptance drill, in fake time:
// a drill (fallback policy, so the primary is called throughout) recorded
// against a primary that flaps 503; its journal's timeline derived; that
// timeline replayed by the injector against the fail-fast policy (its
// cooldown cut to 0.4 s to fit the short drill, so that it probes both
// windows). Every
// attempt the replayed drill makes on the primary meets the class the
// recording has at its offset (503 inside a window, an answer outside),
// offsets within 50 ms; and the derived windows are the flaps, within 50 ms.
func TestReplayAgainstFailFast(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		model := fakemodel.New(fakemodel.Options{Seed: 1, LatencyScale: 0.05})
		healthy := model.Transport()
		recordedEvents := drill(t, "fallback", 0,
			byModel(fakemodel.ModelMini, inProcess(flappingPrimary(time.Now(), model)), healthy))
		as, err := replayfault.Attempts(recordedEvents, replayfault.Options{Model: "primary"})
		if err != nil {
			t.Fatal(err)
		}
		ws := replayfault.Derive(as)
		samePattern(t, "recorded", ws, flaps, 50*time.Millisecond)

		iw, _, err := replayfault.Inject(ws)
		if err != nil {
			t.Fatal(err)
		}
		in := inject.New(healthy, time.Now(), inject.Options{})
		for _, w := range iw {
			if err := in.Add(w); err != nil {
				t.Fatal(err)
			}
		}
		replayed, err := replayfault.Attempts(drill(t, "fail-fast", 400*time.Millisecond, byModel(fakemodel.ModelMini, in, healthy)),
			replayfault.Options{Model: "primary"})
		if err != nil {
			t.Fatal(err)
		}
		const tol = 50 * time.Millisecond
		met := make([]int, len(ws))
		for _, a := range replayed {
			want, edge := replayfault.Class(""), false
			for i, w := range ws {
				if a.Start >= w.From && a.Start < w.To {
					want = w.Class()
					met[i]++
				}
				edge = edge || (a.Start-w.From).Abs() < tol || (a.Start-w.To).Abs() < tol
			}
			if a.Class != want && !edge {
				t.Errorf("replayed attempt at %s met %q (status %d), the recording has %q there", a.Start, a.Class, a.Status, want)
			}
		}
		for i, n := range met {
			if n == 0 {
				t.Errorf("no replayed attempt fell in window %s", ws[i])
			}
		}
		t.Logf("recorded windows %v; fail-fast made %d attempts on the primary, %v in the windows", ws, len(replayed), met)
	})
}
