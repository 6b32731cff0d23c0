package alerts_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/alerts"
	"github.com/drill-dev/drill/internal/drillfile"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/listen"
	"github.com/drill-dev/drill/internal/metrics"
	"github.com/drill-dev/drill/internal/plan"
	"github.com/drill-dev/drill/internal/session"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

// exampleDir holds the configuration a team copies: the end-to-end test
// runs exactly those files, with the loopback ports it picked.
const exampleDir = "../../examples/alerting"

// The addresses the example files name, replaced by the test's own ports.
const (
	exampleMetrics      = "127.0.0.1:9464"
	exampleReceiver     = "127.0.0.1:9465"
	exampleAlertmanager = "127.0.0.1:9093"
)

// e2eEmails shortens the example drill (80 emails, 40 s) to 25 s: the
// breaker opens at about 10.5 s and the alert has well over ten seconds to
// arrive before the run ends.
const e2eEmails = 50

// TestAlertReachesTheDrill is the end-to-end check of the alerting
// example: a real-time drill serving metrics and receiving alerts on
// loopback ports, a real Prometheus scraping it every second with the
// example's rule on the breaker state, and a real Alertmanager routing the
// alert to drill's webhook. With the rule, every hypothesis of the example
// drill file passes; without it, the alert hypotheses fail. The delay from
// the breaker opening to the alert's arrival is logged.
func TestAlertReachesTheDrill(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end with Prometheus and Alertmanager: a minute of real time (-short)")
	}
	prom, am := lookBinary(t, "prometheus"), lookBinary(t, "prometheus-alertmanager", "alertmanager")

	// The two stacks use their own ports and folders: they run side by side.
	t.Run("with the rule", func(t *testing.T) {
		t.Parallel()
		sum, verdicts := drillWithStack(t, prom, am, true)
		for _, v := range verdicts {
			if !v.Pass {
				t.Errorf("hypothesis %s failed (measured %s)", v.Expr, scoring.FormatValue(v.Value))
			}
		}
		a, ok := sum.Alerts["BreakerOpen"]
		if !ok || a.FirstS == nil || sum.BreakerFirstOpenS == nil {
			t.Fatalf("no BreakerOpen alert or no breaker open: alerts %+v, breaker_first_open_s %v", sum.Alerts, sum.BreakerFirstOpenS)
		}
		delay := *a.FirstS - *sum.BreakerFirstOpenS
		t.Logf("breaker opened %.3f s into the outage; BreakerOpen received %.3f s into it: delay %.3f s (fired %d, notifications %d)",
			*sum.BreakerFirstOpenS, *a.FirstS, delay, a.Fired, a.Notifications)
		if delay < 0 {
			t.Errorf("the alert arrived %.3f s before the breaker opened", -delay)
		}
	})
	t.Run("without the rule", func(t *testing.T) {
		t.Parallel()
		sum, verdicts := drillWithStack(t, prom, am, false)
		if _, ok := sum.Alerts["BreakerOpen"]; ok {
			t.Errorf("an alert arrived with no rule: %+v", sum.Alerts)
		}
		failed := scoring.Failed(verdicts)
		if len(failed) != 2 || !strings.HasPrefix(failed[0].Expr, "alert.BreakerOpen.fired") ||
			!strings.HasPrefix(failed[1].Expr, "alert.BreakerOpen.first_s") {
			t.Errorf("failed hypotheses = %+v, want the two alert checks", failed)
		}
	})
}

// TestStaleAlertDoesNotPass is the two-run scenario: the example drill
// runs once (its alert fires, every hypothesis passes), the alert rule is
// removed from Prometheus, and the same drill runs again on the same
// ports. Alertmanager still holds the first run's alert and sends it again
// during the second run; that alert started before the second run and
// names the first run, so it is stale: the second run's fired hypothesis
// fails (exit 1) and the failure names the stale alert.
//
// Alertmanager's repeat_interval is cut from the example's hour to a few
// seconds, so its re-sending falls inside the 25 s drill every time.
func TestStaleAlertDoesNotPass(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end with Prometheus and Alertmanager: a minute of real time (-short)")
	}
	prom, am := lookBinary(t, "prometheus"), lookBinary(t, "prometheus-alertmanager", "alertmanager")
	// keep_firing_for holds the first run's alert firing after its breaker
	// last left the open state: a run that ends while its breaker probes
	// (half-open) would otherwise resolve it, and Alertmanager would have
	// nothing to send the second run.
	st := newStack(t, prom, am, true, []string{"        labels:\n          severity: page", "        keep_firing_for: 2m\n        labels:\n          severity: page"},
		"repeat_interval: 1h", "repeat_interval: 3s")

	first, verdicts := st.drill(t)
	if _, err := session.Judge(first, st.hyps); err != nil {
		t.Fatalf("the first run, its alert fresh: %v", err)
	}
	if a := first.Alerts["BreakerOpen"]; a.Fired < 1 || a.Stale != 0 {
		t.Fatalf("first run: BreakerOpen %+v, want fired and not stale", a)
	}
	t.Logf("first run: %d hypotheses pass; BreakerOpen fired %d, first_s %.3f", len(verdicts), first.Alerts["BreakerOpen"].Fired,
		*first.Alerts["BreakerOpen"].FirstS)

	// The first run's alert is still firing in Alertmanager when the rule
	// goes: the alert the second run must not count as its own.
	st.waitActive(t, "BreakerOpen")
	st.reloadWithoutRule(t)
	second, _ := st.drill(t)
	a, ok := second.Alerts["BreakerOpen"]
	// Started before the second run, the alert is stale; had it started
	// within the clock-skew allowance of the run's start, its drill_run
	// label (the first run's) would still make it foreign.
	if !ok || a.Stale+a.Foreign < 1 {
		t.Fatalf("second run: BreakerOpen %+v (received: %v), want the first run's alert received as stale", a, ok)
	}
	if a.Fired != 0 || a.FirstS != nil {
		t.Errorf("second run: the stale alert counted as fired: %+v", a)
	}
	if a.StaleStartRunS != nil {
		t.Logf("second run: BreakerOpen stale %d, started %.3f s from the run's start, notifications of its own %d",
			a.Stale, *a.StaleStartRunS, a.Notifications)
	}
	t.Logf("second run: BreakerOpen stale %d, foreign %d (drill_run %s)", a.Stale, a.Foreign, a.ForeignRun)
	_, _, err := session.Verdict(second, event.StatusCompleted, st.hyps)
	if code := exit.Code(err); code != exit.Failed {
		t.Fatalf("second run: exit %d (%v), want %d", code, err, exit.Failed)
	}
	msg := err.Error()
	if !strings.Contains(msg, "alert.BreakerOpen.fired") || !strings.Contains(msg, "alert BreakerOpen: ") ||
		!strings.Contains(msg, "not counted as fired") {
		t.Errorf("the failure does not name the stale alert:\n%s", msg)
	}
	t.Logf("second run fails:\n%s", msg)
}

// lookBinary finds the first of names on PATH, or skips the test.
func lookBinary(t *testing.T, names ...string) string {
	for _, n := range names {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	t.Skipf("%s not installed (Debian: apt-get install prometheus prometheus-alertmanager)", strings.Join(names, " or "))
	return ""
}

// drillWithStack starts drill's metrics and receiver, Alertmanager and
// Prometheus (with or without the example's rule), runs the example drill
// in real time and returns its summary and the file's hypotheses judged on
// it. Every process is stopped when the test ends.
func drillWithStack(t *testing.T, prom, am string, withRule bool) (scoring.Summary, []scoring.Verdict) {
	return newStack(t, prom, am, withRule, nil).drill(t)
}

// stack is a real Prometheus and Alertmanager configured from the example
// files, with drill's metrics endpoint and receiver on the ports they
// name, for one or more drills in turn (as successive `drill run`s on the
// same ports).
type stack struct {
	dir      string
	prom     *exec.Cmd
	promAddr string
	amAddr   string
	exporter *metrics.Exporter
	receiver *alerts.Receiver
	hyps     []scoring.Expr
	run      plan.Run
}

// newStack starts the stack; ruleReplace are old, new pairs replaced in
// the rule file (when withRule), amReplace in the Alertmanager
// configuration beside the receiver's address.
func newStack(t *testing.T, prom, am string, withRule bool, ruleReplace []string, amReplace ...string) *stack {
	file, err := drillfile.Load(filepath.Join(exampleDir, "breaker-alert.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	hyps, _, err := plan.Checks(file)
	if err != nil {
		t.Fatal(err)
	}
	runs, err := plan.Runs(file)
	if err != nil || len(runs) != 1 {
		t.Fatalf("plan: %v (%d runs, want 1)", err, len(runs))
	}
	st := &stack{dir: t.TempDir(), exporter: metrics.New(hyps), receiver: alerts.NewReceiver(), hyps: hyps, run: runs[0]}
	metricsSrv := serve(t, st.exporter.Handler())
	receiverSrv := serve(t, st.receiver)
	amAddr := freeAddr(t)
	st.amAddr = amAddr

	dir := st.dir
	writeExample(t, dir, "alertmanager.yml", append([]string{exampleReceiver, receiverSrv.Addr()}, amReplace...)...)
	writeExample(t, dir, "prometheus.yml", exampleMetrics, metricsSrv.Addr(), exampleAlertmanager, amAddr)
	if withRule {
		writeExample(t, dir, "rules.yml", ruleReplace...)
	} else {
		st.removeRule(t)
	}
	start(t, dir, am, "alertmanager", amAddr, "--config.file="+filepath.Join(dir, "alertmanager.yml"),
		"--storage.path="+filepath.Join(dir, "am-data"), "--web.listen-address="+amAddr, "--cluster.listen-address=")
	promAddr := freeAddr(t)
	st.promAddr = promAddr
	st.prom = start(t, dir, prom, "prometheus", promAddr, "--config.file="+filepath.Join(dir, "prometheus.yml"),
		"--storage.tsdb.path="+filepath.Join(dir, "prom-data"), "--web.listen-address="+promAddr)
	return st
}

// removeRule empties the rule file; a running Prometheus reads it on
// reload.
func (st *stack) removeRule(t *testing.T) {
	if err := os.WriteFile(filepath.Join(st.dir, "rules.yml"), []byte("groups: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// waitActive waits until Alertmanager holds an active (firing) alert
// named name, for up to 30 s. A breaker that flapped at the end of a run
// may have resolved the alert an instant before: the rule fires it again
// on the next evaluation while the metrics still show the breaker open.
func (st *stack) waitActive(t *testing.T, name string) {
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		resp, err := http.Get("http://" + st.amAddr + "/api/v2/alerts?active=true&silenced=false&inhibited=false")
		if err == nil {
			var got []struct {
				Labels map[string]string `json:"labels"`
				Status struct {
					State string `json:"state"`
				} `json:"status"`
			}
			err = json.NewDecoder(resp.Body).Decode(&got)
			resp.Body.Close()
			for _, a := range got {
				if err == nil && a.Labels["alertname"] == name && a.Status.State == "active" {
					return
				}
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("Alertmanager holds no active %s alert 30 s after the first run", name)
}

// reloadWithoutRule removes the rule and has Prometheus reload its rule
// files (SIGHUP), waiting until it serves no rule group.
func (st *stack) reloadWithoutRule(t *testing.T) {
	st.removeRule(t)
	if err := st.prom.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		resp, err := http.Get("http://" + st.promAddr + "/api/v1/rules")
		if err == nil {
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if strings.Contains(string(b), `"groups":[]`) {
				return
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatal("Prometheus still serves the rule 30 s after SIGHUP")
}

// drill runs the example drill in real time on the stack and returns its
// summary and the file's hypotheses judged on it.
func (st *stack) drill(t *testing.T) (scoring.Summary, []scoring.Verdict) {
	cfg := st.run.Config
	cfg.Emails = e2eEmails
	cfg.Endpoint.Transport = fakemodel.New(fakemodel.Options{Seed: cfg.Seed, LatencyScale: 1}).Transport()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	run, err := workload.Start(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	st.receiver.Attach(run.Log())
	followed := make(chan error, 1)
	go func() { followed <- st.exporter.Follow(ctx, run.Log()) }()
	run.Wait()
	if err := <-followed; err != nil {
		t.Fatal(err)
	}
	fold := scoring.NewFold()
	fold.AddLog(run.Log())
	sum := fold.Summary()
	figs, err := scoring.FiguresOf(sum)
	if err != nil {
		t.Fatal(err)
	}
	return sum, scoring.Judge(figs, st.hyps)
}

// serve listens on a free loopback port until the test ends.
func serve(t *testing.T, h http.Handler) *listen.Server {
	s, err := listen.Listen("127.0.0.1:0", h)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})
	return s
}

// freeAddr is a loopback address with a port free a moment ago.
func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// writeExample copies an example file into dir, replacing old, new pairs.
func writeExample(t *testing.T, dir, name string, oldNew ...string) {
	b, err := os.ReadFile(filepath.Join(exampleDir, name))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for i := 0; i+1 < len(oldNew); i += 2 {
		if !strings.Contains(s, oldNew[i]) {
			t.Fatalf("%s does not name %s", name, oldNew[i])
		}
		s = strings.ReplaceAll(s, oldNew[i], oldNew[i+1])
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// start runs a server binary until the test ends (SIGTERM, then SIGKILL
// after ten seconds), waits until it answers /-/ready on addr and returns
// its command.
func start(t *testing.T, dir, bin, name, addr string, args ...string) *exec.Cmd {
	out, err := os.Create(filepath.Join(dir, name+".log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", name, err)
	}
	exited := make(chan struct{}) // closed once the process has exited
	go func() {
		_ = cmd.Wait()
		close(exited)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
			t.Errorf("%s did not stop on SIGTERM within 10 s: killed", name)
		}
		out.Close()
		if t.Failed() {
			b, _ := os.ReadFile(out.Name())
			t.Logf("%s's output:\n%s", name, tail(string(b), 3000))
		}
	})
	if err := waitReady(addr, exited); err != nil {
		b, _ := os.ReadFile(out.Name())
		t.Fatalf("%s: %v\n%s", name, err, tail(string(b), 3000))
	}
	return cmd
}

// waitReady polls http://addr/-/ready for up to 30 s.
func waitReady(addr string, exited <-chan struct{}) error {
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			return errors.New("exited before it was ready")
		default:
		}
		resp, err := http.Get("http://" + addr + "/-/ready")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	return errors.New("not ready after 30 s")
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}
