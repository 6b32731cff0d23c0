package preflight

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/workload"
)

// onEndpoint is the default drill with every rung on url, key from $KEYVAR.
func onEndpoint(url, key string) workload.Config {
	cfg := workload.DefaultConfig()
	cfg.Endpoint = workload.Endpoint{BaseURL: url, APIKey: key, KeyEnv: "KEYVAR"}
	return cfg
}

// TestCheckAsksEachRungOnce: a rung that answers gets one line; the same
// rung, model and endpoint in two drills is asked once.
func TestCheckAsksEachRungOnce(t *testing.T) {
	fm := fakemodel.New(fakemodel.Options{Seed: 1, NoLatency: true})
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls++
		fm.ServeHTTP(w, r)
	}))
	defer srv.Close()
	cfg := onEndpoint(srv.URL+"/v1", "sk-test")
	var out bytes.Buffer
	if err := Check(context.Background(), []workload.Config{cfg, cfg}, &out); err != nil {
		t.Fatal(err)
	}
	rungs := 0
	for _, r := range cfg.Info().Rungs {
		if r.Model != "" {
			rungs++
		}
	}
	if calls != rungs || strings.Count(out.String(), "drill: preflight: ") != rungs {
		t.Errorf("%d calls for %d rungs, output:\n%s", calls, rungs, out.String())
	}
}

// TestCheckNamesTheFailingRung: a refused request is a usage error naming
// the rung and the variable its key comes from.
func TestCheckNamesTheFailingRung(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write([]byte(`{"error":{"message":"Incorrect API key provided: sk-secret-0123456789","type":"invalid_request_error"}}`))
	}))
	defer srv.Close()
	err := Check(context.Background(), []workload.Config{onEndpoint(srv.URL+"/v1", "sk-secret-0123456789")}, &bytes.Buffer{})
	if !exit.IsUsage(err) || !strings.Contains(err.Error(), "preflight: the primary rung") || !strings.Contains(err.Error(), "KEYVAR") {
		t.Fatalf("err %v, want a usage error naming the primary rung and $KEYVAR", err)
	}
}
