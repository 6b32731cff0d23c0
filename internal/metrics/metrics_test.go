package metrics_test

import (
	"context"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/listen"
	"github.com/drill-dev/drill/internal/metrics"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

// scrape reads the exporter's metrics through its HTTP handler, as
// Prometheus would, and parses the text format.
func scrape(t *testing.T, h http.Handler) map[string]*dto.MetricFamily {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, metrics.Path, nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("GET %s: %d %s", metrics.Path, rec.Code, rec.Body)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(rec.Body)
	if err != nil {
		t.Fatalf("parsing the scrape: %v", err)
	}
	return fams
}

// value is the value of the family's metric whose labels include want;
// ok is false when there is none.
func value(fams map[string]*dto.MetricFamily, name string, want map[string]string) (float64, bool) {
	f := fams[name]
	if f == nil {
		return 0, false
	}
	total, found := 0.0, false
	for _, m := range f.Metric {
		labels := map[string]string{}
		for _, l := range m.Label {
			labels[l.GetName()] = l.GetValue()
		}
		match := true
		for k, v := range want {
			if labels[k] != v {
				match = false
			}
		}
		if !match {
			continue
		}
		found = true
		switch {
		case m.Counter != nil:
			total += m.Counter.GetValue()
		case m.Gauge != nil:
			total += m.Gauge.GetValue()
		case m.Histogram != nil:
			total += float64(m.Histogram.GetSampleCount())
		}
	}
	return total, found
}

// TestCountersEqualTheSummary runs the chapter's busy/breaker drill in fake
// time with an exporter following its log (and an alert arriving mid-run),
// then scrapes it: every counter equals the run summary's figure.
func TestCountersEqualTheSummary(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := workload.DefaultConfig()
		cfg.Endpoint.Transport = fakemodel.New(fakemodel.Options{Seed: cfg.Seed, LatencyScale: 1}).Transport()
		hyps, err := scoring.ParseExprs([]string{"served.error == 0", "breaker_opens >= 1", "served.canned > 100",
			"alert.BreakerOpen.fired == 1"})
		if err != nil {
			t.Fatal(err)
		}
		x := metrics.New(hyps)
		run, err := workload.Start(t.Context(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		followed := make(chan error, 1)
		go func() { followed <- x.Follow(context.Background(), run.Log()) }()

		time.Sleep(20 * time.Second) // into the outage: the breaker has opened
		live := scrape(t, x.Handler())
		if v, _ := value(live, "drill_breaker_state", map[string]string{"breaker": "primary"}); v != metrics.BreakerOpen {
			t.Errorf("drill_breaker_state{breaker=primary} at 20 s = %v, want %d (open)", v, metrics.BreakerOpen)
		}
		// Every series names the run: its id, as its run_start logged it.
		id := run.Log().Events()[0].Run.ID
		if _, ok := value(live, "drill_breaker_state", map[string]string{"breaker": "primary", event.RunLabel: id}); !ok || id == "" {
			t.Errorf("no drill_breaker_state series with drill_run=%q (the run's id)", id)
		}
		if v, _ := value(live, "drill_outage_active", nil); v != 1 {
			t.Errorf("drill_outage_active at 20 s = %v, want 1", v)
		}
		if v, _ := value(live, "drill_run_running", nil); v != 1 {
			t.Errorf("drill_run_running at 20 s = %v, want 1", v)
		}
		run.Log().Append(event.Event{Kind: event.AlertReceived, Alert: &event.Alert{Name: "BreakerOpen",
			Status: event.AlertFiring, Fingerprint: "f1", StartsAt: time.Now()}})

		run.Wait()
		if err := <-followed; err != nil {
			t.Fatal(err)
		}
		fold := scoring.NewFold()
		fold.AddLog(run.Log())
		sum := fold.Summary()
		fams := scrape(t, x.Handler())

		checks := []struct {
			name   string
			labels map[string]string
			want   float64
		}{
			{"drill_calls_to_broken_total", nil, float64(sum.CallsToBrokenOutage)},
			{"drill_emails_sent_total", nil, float64(sum.EmailsSent)},
			{"drill_emails_total", map[string]string{"served_by": "primary"}, float64(sum.Served.Primary)},
			{"drill_emails_total", map[string]string{"served_by": "backup"}, float64(sum.Served.Backup)},
			{"drill_emails_total", map[string]string{"served_by": "canned"}, float64(sum.Served.Canned)},
			{"drill_emails_total", map[string]string{"served_by": "error"}, float64(sum.Served.Error)},
			{"drill_emails_total", map[string]string{"served_by": "cancelled"}, float64(sum.Served.Cancelled)},
			{"drill_email_wait_seconds", nil, float64(sum.EmailsAnswered)},
			{"drill_breaker_opens_total", map[string]string{"breaker": "primary"}, float64(sum.BreakerOpens)},
			{"drill_breaker_state", map[string]string{"breaker": "primary"}, metrics.BreakerValue(fold.Breaker("primary").State)},
			{"drill_tokens_total", map[string]string{"direction": "input"}, float64(sum.Tokens.Input)},
			{"drill_tokens_total", map[string]string{"direction": "output"}, float64(sum.Tokens.Output)},
			{"drill_alerts_received_total", map[string]string{"alertname": "BreakerOpen", "status": "firing"}, 1},
			{"drill_calls_in_flight", nil, 0},
			{"drill_attempts_in_flight", nil, 0},
			{"drill_outage_active", nil, 0},
			{"drill_run_running", nil, 0},
			{"drill_hypotheses", nil, 4},
			{"drill_hypotheses_passing", nil, 3},
			{"drill_hypothesis_passing", map[string]string{"expr": "served.canned > 100"}, 0},
			{"drill_hypothesis_passing", map[string]string{"expr": "alert.BreakerOpen.fired == 1"}, 1},
		}
		for rung, byOutcome := range fold.FailedCalls() {
			for outcome, n := range byOutcome {
				checks = append(checks, struct {
					name   string
					labels map[string]string
					want   float64
				}{"drill_calls_total", map[string]string{"rung": rung, "outcome": string(outcome)}, float64(n)})
			}
		}
		for _, c := range checks {
			got, ok := value(fams, c.name, c.labels)
			if !ok || got != c.want {
				t.Errorf("%s%v = %v (present %v), want %v (the summary's)", c.name, c.labels, got, ok, c.want)
			}
		}
		if sum.CallsToBrokenOutage == 0 || sum.BreakerOpens == 0 || sum.Tokens.Input == 0 {
			t.Fatalf("the drill measured nothing to compare: %+v", sum)
		}
		if got, _ := value(fams, "drill_cost_total", nil); math.Abs(got-sum.Cost.Total) > 1e-6 {
			t.Errorf("drill_cost_total = %v, want %v", got, sum.Cost.Total)
		}
		// Every rung call that ended is counted once: the ok ones are the
		// emails its rung served.
		if got, _ := value(fams, "drill_calls_total", map[string]string{"rung": "primary", "outcome": "ok"}); got < float64(sum.Served.Primary) {
			t.Errorf("drill_calls_total{primary, ok} = %v, fewer than the %d emails the primary served", got, sum.Served.Primary)
		}
		h := fams["drill_email_wait_seconds"].Metric[0].Histogram
		waitSum := 0.0
		for _, w := range fold.Waits() {
			waitSum += w
		}
		if math.Abs(h.GetSampleSum()-waitSum) > 1e-6 {
			t.Errorf("drill_email_wait_seconds_sum = %v, want %v", h.GetSampleSum(), waitSum)
		}
		if got := sum.Alerts["BreakerOpen"]; got.Fired != 1 || got.FirstS == nil {
			t.Errorf("summary alert.BreakerOpen = %+v, want fired once", got)
		}
	})
}

// TestEveryMetricHasHelpAndConventions: every metric is drill_-prefixed,
// counters end in _total, and every one has HELP text; the scrape carries
// them all once a run has started.
func TestEveryMetricHasHelpAndConventions(t *testing.T) {
	for _, m := range metrics.Metrics() {
		if !strings.HasPrefix(m.Name, "drill_") {
			t.Errorf("%s: no drill_ prefix", m.Name)
		}
		if (m.Type == "counter") != strings.HasSuffix(m.Name, "_total") {
			t.Errorf("%s is a %s: only counters end in _total", m.Name, m.Type)
		}
		if strings.TrimSpace(m.Help) == "" {
			t.Errorf("%s: no HELP text", m.Name)
		}
	}
}

// TestVirtualClockRefused: metrics on the virtual clock are a usage error.
func TestVirtualClockRefused(t *testing.T) {
	err := metrics.CheckClock(event.ClockVirtual)
	if err == nil || exit.Code(err) != exit.Usage || !strings.Contains(err.Error(), "--clock real") {
		t.Fatalf("CheckClock(virtual) = %v (exit %d), want a usage error naming --clock real", err, exit.Code(err))
	}
	if err := metrics.CheckClock(event.ClockReal); err != nil {
		t.Fatalf("CheckClock(real) = %v", err)
	}
}

// TestListenServesOverLoopback: the server serves the metrics on a real
// socket and stops when closed.
func TestListenServesOverLoopback(t *testing.T) {
	x := metrics.New(nil)
	srv, err := listen.Listen("127.0.0.1:0", x.Handler())
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get("http://" + srv.Addr() + metrics.Path)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "# HELP drill_calls_to_broken_total") {
		t.Errorf("GET /metrics: %d\n%s", resp.StatusCode, body)
	}
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := http.Get("http://" + srv.Addr() + metrics.Path); err == nil {
		t.Error("the server still answers after Close")
	}
	if _, err := listen.Listen("127.0.0.1:99999", x.Handler()); err == nil {
		t.Error("Listen on port 99999 succeeded")
	}
}

// TestMetricSetIsDocumented: docs/metrics.md lists every metric, with its
// type, labels and HELP text, as a table row.
func TestMetricSetIsDocumented(t *testing.T) {
	b, err := os.ReadFile("../../docs/metrics.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range metrics.Metrics() {
		row := "| `" + m.Name + "` | " + m.Type + " | " + strings.Join(m.Labels, ", ") + " | " + m.Help + " |"
		if !strings.Contains(string(b), strings.ReplaceAll(row, "|  |", "| |")) {
			t.Errorf("docs/metrics.md has no row %s", row)
		}
	}
}
