package workload

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/drill-dev/drill/chain"
	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/scoring"
)

// band is an inclusive range a measured figure must land in.
type band struct{ lo, hi float64 }

func (b band) has(x float64) bool { return x >= b.lo && x <= b.hi }

// chapterRow is one row of the chapter's eight-run table, as bands (the
// engine issue's acceptance table).
type chapterRow struct {
	outage, policy string
	backup, errors band
	medianWait     band
	calls          band
	firstOpen      *band // nil: the breaker must never open
	all4           band
	marcus         *band // hang rows: email 35's wait
	marcusServedBy string
	// ours, when set, replaces the backup band: the row's backup count
	// differs from the chapter's for a mechanical reason given in why.
	ours *band
	why  string
}

// Two rows serve more emails from the backup than the chapter did, because
// drill's breaker follows the engine issue's rules where the chapter's lab
// breaker did not (measured by switching each rule off in turn: with it
// off, the row lands in the chapter's band and the other row leaves it).
const (
	whySingleProbe = "half-open lets exactly one probe through; the probe sent at 38.5 s starts inside the hang, " +
		"waits 5 s, retries after the outage and closes the breaker at about 45 s, so every email in between goes to " +
		"the backup. The chapter's breaker let all callers through when half-open (emails sent from 38.4 s retried " +
		"into a healthy primary), which gives 44"
	whyGeneration = "the generation counter drops failures of calls that started before the trip, so they do not " +
		"re-arm the 5 s cooldown; the breaker probes at 40.5 s and closes at 41.6 s. Counting those stale " +
		"failures, as the chapter's breaker did, keeps it open until about 46 s and gives 58-72"
)

var chapterRows = []chapterRow{
	{"busy", "primary-only", band{0, 0}, band{44, 50}, band{0.9, 1.8}, band{138, 152}, nil, band{0.52, 0.64}, nil, "", nil, ""},
	{"busy", "fallback", band{44, 50}, band{0, 0}, band{1.8, 3.2}, band{138, 152}, nil, band{0.80, 0.96}, nil, "", nil, ""},
	{"busy", "breaker", band{52, 68}, band{0, 0}, band{0.7, 1.6}, band{20, 40}, &band{2.8, 3.9}, band{0.80, 0.96}, nil, "", nil, ""},
	{"busy", "fail-fast", band{55, 70}, band{0, 0}, band{0.7, 1.6}, band{6, 15}, &band{1.5, 2.6}, band{0.80, 0.96}, nil, "", nil, ""},
	{"hang", "primary-only", band{0, 0}, band{26, 31}, band{15.5, 17.0}, band{105, 125}, nil, band{0.68, 0.80}, &band{15.5, 17.0}, "error", nil, ""},
	{"hang", "fallback", band{26, 31}, band{0, 0}, band{16.5, 18.5}, band{105, 125}, nil, band{0.80, 0.96}, &band{16.8, 19.0}, "backup", nil, ""},
	{"hang", "breaker", band{38, 50}, band{0, 0}, band{16.0, 18.5}, band{90, 112}, &band{17.6, 19.2}, band{0.80, 0.96}, &band{16.5, 19.0}, "backup", &band{48, 56}, whySingleProbe},
	{"hang", "fail-fast", band{58, 72}, band{0, 0}, band{0.8, 2.0}, band{8, 16}, &band{4.0, 5.6}, band{0.80, 0.96}, &band{3.5, 5.0}, "backup", &band{50, 60}, whyGeneration},
}

// runDrill runs cfg to its end inside the current synctest bubble.
func runDrill(t *testing.T, cfg Config) (scoring.Summary, string, []event.Event) {
	t.Helper()
	r, err := Start(t.Context(), cfg)
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	return finish(t, r)
}

// finish waits for r to end and folds its log.
func finish(t *testing.T, r *Run) (scoring.Summary, string, []event.Event) {
	t.Helper()
	status := r.Wait()
	evs := r.Log().Events()
	return scoring.Summarize(evs), status, evs
}

// fakeConfig is DefaultConfig against the built-in fake model, in-process
// (the wiring cmd/drill does).
func fakeConfig() Config {
	cfg := DefaultConfig()
	cfg.Endpoint.Transport = fakemodel.New(fakemodel.Options{Seed: cfg.Seed, LatencyScale: 1}).Transport()
	return cfg
}

func chapterConfig(t *testing.T, outage, policy string) Config {
	t.Helper()
	cfg := fakeConfig()
	p, err := Preset(policy)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Outage, cfg.Policy = outage, p
	return cfg
}

// TestChapterEightRuns replays the chapter's lab drill eight ways in fake
// time and checks every row against the acceptance bands.
func TestChapterEightRuns(t *testing.T) {
	for _, row := range chapterRows {
		t.Run(row.outage+"/"+row.policy, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s, status, _ := runDrill(t, chapterConfig(t, row.outage, row.policy))
				if status != event.StatusCompleted {
					t.Errorf("status %s, want completed", status)
				}
				check := func(name string, got float64, b band) {
					if !b.has(got) {
						t.Errorf("%s = %v, want %v–%v", name, got, b.lo, b.hi)
					}
				}
				if s.Served.Total() != s.Emails || s.Emails != 120 {
					t.Errorf("served %+v adds up to %d, want all %d emails", s.Served, s.Served.Total(), s.Emails)
				}
				if row.ours != nil {
					t.Logf("backup served %d (chapter band %v–%v): %s", s.Served.Backup, row.backup.lo, row.backup.hi, row.why)
					check("backup served", float64(s.Served.Backup), *row.ours)
				} else {
					check("backup served", float64(s.Served.Backup), row.backup)
				}
				check("errors", float64(s.Served.Error), row.errors)
				check("median wait in outage", deref(s.MedianWaitOutageS), row.medianWait)
				check("calls to broken", float64(s.CallsToBrokenOutage), row.calls)
				check("all 4 right", s.All4Right, row.all4)
				if row.firstOpen == nil {
					if s.BreakerFirstOpenS != nil {
						t.Errorf("breaker first open = %v, want null", *s.BreakerFirstOpenS)
					}
				} else {
					check("breaker first open", derefOr(s.BreakerFirstOpenS, -1), *row.firstOpen)
				}
				if row.marcus != nil {
					check("email 35 wait", derefOr(s.Followed.WaitS, -1), *row.marcus)
					if s.Followed.ServedBy != row.marcusServedBy {
						t.Errorf("email 35 served by %q, want %q", s.Followed.ServedBy, row.marcusServedBy)
					}
				}
				t.Logf("summary: %s", summaryLine(s))
			})
		})
	}
}

func deref(p *float64) float64 { return derefOr(p, -1) }

func derefOr(p *float64, def float64) float64 {
	if p == nil {
		return def
	}
	return *p
}

func summaryLine(s scoring.Summary) string {
	return fmt.Sprintf("%s/%s served %+v all4 %.3f median %.2f p95 %.2f calls %d firstOpen %.2f opens %d back %.2f marcus %s %.2f wall %.1f",
		s.Outage, s.Policy, s.Served, s.All4Right, deref(s.MedianWaitOutageS), deref(s.P95WaitOutageS),
		s.CallsToBrokenOutage, deref(s.BreakerFirstOpenS), s.BreakerOpens, deref(s.PrimaryBackS),
		s.Followed.ServedBy, deref(s.Followed.WaitS), s.WallS)
}

// TestTimeLimitScopes pins what DESIGN.md measured: with the limit on the
// HTTP client (attempt scope) the SDK retries a hang, three attempts; as
// the SDK's request timeout it is not retried.
func TestTimeLimitScopes(t *testing.T) {
	for _, tc := range []struct {
		scope    string
		attempts int
		wait     band
	}{
		{"attempt", 3, band{16.1, 16.6}},
		{"request", 1, band{5.0, 5.1}},
	} {
		t.Run(tc.scope, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				cfg := chapterConfig(t, "hang", "primary-only")
				cfg.Emails, cfg.OutageFrom, cfg.OutageTo, cfg.Follow = 1, 0, time.Minute, 1
				cfg.Policy.Scope = chain.Scope(tc.scope)
				s, _, evs := runDrill(t, cfg)
				attempts := 0
				for _, e := range evs {
					if e.Kind == event.AttemptStart {
						attempts++
					}
				}
				if attempts != tc.attempts {
					t.Errorf("%d attempts, want %d", attempts, tc.attempts)
				}
				if w := deref(s.Followed.WaitS); !tc.wait.has(w) || s.Followed.ServedBy != event.ServedError {
					t.Errorf("email failed after %v s served by %q, want an error after %v–%v s", w, s.Followed.ServedBy, tc.wait.lo, tc.wait.hi)
				}
				if s.TimeLimitScope != tc.scope {
					t.Errorf("summary names scope %q, want %q", s.TimeLimitScope, tc.scope)
				}
			})
		})
	}
}

// TestStopCancelsHungRequests stops a drill mid-hang: it ends at once,
// in-flight emails are errors, and no goroutine outlives the run (synctest
// fails the test if one is left blocked).
func TestStopCancelsHungRequests(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, err := Start(t.Context(), chapterConfig(t, "hang", "fallback"))
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(20*time.Second + 250*time.Millisecond)
		stoppedAt := time.Since(r.Log().Start())
		r.Stop()
		s, status, _ := finish(t, r)
		if status != event.StatusInterrupted {
			t.Errorf("status %s, want interrupted", status)
		}
		if end := time.Since(r.Log().Start()); end != stoppedAt {
			t.Errorf("run took %s after Stop to end, want no time at all", end-stoppedAt)
		}
		if s.Served.Cancelled == 0 || s.Served.Error != 0 {
			t.Errorf("stopping mid-hang: served %+v, want the hung emails cancelled, none an error", s.Served)
		}
		if s.Served.Total() != 41 || s.EmailsSent != 41 {
			t.Errorf("done %d, sent %d emails, want the 41 sent in 20 s", s.Served.Total(), s.EmailsSent)
		}
		if s.Status != event.StatusInterrupted || s.NotSent != 120-41 || s.NotSentReason != event.NotSentStopped {
			t.Errorf("summary status %q, not sent %d (%q); want interrupted, 79 not sent, run stopped", s.Status, s.NotSent, s.NotSentReason)
		}
		if s.EmailsAnswered != 41-s.Served.Cancelled || s.NeverAnswered != s.Served.Cancelled {
			t.Errorf("answered %d, never answered %d, cancelled %d", s.EmailsAnswered, s.NeverAnswered, s.Served.Cancelled)
		}
	})
}

// TestCeilingCancelsInFlight: a run's ceiling cancels anything still in
// flight and counts it as an error.
func TestCeilingCancelsInFlight(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := chapterConfig(t, "hang", "primary-only")
		cfg.Policy.Primary.TimeLimit = 0 // the SDK default: wait forever
		cfg.Emails, cfg.Follow, cfg.MaxDuration = 4, 1, 30*time.Second
		cfg.OutageFrom = 0
		s, status, evs := runDrill(t, cfg)
		if status != event.StatusAborted || s.Status != event.StatusAborted || s.Served.Cancelled != 4 || s.Served.Error != 0 {
			t.Fatalf("status %s (summary %s), served %+v; want aborted with 4 cancelled", status, s.Status, s.Served)
		}
		if last := evs[len(evs)-1]; last.Kind != event.RunEnd || last.At != 30*time.Second {
			t.Errorf("run ended with %s at %s, want run_end at the 30s ceiling", last.Kind, last.At)
		}
	})
}

// TestContextCancelIsInterrupted: Ctrl-C reaches the run through its context.
func TestContextCancelIsInterrupted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		r, err := Start(ctx, chapterConfig(t, "busy", "breaker"))
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(10 * time.Second)
		cancel()
		status := r.Wait()
		if status != event.StatusInterrupted {
			t.Errorf("status %s, want interrupted", status)
		}
	})
}

func TestOutageByHandAndPause(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := chapterConfig(t, "none", "breaker")
		cfg.Emails, cfg.Follow = 20, 1
		r, err := Start(t.Context(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(2 * time.Second)
		if err := r.StartOutage("busy"); err != nil {
			t.Fatal(err)
		}
		if err := r.StartOutage("hang"); err == nil {
			t.Error("a second outage started while one is active")
		}
		time.Sleep(4 * time.Second)
		r.EndOutage()
		r.Pause()
		time.Sleep(5 * time.Second)
		r.Resume()
		s, _, evs := finish(t, r)
		var kinds []event.Kind
		for _, e := range evs {
			if e.Kind == event.OutageStart || e.Kind == event.OutageEnd || e.Kind == event.Paused || e.Kind == event.Resumed {
				kinds = append(kinds, e.Kind)
			}
		}
		want := []event.Kind{event.OutageStart, event.OutageEnd, event.Paused, event.Resumed}
		if fmt.Sprint(kinds) != fmt.Sprint(want) {
			t.Errorf("events %v, want %v", kinds, want)
		}
		if s.CallsToBrokenOutage == 0 || s.Served.Total() != 20 {
			t.Errorf("outage by hand: calls to broken %d, served %+v", s.CallsToBrokenOutage, s.Served)
		}
		// 20 emails at 2/s take 9.5 s; the 5 s pause pushes the last one out.
		var lastSent time.Duration
		for _, e := range evs {
			if e.Kind == event.EmailSent {
				lastSent = e.At
			}
		}
		if lastSent < 14*time.Second {
			t.Errorf("last email sent at %s: the pause did not hold arrivals", lastSent)
		}
	})
}
