package vclock

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"path/filepath"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

// chapterConfigs are the chapter's eight drills, in its order.
func chapterConfigs(t testing.TB) []workload.Config {
	t.Helper()
	var cfgs []workload.Config
	for _, outage := range []string{"busy", "hang"} {
		for _, policy := range []string{"primary-only", "fallback", "breaker", "fail-fast"} {
			cfg := workload.DefaultConfig()
			p, err := workload.Preset(policy)
			if err != nil {
				t.Fatal(err)
			}
			cfg.Outage, cfg.Policy = outage, p
			cfgs = append(cfgs, cfg)
		}
	}
	return cfgs
}

// recordedJobs are jobs for cfgs, each recorded to a journal in dir.
func recordedJobs(t testing.TB, cfgs []workload.Config, dir string) []Job {
	t.Helper()
	jobs := make([]Job, len(cfgs))
	for i, c := range cfgs {
		h, err := journal.NewHeader(c, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		jobs[i] = Job{Config: c, Journal: filepath.Join(dir, fmt.Sprintf("%02d.jsonl", i+1)), Header: &h}
	}
	return jobs
}

// journalEvents reads the events of the journal at path.
func journalEvents(t testing.TB, path string) []event.Event {
	t.Helper()
	j, err := journal.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return j.Events
}

// Tolerances of the equivalence check (real time against virtual): served counts within 3,
// waits and breaker first open within 0.3 s, all-4-right equal.
const (
	servedTolerance  = 3
	secondsTolerance = 0.3
	// jitterTolerance bounds how far two runs of one drill on the same
	// clock can differ: openai-go draws its backoff jitter (up to 25 % of
	// 0.5 s and of 1 s for two retries) from an unseeded source, so a
	// failure counted after two retries lands up to 0.375 s apart.
	jitterTolerance = 0.25 * (0.5 + 1.0)
)

// disagreements lists where two summaries of the same drill differ by more
// than the equivalence tolerances (served counts, the median wait during the
// outage, the followed email's wait, the breaker's first open, all-4-right);
// empty means they agree. changed is the
// number of emails answered differently in the two runs (served by another
// rung, so another answer): all-4-right must be equal given the same
// answers, so it may differ by at most changed emails.
func disagreements(a, b scoring.Summary, changed int, tolerance float64) []string {
	var out []string
	served := func(name string, x, y int) {
		if d := x - y; d > servedTolerance || d < -servedTolerance {
			out = append(out, fmt.Sprintf("%s %d vs %d", name, x, y))
		}
	}
	served("primary", a.Served.Primary, b.Served.Primary)
	served("backup", a.Served.Backup, b.Served.Backup)
	served("canned", a.Served.Canned, b.Served.Canned)
	served("error", a.Served.Error, b.Served.Error)
	secs := func(name string, x, y *float64) {
		switch {
		case (x == nil) != (y == nil):
			out = append(out, fmt.Sprintf("%s %s vs %s", name, fmtp(x), fmtp(y)))
		case x != nil && math.Abs(*x-*y) > tolerance+1e-9:
			out = append(out, fmt.Sprintf("%s %.3f vs %.3f", name, *x, *y))
		}
	}
	// The p95 wait is not compared: it is about the 3rd-largest of some 50
	// waits, and one email whose SDK retry jitter lands it either side of
	// the outage's end moves it by half a second between two real-time runs.
	secs("median wait", a.MedianWaitOutageS, b.MedianWaitOutageS)
	secs("email 35 wait", a.Followed.WaitS, b.Followed.WaitS)
	secs("first open", a.BreakerFirstOpenS, b.BreakerFirstOpenS)
	n := float64(max(a.Emails, 1))
	if d := math.Abs(a.All4Right-b.All4Right) * n; math.Round(d) > float64(changed) {
		out = append(out, fmt.Sprintf("all 4 right %.4f vs %.4f with %d emails answered differently", a.All4Right, b.All4Right, changed))
	}
	return out
}

// changedAnswers counts the emails whose result (who served it, and the
// answer) differs between two runs' events.
func changedAnswers(a, b []event.Event) int {
	results := func(evs []event.Event) map[int]string {
		m := map[int]string{}
		for _, e := range evs {
			if e.Kind == event.EmailDone && e.Result != nil {
				m[e.Email] = fmt.Sprintf("%s %v", e.Result.ServedBy, e.Result.Answer)
				if e.Result.Answer != nil {
					m[e.Email] = fmt.Sprintf("%s %+v", e.Result.ServedBy, *e.Result.Answer)
				}
			}
		}
		return m
	}
	ra, rb := results(a), results(b)
	n := 0
	for id, r := range ra {
		if rb[id] != r {
			n++
		}
	}
	for id := range rb {
		if _, ok := ra[id]; !ok {
			n++
		}
	}
	return n
}

func fmtp(p *float64) string {
	if p == nil {
		return "—"
	}
	return fmt.Sprintf("%.3f", *p)
}

// band is an inclusive range.
type band struct{ lo, hi float64 }

func (b band) has(x float64) bool { return x >= b.lo && x <= b.hi }

// chapterBands are the engine issue's acceptance bands for the chapter's
// eight runs, as workload's TestChapterEightRuns checks them (with drill's
// own pins for the two backup cells its breaker rules move, explained there):
// backup served, errors, median wait in the outage, calls to the broken
// model, breaker first open (nil: never opens), all 4 right.
var chapterBands = []struct {
	backup, errors, median, calls band
	firstOpen                     *band
	all4                          band
}{
	{band{0, 0}, band{44, 50}, band{0.9, 1.8}, band{138, 152}, nil, band{0.52, 0.64}},
	{band{44, 50}, band{0, 0}, band{1.8, 3.2}, band{138, 152}, nil, band{0.80, 0.96}},
	{band{52, 68}, band{0, 0}, band{0.7, 1.6}, band{20, 40}, &band{2.8, 3.9}, band{0.80, 0.96}},
	{band{55, 70}, band{0, 0}, band{0.7, 1.6}, band{6, 15}, &band{1.5, 2.6}, band{0.80, 0.96}},
	{band{0, 0}, band{26, 31}, band{15.5, 17.0}, band{105, 125}, nil, band{0.68, 0.80}},
	{band{26, 31}, band{0, 0}, band{16.5, 18.5}, band{105, 125}, nil, band{0.80, 0.96}},
	{band{48, 56}, band{0, 0}, band{16.0, 18.5}, band{90, 112}, &band{17.6, 19.2}, band{0.80, 0.96}},
	{band{50, 60}, band{0, 0}, band{0.8, 2.0}, band{8, 16}, &band{4.0, 5.6}, band{0.80, 0.96}},
}

// checkBands checks a virtual compare's eight summaries against chapterBands.
func checkBands(t *testing.T, sums []scoring.Summary) {
	t.Helper()
	for i, s := range sums {
		b := chapterBands[i]
		name := s.Outage + "/" + s.Policy
		check := func(what string, got float64, want band) {
			if !want.has(got) {
				t.Errorf("%s: %s = %v, want %v–%v", name, what, got, want.lo, want.hi)
			}
		}
		check("backup served", float64(s.Served.Backup), b.backup)
		check("errors", float64(s.Served.Error), b.errors)
		check("median wait in outage", derefOr(s.MedianWaitOutageS, -1), b.median)
		check("calls to broken", float64(s.CallsToBrokenOutage), b.calls)
		check("all 4 right", s.All4Right, b.all4)
		switch {
		case b.firstOpen == nil && s.BreakerFirstOpenS != nil:
			t.Errorf("%s: breaker opened at %v, want never", name, *s.BreakerFirstOpenS)
		case b.firstOpen != nil:
			check("breaker first open", derefOr(s.BreakerFirstOpenS, -1), *b.firstOpen)
		}
	}
}

func derefOr(p *float64, def float64) float64 {
	if p == nil {
		return def
	}
	return *p
}

// TestDrillsMatchInProcessBubble: the chapter's eight drills through the
// child process land in the chapter's bands and agree with the same drills run by synctest.Test in this
// test process, the path workload's TestChapterEightRuns checks against the
// chapter's bands; every summary says clock virtual.
func TestDrillsMatchInProcessBubble(t *testing.T) {
	cfgs := chapterConfigs(t)
	jobs := recordedJobs(t, cfgs, t.TempDir())
	var stderr bytes.Buffer
	outs, err := Drills(t.Context(), jobs, 0, &stderr)
	if err != nil {
		t.Fatalf("Drills: %v (stderr %s)", err, stderr.String())
	}
	sums := make([]scoring.Summary, len(outs))
	for i, o := range outs {
		sums[i] = o.Summary
	}
	checkBands(t, sums)
	for i, cfg := range cfgs {
		var want scoring.Summary
		var events []event.Event
		synctest.Test(t, func(t *testing.T) {
			r, err := startFake(t.Context(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			r.Wait()
			want = scoring.Summarize(r.Log().Events())
			events = r.Log().Events()
		})
		got := outs[i]
		name := cfg.Outage + "/" + cfg.Policy.Name
		if got.Status != event.StatusCompleted || got.Summary.Clock != event.ClockVirtual {
			t.Errorf("%s: status %q clock %q, want completed, virtual", name, got.Status, got.Summary.Clock)
		}
		if got.Summary.Served.Total() != 120 {
			t.Errorf("%s: served %+v, want all 120", name, got.Summary.Served)
		}
		if d := disagreements(got.Summary, want, changedAnswers(journalEvents(t, jobs[i].Journal), events), jitterTolerance); len(d) > 0 {
			t.Errorf("%s: child and in-process bubble disagree: %v", name, d)
		}
	}
}

// TestDrillsRecordJournals: a recorded virtual run is a journal like any
// other: clock virtual in its header and summary, a clock event, virtual
// offsets, and the summary recomputed from its events equals the recorded one.
func TestDrillsRecordJournals(t *testing.T) {
	dir := t.TempDir()
	cfg := chapterConfigs(t)[7] // hang / fail-fast
	h, err := journal.NewHeader(cfg, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "v.jsonl")
	outs, err := Drills(t.Context(), []Job{{Config: cfg, Journal: path, Header: &h}}, 0, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	j, err := journal.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if j.Header.Clock != event.ClockVirtual {
		t.Errorf("header clock %q, want virtual", j.Header.Clock)
	}
	if len(j.Events) < 2 || j.Events[1].Kind != event.RunClock || j.Events[1].Detail != event.ClockVirtual {
		t.Errorf("the second event is not the virtual clock event: %+v", j.Events[:min(2, len(j.Events))])
	}
	if last := j.Events[len(j.Events)-1].At; last < 50*time.Second {
		t.Errorf("last offset %v: offsets are not the drill's virtual time (about a minute)", last)
	}
	sum, meta, err := journal.Summarize(path)
	if err != nil {
		t.Fatal(err)
	}
	if meta.Summary == nil || !reflect.DeepEqual(meta.Summary.Summary, sum) || sum.Clock != event.ClockVirtual {
		t.Errorf("recorded summary %+v, recomputed %+v", meta.Summary, sum)
	}
	if !reflect.DeepEqual(outs[0].Summary, sum) {
		t.Errorf("outcome %+v, journal %+v", outs[0].Summary, sum)
	}
}

func TestCheckConfig(t *testing.T) {
	for _, cfg := range chapterConfigs(t) {
		if err := CheckConfig(cfg); err != nil {
			t.Errorf("%s/%s: %v", cfg.Outage, cfg.Policy.Name, err)
		}
	}
	cfg := workload.DefaultConfig()
	cfg.Endpoint.BaseURL = "http://127.0.0.1:1/v1"
	if err := CheckConfig(cfg); !errors.Is(err, ErrNotVirtual) {
		t.Errorf("base URL: %v, want ErrNotVirtual", err)
	}
	cfg = workload.DefaultConfig()
	cfg.Endpoint.Transport = http.DefaultTransport
	if err := CheckConfig(cfg); !errors.Is(err, ErrNotVirtual) {
		t.Errorf("transport: %v, want ErrNotVirtual", err)
	}
	if _, err := Drills(t.Context(), []Job{{Config: cfg}}, 0, &bytes.Buffer{}); !errors.Is(err, ErrNotVirtual) {
		t.Errorf("Drills with a transport: %v, want ErrNotVirtual", err)
	}
}

// Bodies the tests below call in the child.
func init() {
	Register("test-echo", func(_ context.Context, in []byte, out io.Writer) error {
		time.Sleep(time.Hour) // virtual: returns at once
		_, err := out.Write(in)
		return err
	})
	Register("test-exit-code", func(context.Context, []byte, io.Writer) error { return exitErr{} })
	Register("test-leak", func(context.Context, []byte, io.Writer) error {
		go func() { <-make(chan struct{}) }() // blocked for good in the bubble
		return nil
	})
	Register("test-wait-interrupt", func(ctx context.Context, _ []byte, out io.Writer) error {
		<-ctx.Done()
		_, err := fmt.Fprint(out, "stopped")
		return err
	})
}

type exitErr struct{}

func (exitErr) Error() string { return "bad flag" }
func (exitErr) ExitCode() int { return 2 }

func TestCallEcho(t *testing.T) {
	var out bytes.Buffer
	start := time.Now()
	if err := Call(t.Context(), "test-echo", "hello", &out, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	if out.String() != `"hello"` {
		t.Errorf("output %q", out.String())
	}
	if time.Since(start) > 30*time.Minute {
		t.Errorf("an hour's sleep took real time")
	}
}

func TestCallKeepsExitCode(t *testing.T) {
	err := Call(t.Context(), "test-exit-code", nil, &bytes.Buffer{}, &bytes.Buffer{})
	var e *Error
	if !errors.As(err, &e) || e.Code != 2 || e.Message != "bad flag" {
		t.Errorf("error %#v, want code 2, bad flag", err)
	}
}

// TestCallLeakFails: a goroutine left blocked in the bubble fails the call
// (synctest's deadlock report) instead of outliving the body.
func TestCallLeakFails(t *testing.T) {
	err := Call(t.Context(), "test-leak", nil, &bytes.Buffer{}, &bytes.Buffer{})
	if err == nil {
		t.Fatal("a body that leaks a goroutine succeeded")
	}
	t.Logf("error: %v", err)
}

func TestCallUnknownBody(t *testing.T) {
	if err := Call(t.Context(), "no-such-body", nil, &bytes.Buffer{}, &bytes.Buffer{}); err == nil {
		t.Fatal("unknown body accepted")
	}
}

// TestCallInterrupt: ending Call's context interrupts the child, whose
// bubble sees its context end within a poll.
func TestCallInterrupt(t *testing.T) {
	var mu sync.Mutex
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	var out bytes.Buffer
	err := Call(ctx, "test-wait-interrupt", nil, &lockedWriter{w: &out, mu: &mu}, &bytes.Buffer{})
	mu.Lock()
	defer mu.Unlock()
	if err != nil || out.String() != "stopped" {
		t.Errorf("err %v, output %q; want the body stopped by the interrupt", err, out.String())
	}
}

// TestWatchStop: the stop flag ends the bubble's context within one poll of
// virtual time.
func TestWatchStop(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var stop atomic.Bool
		ctx, done := watchStop(t.Context(), &stop)
		defer done()
		time.Sleep(time.Second)
		if ctx.Err() != nil {
			t.Fatal("context ended without a stop")
		}
		stop.Store(true)
		start := time.Now()
		<-ctx.Done()
		if d := time.Since(start); d > PollInterval {
			t.Errorf("stopped after %v, want within %v", d, PollInterval)
		}
	})
}

// lockedWriter serialises writes to w with mu.
type lockedWriter struct {
	w  io.Writer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// TestDrillsInterrupted: a Drills call whose context has ended stops every
// drill as Ctrl-C does, at the first poll of virtual time, without a race
// against the clock: status interrupted, in-flight emails cancelled, and
// the partial summaries still come back.
func TestDrillsInterrupted(t *testing.T) {
	cfg := chapterConfigs(t)[6] // hang / breaker
	jobs := make([]Job, 48)
	for i := range jobs {
		jobs[i] = Job{Config: cfg}
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	outs, err := Drills(ctx, jobs, 0, &bytes.Buffer{})
	if err != nil {
		t.Fatalf("Drills after Ctrl-C: %v, want the interrupted drills' outcomes", err)
	}
	if len(outs) != len(jobs) {
		t.Fatalf("%d outcomes for %d drills", len(outs), len(jobs))
	}
	for i, o := range outs {
		if o.Status != event.StatusInterrupted {
			t.Errorf("drill %d: status %s, want interrupted", i+1, o.Status)
		}
		if o.Summary.Served.Total() == 120 && o.Summary.Served.Error == 0 {
			t.Errorf("drill %d: an interrupted drill served every email: %+v", i+1, o.Summary.Served)
		}
	}
}

// startFake starts a drill against the built-in fake model, in-process,
// as drill run does.
func startFake(ctx context.Context, cfg workload.Config) (*workload.Run, error) {
	cfg.Endpoint.Transport = fakemodel.New(fakemodel.Options{Seed: cfg.Seed, LatencyScale: 1}).Transport()
	return workload.Start(ctx, cfg)
}

// TestCallInterruptDuringStartup: an interrupt that comes while the child
// is still starting (before it can catch signals) is not lost and does not
// kill it: the body runs, sees the stop, and says how far it got. Before,
// such an interrupt killed the child (exit 1 from drill, 2 of 64 tries)
// and made TestCallInterrupt flaky under load.
func TestCallInterruptDuringStartup(t *testing.T) {
	for _, after := range []time.Duration{0, time.Millisecond, 3 * time.Millisecond, 8 * time.Millisecond} {
		var mu sync.Mutex
		var out bytes.Buffer
		ctx, cancel := context.WithCancel(t.Context())
		started := make(chan struct{})
		go func() {
			<-started
			time.Sleep(after)
			cancel()
		}()
		err := callStarted(ctx, "test-wait-interrupt", nil, &lockedWriter{w: &out, mu: &mu}, &bytes.Buffer{}, func() { close(started) })
		cancel()
		mu.Lock()
		if err != nil || out.String() != "stopped" {
			t.Errorf("interrupt %v after the start: err %v, output %q; want the body stopped", after, err, out.String())
		}
		mu.Unlock()
	}
}

// TestCallAfterCancel: a context that ended before Call (a Ctrl-C while a
// baseline played first) still runs the body, stopped at once, so that it
// says how far it got. Before, the child was never started ("context
// canceled"): drill exited 1 and wrote no journal.
func TestCallAfterCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	var mu sync.Mutex
	var out bytes.Buffer
	err := Call(ctx, "test-wait-interrupt", nil, &lockedWriter{w: &out, mu: &mu}, &bytes.Buffer{})
	mu.Lock()
	defer mu.Unlock()
	if err != nil || out.String() != "stopped" {
		t.Errorf("err %v, output %q; want the body run and stopped at once", err, out.String())
	}
}
