package inject

import (
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/drill-dev/drill/event"
)

func TestWindowsPickAttemptsByStartTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		next := &okTransport{}
		var faults []string
		in := New(next, time.Now(), Options{OnFault: func(_ *http.Request, a Applied) { faults = append(faults, a.Kind) }})
		if err := in.Add(event.Window{FaultSpec: event.FaultSpec{Kind: "busy"}, From: 2 * time.Second, To: 4 * time.Second}); err != nil {
			t.Fatal(err)
		}
		status := func() int {
			req, _ := http.NewRequest("GET", "http://model.invalid/v1/models", nil)
			resp, err := in.RoundTrip(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			return resp.StatusCode
		}
		var got []int
		for range 6 {
			got = append(got, status())
			time.Sleep(time.Second)
		}
		want := []int{200, 200, 503, 503, 200, 200}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("statuses by second %v, want %v", got, want)
			}
		}
		if len(faults) != 2 || next.calls != 4 {
			t.Fatalf("faults %v, calls through %d; want 2 busy faults and 4 calls through", faults, next.calls)
		}
	})
}

// TestNewestWindowWins: a window added later decides alone where windows
// overlap, miss included, and windows aim at their models only.
func TestNewestWindowWins(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		in := New(&okTransport{}, time.Now(), Options{})
		mustAdd := func(w event.Window) {
			if err := in.Add(w); err != nil {
				t.Fatal(err)
			}
		}
		mustAdd(event.Window{FaultSpec: event.FaultSpec{Kind: "busy"}, From: 0, To: 10 * time.Second})
		mustAdd(event.Window{FaultSpec: event.FaultSpec{Kind: "rate-limit"}, From: 2 * time.Second, To: 4 * time.Second})
		mustAdd(event.Window{FaultSpec: event.FaultSpec{Kind: "busy", Params: map[string]string{"status": "500"}}, From: 6 * time.Second, To: 8 * time.Second,
			Flap: &event.Flap{On: time.Second, Off: time.Second}})
		mustAdd(event.Window{FaultSpec: event.FaultSpec{Kind: "hang"}, From: 0, To: 10 * time.Second, Models: []string{ModelBackup}})
		status := func(rt http.RoundTripper) int {
			req, _ := http.NewRequest("GET", "http://model.invalid/v1/models", nil)
			resp, err := rt.RoundTrip(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			return resp.StatusCode
		}
		var got []int
		for range 10 {
			got = append(got, status(in.For(ModelPrimary)))
			time.Sleep(time.Second)
		}
		// 6 s: the flapping 500 is on; 7 s: it is off, and being newest it
		// lets the attempt through rather than the older busy window.
		want := []int{503, 503, 429, 429, 503, 503, 500, 200, 503, 503}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("statuses by second %v, want %v", got, want)
			}
		}
		if w, ok := in.Active(3 * time.Second); !ok || w.Kind != "hang" {
			t.Fatalf("Active(3s) = %v, %v; want the newest window, hang", w, ok)
		}
	})
}

func TestHangWaitsForTheAttemptsContextAndEndsByHand(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		in := New(&okTransport{}, time.Now(), Options{})
		if err := in.Add(event.Window{FaultSpec: event.FaultSpec{Kind: "hang"}, From: 0, To: -1}); err != nil {
			t.Fatal(err)
		}
		if !in.EndAt(10 * time.Second) {
			t.Fatal("EndAt found no active window")
		}
		if _, ok := in.Active(11 * time.Second); ok {
			t.Fatal("window still active after EndAt")
		}
	})
}

func TestBadWindows(t *testing.T) {
	in := New(&okTransport{}, time.Now(), Options{})
	err := in.Add(event.Window{FaultSpec: event.FaultSpec{Kind: "flood"}, From: 0, To: time.Second})
	if err == nil || !strings.Contains(err.Error(), "busy, hang, malformed, rate-limit, reset, slow, stall, trickle") {
		t.Fatalf("unknown kind: %v, want an error listing every kind", err)
	}
	for _, w := range []event.Window{
		{FaultSpec: event.FaultSpec{Kind: "busy"}, From: 2 * time.Second, To: time.Second},
		{FaultSpec: event.FaultSpec{Kind: "busy"}, From: 0, To: time.Second, Rate: 1.5},
		{FaultSpec: event.FaultSpec{Kind: "busy"}, From: 0, To: -1, Ramp: true},
		{FaultSpec: event.FaultSpec{Kind: "busy"}, From: 0, To: time.Second, Flap: &event.Flap{On: time.Second}},
		{FaultSpec: event.FaultSpec{Kind: "busy"}, From: 0, To: time.Second, Models: []string{"tertiary"}},
		{FaultSpec: event.FaultSpec{Kind: "busy", Params: map[string]string{"status": "418"}}, From: 0, To: time.Second},
		{FaultSpec: event.FaultSpec{Kind: "busy", Params: map[string]string{"retry_after": "1s"}}, From: 0, To: time.Second},
	} {
		if err := in.Add(w); err == nil {
			t.Errorf("window %+v was accepted", w)
		}
	}
}

func TestParseFault(t *testing.T) {
	w, err := ParseFault("rate-limit", []string{"retry_after=3s", "rate=0.5", "flap=2s/3s", "models=both", "ramp=true"})
	if err != nil {
		t.Fatal(err)
	}
	if w.Params["retry_after"] != "3s" || w.Rate != 0.5 || !w.Ramp || *w.Flap != (event.Flap{On: 2 * time.Second, Off: 3 * time.Second}) ||
		len(w.Models) != 2 {
		t.Fatalf("parsed %+v", w)
	}
	w.To = 10 * time.Second
	lp := LogParams(w)
	if lp["retry_after"] != "3s" || lp["spend_cap"] != "false" || lp["rate"] != "0.5" || lp["flap"] != "2s/3s" || lp["models"] != "primary,backup" {
		t.Errorf("LogParams() = %v", lp)
	}
	for _, c := range []struct {
		kind string
		kv   []string
		want string
	}{
		{"rate-limit", []string{"retry_afer=3s"}, `unknown key "retry_afer" for rate-limit (valid: retry_after, spend_cap, rate, ramp, flap, flap.on, flap.off, models, replicas)`},
		{"rate-limit", []string{"retry_after=soon"}, "want a duration"},
		{"busy", []string{"status=418"}, "want 500, 502, 503, 504 or 529"},
		{"busy", []string{"rate=0"}, "above 0 and at most 1"},
		{"busy", []string{"status"}, "is not KEY=VALUE"},
		{"slow", []string{"models=tertiary"}, "primary, backup or both"},
		{"reset", []string{"at=middle"}, "headers or body"},
		{"malformed", []string{"kind=yaml"}, "json, schema or enum"},
		{"trickle", []string{"tokens_per_s=0"}, "above 0"},
		{"flood", nil, "unknown outage kind"},
	} {
		_, err := ParseFault(c.kind, c.kv)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseFault(%s, %v) = %v, want an error containing %q", c.kind, c.kv, err, c.want)
		}
	}
}

func TestKindParamsHaveDefaultsAndHelp(t *testing.T) {
	for _, k := range Kinds() {
		ps, err := KindParams(k)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ps {
			if p.Help == "" || p.Default == "" {
				t.Errorf("%s.%s: no help or default: %+v", k, p.Key, p)
			}
		}
	}
}
