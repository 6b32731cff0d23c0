package vclock

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/livefold"
	"github.com/drill-dev/drill/internal/predict"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

// drillsBody is the name Drills registers its body under.
const drillsBody = "drills"

func init() { Register(drillsBody, runDrills) }

// Job is one drill to run in virtual time.
type Job struct {
	// Config is the drill. It must use the built-in fake model (no
	// Endpoint.BaseURL): see CheckConfig.
	Config workload.Config `json:"config"`
	// Journal, if set, is the file the run is recorded to, with Header as
	// its first line (Header.Clock is set to "virtual").
	Journal string          `json:"journal,omitempty"`
	Header  *journal.Header `json:"header,omitempty"`
	// Hypotheses are the drill's hypotheses (`figure op value`), judged
	// at the end and written on the journal's summary line, as a
	// real-time run records them.
	Hypotheses []string `json:"hypotheses,omitempty"`
	// Baseline, if set, is the drill's baseline over its whole run (played
	// before it): a drill that completes carries it on its summary and its
	// journal's summary line, as a real-time run records its own.
	Baseline *scoring.BaselineSummary `json:"baseline,omitempty"`
	// Answers asks for the run's per-email answers in its outcome
	// (All4ByEmail): a sweep's front rule pairs its settings' first
	// repeats; other drills leave them out.
	Answers bool `json:"answers,omitempty"`
}

// Outcome is how one job's drill ended.
type Outcome struct {
	Summary scoring.Summary `json:"summary"`
	// Status is completed, interrupted (Ctrl-C) or failed (the drill did
	// not start; Error says why).
	Status string `json:"status"`
	// Failed counts, per rung and outcome, the calls that did not answer.
	Failed map[string]map[event.Outcome]int `json:"failed,omitempty"`
	// Error says why a failed drill did not start or could not be recorded.
	Error string `json:"error,omitempty"`
	// Ended is how the run ended, its run_end detail ("aborted: max spend
	// ..." when a safeguard of its own stopped it).
	Ended string `json:"ended,omitempty"`
	// All4ByEmail maps each email the run answered to whether all four
	// fields were right (scoring.Fold.All4ByAnswered), when its job asked
	// (Answers): the pairs a sweep's front rule tests, as the dashboard and
	// the report do.
	All4ByEmail map[int]bool `json:"all4_by_email,omitempty"`
}

// NewOutcome is the outcome of job's drill that ran: its summary sum (the
// fold's, with anything the caller adds), its status, and the rest read
// from its fold f.
func NewOutcome(job Job, f *scoring.Fold, sum scoring.Summary, status string) Outcome {
	o := Outcome{Summary: sum, Status: status, Failed: f.FailedCalls(), Ended: f.Ended()}
	if job.Answers {
		o.All4ByEmail = f.All4ByAnswered()
	}
	return o
}

// ErrNotVirtual means a drill cannot run in virtual time: it would wait on
// a real socket, which a synctest bubble cannot do.
var ErrNotVirtual = errors.New("--clock virtual runs the drill in a testing/synctest bubble, which cannot wait on real sockets")

// CheckConfig reports whether cfg can run in virtual time: it must use the
// built-in fake model in-process, and survive the trip to the child process
// (its JSON form) unchanged.
func CheckConfig(cfg workload.Config) error {
	if cfg.Endpoint.BaseURL != "" || cfg.Endpoint.Transport != nil {
		return fmt.Errorf("%w: it can only use the built-in fake model, not %s; use --clock real", ErrNotVirtual, endpointName(cfg.Endpoint))
	}
	for rung, ep := range cfg.RungEndpoints {
		if ep.BaseURL != "" {
			return fmt.Errorf("%w: it can only use the built-in fake model, not the %s's %s; use --clock real", ErrNotVirtual, rung, ep.BaseURL)
		}
	}
	raw, err := json.Marshal(cfg)
	if err != nil {
		return fmt.Errorf("encoding the drill for the virtual clock: %w", err)
	}
	var back workload.Config
	if err := json.Unmarshal(raw, &back); err != nil {
		return fmt.Errorf("decoding the drill for the virtual clock: %w", err)
	}
	if !reflect.DeepEqual(cfg, back) {
		return fmt.Errorf("the drill's settings do not survive encoding for the virtual-clock process (a setting without a JSON form): %s", raw)
	}
	return nil
}

func endpointName(e workload.Endpoint) string {
	if e.BaseURL != "" {
		return "--base-url " + e.BaseURL
	}
	return "a custom transport"
}

// Drills runs every job's drill in virtual time and returns their outcomes
// in the order of jobs: the one entry point for `drill run`, `drill compare`
// and `drill sweep` with `--clock virtual`. At most parallel drills run at
// once (0: DefaultParallel, sized to memory), dealt to one child process
// per CPU (CallJobs); each drill starts its own offsets at its own start.
// When ctx ends, the drills in flight stop as on Ctrl-C (status
// interrupted) and those not started are not run (status interrupted,
// empty summary).
func Drills(ctx context.Context, jobs []Job, parallel int, stderr io.Writer) ([]Outcome, error) {
	for i, j := range jobs {
		if err := CheckConfig(j.Config); err != nil {
			return nil, fmt.Errorf("drill %d: %w", i+1, err)
		}
		if j.Journal != "" && j.Header == nil {
			return nil, fmt.Errorf("drill %d: a journal needs a header", i+1)
		}
	}
	return CallJobs[Job, Outcome](ctx, drillsBody, jobs, parallel, stderr)
}

// runDrills is Drills' body, in the bubble.
func runDrills(ctx context.Context, in []byte, out io.Writer) error {
	b, err := decodeBatch[Job](in)
	if err != nil {
		return err
	}
	if smallDrills(b.Jobs) {
		setGCPercent(batchGCPercent)
	}
	return runBatch(ctx, b, out, runOne, Outcome{Status: event.StatusInterrupted})
}

// runOne runs one drill to its end, recording it if asked.
func runOne(ctx context.Context, job Job) Outcome {
	cfg := job.Config
	// CheckConfig let only the built-in fake model through: wire it
	// in-process, seeded by the run's seed, as a real-time run does.
	cfg.Endpoint.Transport = fakemodel.New(fakemodel.Options{Seed: cfg.Seed, LatencyScale: 1}).Transport()
	cfg.Predicted = predict.ForRun(ctx, cfg) // logged in run_start: the summary's predicted_* keys
	cfg.Clock = event.ClockVirtual           // logged right after run_start, before any arrival
	run, err := workload.Start(ctx, cfg)
	if err != nil {
		return Outcome{Status: event.StatusFailed, Error: err.Error()}
	}
	live := livefold.Follow(run.Log())
	var rec *journal.Writer
	if job.Journal != "" {
		h := *job.Header
		h.Clock = event.ClockVirtual
		rec, err = journal.Create(job.Journal, h, run.Log(), journal.Options{})
		if err != nil {
			run.Stop()
			<-run.Done()
			return Outcome{Status: event.StatusFailed, Error: err.Error()}
		}
	}
	// Every reader is attached (the live fold, the journal writer): the log
	// may drop what both have read, so memory does not grow with the drill.
	run.Log().Release()
	status := run.Wait()
	fold := live.Wait()
	sum := fold.Summary()
	if status == event.StatusCompleted {
		sum.Baseline = job.Baseline // whole runs compared whole
	}
	o := NewOutcome(job, fold, sum, status)
	if rec != nil {
		if err := finishJournal(rec, sum, status, job.Hypotheses); err != nil {
			o.Error = fmt.Sprintf("recording %s: %v", job.Journal, err)
		}
	}
	return o
}

// finishJournal writes the summary line with the hypotheses judged on it.
func finishJournal(rec *journal.Writer, sum scoring.Summary, status string, hypotheses []string) error {
	exprs, err := scoring.ParseExprs(hypotheses)
	if err != nil {
		return errors.Join(err, rec.Finish(sum, status))
	}
	vs, err := scoring.JudgeSummary(sum, exprs)
	if err != nil {
		return errors.Join(err, rec.Finish(sum, status))
	}
	return rec.FinishJudged(sum, status, vs)
}
