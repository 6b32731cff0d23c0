package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/drill-dev/drill/internal/fleet/redisstore/redistest"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/scoring"
)

// A tiny drill on the built-in fake model: six emails at four a second,
// the primary busy for its first two seconds (the breaker opens).
var tinyDrill = []string{"--emails", "6", "--rate", "4", "--follow", "1", "--outage", "busy",
	"--outage-from", "0s", "--outage-to", "2s"}

// freeAddr is a loopback address nothing listens on.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// notification is an Alertmanager webhook notification of one firing
// alert with labels. Its start is stamped when it is posted (startsAt
// below): an alert that started before the run would be stale.
func notification(labels map[string]string) string {
	b, _ := json.Marshal(map[string]any{
		"version": "4", "status": "firing", "receiver": "drill",
		"alerts": []map[string]any{{"status": "firing", "labels": labels,
			"startsAt": startsAtNow, "fingerprint": "f1"}},
	})
	return string(b)
}

// startsAtNow is replaced by the time a notification is posted.
const startsAtNow = "STARTS_AT_NOW"

// runLabel is the drill_run label of a scraped series: the run's id.
var runLabel = regexp.MustCompile(`drill_run="[0-9a-f]{12}",`)

// watched is what a drill served while it ran.
type watched struct {
	scrape string // the first scrape that showed want
	posted bool   // the notification was accepted (200)
}

// duringDrill scrapes http://metrics/metrics until the scrape holds want
// and posts note to http://alerts/alerts until it is accepted, while a
// command runs; it gives up when done closes or after 20 s.
func duringDrill(t *testing.T, metrics, want, alerts, note string, done <-chan struct{}) watched {
	t.Helper()
	var w watched
	deadline := time.After(20 * time.Second)
	for w.scrape == "" || !w.posted {
		select {
		case <-done:
			return w
		case <-deadline:
			return w
		case <-time.After(20 * time.Millisecond):
		}
		if w.scrape == "" {
			if resp, err := http.Get("http://" + metrics + "/metrics"); err == nil {
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				// Every series names its run (drill_run, a fresh id each run):
				// matched apart, so want can name the other labels.
				scrape := runLabel.ReplaceAllString(string(body), "")
				if resp.StatusCode == http.StatusOK && strings.Contains(scrape, want) {
					if !runLabel.Match(body) {
						t.Errorf("the scrape has no drill_run label:\n%s", body)
					}
					w.scrape = scrape
				}
			}
		}
		if !w.posted && w.scrape != "" { // posted once the run is surely attached
			body := strings.ReplaceAll(note, startsAtNow, time.Now().UTC().Format(time.RFC3339Nano))
			if resp, err := http.Post("http://"+alerts+"/alerts", "application/json", strings.NewReader(body)); err == nil {
				resp.Body.Close()
				w.posted = resp.StatusCode == http.StatusOK
			}
		}
	}
	return w
}

// watchCommand runs drill args, watching it with duringDrill, and returns
// its stdout, stderr, exit code and what it served.
func watchCommand(t *testing.T, ctx context.Context, metrics, want, alerts, note string, args ...string) (string, string, int, watched) {
	t.Helper()
	type result struct {
		out, errOut string
		code        int
	}
	done := make(chan struct{})
	res := make(chan result, 1)
	go func() {
		defer close(done)
		out, errOut, code := execute(ctx, args...)
		res <- result{out, errOut, code}
	}()
	w := duringDrill(t, metrics, want, alerts, note, done)
	r := <-res
	if w.scrape == "" || !w.posted {
		t.Fatalf("while drill %s ran: scraped %v, alert accepted %v\nstderr: %s", args[0], w.scrape != "", w.posted, r.errOut)
	}
	return r.out, r.errOut, r.code, w
}

// firedOnce checks the summary's alert figures for one firing of
// BreakerOpen.
func firedOnce(t *testing.T, sum scoring.Summary) {
	t.Helper()
	a, ok := sum.Alerts["BreakerOpen"]
	if !ok || a.Fired != 1 || a.Notifications != 1 || a.FirstRunS == nil {
		t.Errorf("summary's alert figures %+v, want BreakerOpen fired once with a first_run_s", sum.Alerts)
	}
}

// TestRunServesMetricsAndAlertsFromTheDrillFile: drill run -f with the
// file's metrics_listen and alert_listen serves the run's metrics while it
// runs, and a webhook notification becomes the summary's alert figures,
// which a hypothesis judges.
func TestRunServesMetricsAndAlertsFromTheDrillFile(t *testing.T) {
	metrics, alerts := freeAddr(t), freeAddr(t)
	file := filepath.Join(t.TempDir(), "alerting.yaml")
	body := fmt.Sprintf("metrics_listen: %s\nalert_listen: %s\npolicies: [{preset: breaker}]\n"+
		"hypotheses: ['alert.BreakerOpen.fired == 1']\n", metrics, alerts)
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	args := append([]string{"run", "-f", file, "--no-tui", "--json"}, tinyDrill...)
	out, errOut, code, w := watchCommand(t, t.Context(), metrics, `drill_breaker_state{breaker="primary",outage="busy",policy="breaker"}`,
		alerts, notification(map[string]string{"alertname": "BreakerOpen"}), args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(w.scrape, `drill_hypotheses{outage="busy",policy="breaker"} 1`) {
		t.Errorf("the scrape does not count the file's hypothesis:\n%s", w.scrape)
	}
	var j scoring.Judged
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	firedOnce(t, j.Summary)
	if len(j.Hypotheses) != 1 || !j.Hypotheses[0].Pass {
		t.Errorf("hypotheses %+v, want alert.BreakerOpen.fired == 1 passing", j.Hypotheses)
	}
	// The listeners closed with the command.
	if _, err := net.DialTimeout("tcp", metrics, time.Second); err == nil {
		t.Errorf("%s still listens after drill run ended", metrics)
	}
}

// TestCompareRoutesAlertsByTheirLabels: drill compare serves every run's
// metrics at once, and an alert naming a run's policy reaches that run only.
func TestCompareRoutesAlertsByTheirLabels(t *testing.T) {
	metrics, alerts := freeAddr(t), freeAddr(t)
	args := []string{"compare", "--json", "--outages", "busy", "--policies", "breaker,fallback",
		"--metrics-listen", metrics, "--alert-listen", alerts, "--emails", "6", "--rate", "4", "--follow", "1",
		"--outage-from", "0s", "--outage-to", "2s"}
	note := notification(map[string]string{"alertname": "BreakerOpen", "outage": "busy", "policy": "breaker"})
	out, errOut, code, w := watchCommand(t, t.Context(), metrics, `policy="fallback"`, alerts, note, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(w.scrape, `policy="breaker"`) {
		t.Errorf("the scrape lacks the breaker run:\n%s", w.scrape)
	}
	var runs []scoring.Judged
	if err := json.Unmarshal([]byte(out), &runs); err != nil || len(runs) != 2 {
		t.Fatalf("%v (%d runs)\n%s", err, len(runs), out)
	}
	for _, r := range runs {
		if r.Summary.Policy == "breaker" {
			firedOnce(t, r.Summary)
		} else if len(r.Summary.Alerts) > 0 {
			t.Errorf("the %s run heard %+v, an alert naming policy breaker", r.Summary.Policy, r.Summary.Alerts)
		}
	}
}

// TestFleetServesMetricsPerReplica: drill fleet serves each replica's
// metrics (label replica) and the fleet hears the alert.
func TestFleetServesMetricsPerReplica(t *testing.T) {
	metrics, alerts := freeAddr(t), freeAddr(t)
	args := append([]string{"fleet", "--replicas", "2", "--policy", "breaker", "--json", "--no-tui",
		"--metrics-listen", metrics, "--alert-listen", alerts}, tinyDrill...)
	out, errOut, code, w := watchCommand(t, t.Context(), metrics, `replica="2"`, alerts,
		notification(map[string]string{"alertname": "BreakerOpen"}), args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{`replica="1"`, `store="local"`, "drill_breaker_state{"} {
		if !strings.Contains(w.scrape, want) {
			t.Errorf("the scrape lacks %s:\n%s", want, w.scrape)
		}
	}
	var fl scoring.FleetSummary
	if err := json.Unmarshal([]byte(out), &fl); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	firedOnce(t, fl.Fleet)
}

// TestProxyServesMetricsAndRecordsAlerts: drill proxy serves its metrics
// (label proxy) and records the alerts it receives in its journal.
func TestProxyServesMetricsAndRecordsAlerts(t *testing.T) {
	metrics, alerts, listen := freeAddr(t), freeAddr(t), freeAddr(t)
	rec := filepath.Join(t.TempDir(), "proxy.jsonl")
	ctx, stop := context.WithCancel(t.Context())
	defer stop()
	type result struct {
		errOut string
		code   int
	}
	done := make(chan struct{})
	res := make(chan result, 1)
	go func() {
		defer close(done)
		_, errOut, code := execute(ctx, "proxy", "--no-tui", "--listen", listen, "--latency-scale", "0", "--record", rec,
			"--metrics-listen", metrics, "--alert-listen", alerts)
		res <- result{errOut, code}
	}()
	w := duringDrill(t, metrics, fmt.Sprintf(`drill_run_running{outage="none",policy="proxy",proxy=%q} 1`, listen), alerts,
		notification(map[string]string{"alertname": "BreakerOpen"}), done)
	stop() // drill proxy runs until interrupted
	r := <-res
	if w.scrape == "" || !w.posted {
		t.Fatalf("scraped %v, alert accepted %v; exit %d: %s", w.scrape != "", w.posted, r.code, r.errOut)
	}
	sum, _, err := journal.Summarize(rec)
	if err != nil {
		t.Fatal(err)
	}
	firedOnce(t, sum)
}

// TestWatchRefusesTheVirtualClock: metrics and alerts need real time.
func TestWatchRefusesTheVirtualClock(t *testing.T) {
	for _, args := range [][]string{
		{"run", "--clock", "virtual", "--no-tui", "--metrics-listen", "127.0.0.1:0"},
		{"compare", "--clock", "virtual", "--alert-listen", "127.0.0.1:0"},
	} {
		_, errOut, code := execute(t.Context(), args...)
		if code != 2 || !strings.Contains(errOut, "--clock real") {
			t.Errorf("drill %s: exit %d, want 2 with a message asking for --clock real: %s", strings.Join(args, " "), code, errOut)
		}
	}
}

// TestFleetRefusesUnreachableStore: drill fleet with a Redis store that
// nothing answers exits 2 before the drill, unless --store-fallback local
// lets it run on each replica's own breakers.
func TestFleetRefusesUnreachableStore(t *testing.T) {
	store := "redis://" + freeAddr(t) + "/0"
	args := append([]string{"fleet", "--replicas", "2", "--policy", "breaker", "--json", "--no-tui", "--breaker-store", store}, tinyDrill...)
	_, stderr, code := execute(t.Context(), args...)
	if code != 2 || !strings.Contains(stderr, "cannot be reached") || !strings.Contains(stderr, "--store-fallback local") {
		t.Errorf("unreachable store: exit %d, want 2 and a hint:\n%s", code, stderr)
	}
	out, stderr, code := execute(t.Context(), append(args, "--store-fallback", "local")...)
	if code != 0 || !strings.Contains(out, `"breaker_store": "redis"`) {
		t.Errorf("--store-fallback local: exit %d:\n%s\n%s", code, out, stderr)
	}
	if _, _, code := execute(t.Context(), append(args, "--store-fallback", "memory")...); code != 2 {
		t.Errorf("--store-fallback memory: exit %d, want 2", code)
	}
}

// TestFleetCompareStoresFormats: --compare-stores prints its side-by-side
// table as aligned text with --format text and as Markdown with --format md.
func TestFleetCompareStoresFormats(t *testing.T) {
	srv := redistest.Start(t)
	args := append([]string{"fleet", "--replicas", "2", "--policy", "breaker", "--no-tui", "--compare-stores", "--breaker-store", srv.URL()}, tinyDrill...)
	text, stderr, code := execute(t.Context(), append(args, "--format", "text")...)
	if code != 0 || strings.Contains(text, "| ") || !strings.Contains(text, "──") || !strings.Contains(text, "2 replicas, redis store") {
		t.Errorf("--format text: exit %d, not aligned text:\n%s\n%s", code, text, stderr)
	}
	md, stderr, code := execute(t.Context(), append(args, "--format", "md")...)
	if code != 0 || !strings.Contains(md, "| Figure | 2 replicas, local store | 2 replicas, redis store |") {
		t.Errorf("--format md: exit %d, not Markdown:\n%s\n%s", code, md, stderr)
	}
}
