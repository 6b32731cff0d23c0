package workload

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/price"
)

// TestRungsOnDifferentEndpoints: the primary calls a real endpoint with its
// own key while the backup stays on the in-process fake model; each
// attempt's usage is logged and priced.
func TestRungsOnDifferentEndpoints(t *testing.T) {
	fm := fakemodel.New(fakemodel.Options{NoLatency: true})
	var calls, wrongKey atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer primary-key-123" {
			wrongKey.Add(1)
		}
		calls.Add(1)
		fm.ServeHTTP(w, r)
	}))
	defer srv.Close()

	cfg := DefaultConfig()
	// The primary is busy for the first email only: it falls back to the
	// backup, on the fake model.
	cfg.Emails, cfg.Rate, cfg.Follow = 4, 20, 1
	cfg.OutageFrom, cfg.OutageTo = 0, 10*time.Millisecond
	cfg.Policy, _ = Preset("fallback")
	cfg.Policy.Primary.Retries = 0
	cfg.Endpoint.Transport = fakemodel.New(fakemodel.Options{NoLatency: true}).Transport()
	cfg.RungEndpoints = map[string]Endpoint{event.ServedPrimary: {BaseURL: srv.URL + "/v1", APIKey: "primary-key-123"}}
	cfg.Prices = price.Table{DefaultPrimaryModel: {InPerM: 1, OutPerM: 2}}
	run, err := Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if s := run.Wait(); s != event.StatusCompleted {
		t.Fatalf("status %s", s)
	}
	if calls.Load() != 3 || wrongKey.Load() != 0 {
		t.Errorf("primary endpoint: %d calls, %d with the wrong key; want 3, 0", calls.Load(), wrongKey.Load())
	}
	usages := map[string]int{}
	for _, e := range run.Log().Events() {
		if e.Kind != event.AttemptUsage {
			continue
		}
		usages[e.Rung]++
		primary := e.Rung == event.ServedPrimary
		if e.Usage == nil || e.Usage.InputTokens == 0 || e.Usage.Priced != primary || (e.Usage.Cost > 0) != primary || e.Usage.Estimated {
			t.Errorf("%s usage %+v", e.Rung, e.Usage)
		}
	}
	if usages[event.ServedPrimary] != 3 || usages[event.ServedBackup] != 1 {
		t.Errorf("usage events by rung %v, want primary 3, backup 1", usages)
	}
}
