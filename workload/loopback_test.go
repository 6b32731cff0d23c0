package workload

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/drill-dev/drill/internal/fakemodel"
)

// TestLoopbackDrill covers the socket path in real time: a short, fast drill
// against the fake model served over loopback HTTP.
func TestLoopbackDrill(t *testing.T) {
	srv := httptest.NewServer(fakemodel.New(fakemodel.Options{Seed: 3, LatencyScale: 0.01, RequireKey: "sk-test"}))
	defer srv.Close()
	cfg := DefaultConfig()
	cfg.Policy, _ = Preset("fail-fast") // no retries: failures count at once
	cfg.Emails, cfg.Rate, cfg.Follow = 40, 40, 12
	cfg.OutageFrom, cfg.OutageTo = 200*time.Millisecond, 600*time.Millisecond
	cfg.MaxDuration = 20 * time.Second
	cfg.Endpoint = Endpoint{BaseURL: srv.URL + "/v1", APIKey: "sk-test"}
	r, err := Start(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	s, status, _ := finish(t, r)
	if status != "completed" {
		t.Fatalf("status %s", status)
	}
	if s.Served.Total() != 40 || s.Served.Error != 0 || s.Served.Backup == 0 || s.Served.Primary == 0 {
		t.Errorf("served %+v: want all 40, some from each model, no errors", s.Served)
	}
	if s.CallsToBrokenOutage == 0 || s.BreakerOpens == 0 {
		t.Errorf("calls to broken %d, breaker opens %d: the outage was not felt", s.CallsToBrokenOutage, s.BreakerOpens)
	}
}
