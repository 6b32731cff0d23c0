package session

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/chat"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/plan"
	"github.com/drill-dev/drill/internal/sweep"
	"github.com/drill-dev/drill/internal/vclock"
	"github.com/drill-dev/drill/scoring"
)

// chatBody is the name the chat drills' virtual-clock body is registered
// under.
const chatBody = "chat-drills"

func init() { vclock.Register(chatBody, runChatDrills) }

// ChatJob is one chat drill: its configuration (the built-in fake model's
// agent and the in-process services are wired where it runs) and, if
// Journal is set, the journal it is recorded to.
type ChatJob struct {
	Config  chat.Config `json:"config"`
	Journal string      `json:"journal,omitempty"`
	// Started is the wall-clock time the drill was asked for, the
	// journal header's start: in a virtual-time bubble the clock starts
	// at a fixed fake date, which is no run date. Zero: the run's start.
	Started time.Time `json:"started,omitzero"`
	// Hypotheses are the drill's checks on its figures (`figure op
	// value`, scoring.ParseChatExpr), judged at its end into the
	// summary's hypotheses and the journal's summary line.
	Hypotheses []string `json:"hypotheses,omitempty"`
}

// ChatOutcome is how one chat drill ended: its figures and status, or why
// it did not run.
type ChatOutcome struct {
	Summary scoring.ChatSummary `json:"summary"`
	Status  string              `json:"status"`
	Error   string              `json:"error,omitempty"`
}

// ChatDrills runs every job's chat drill, in virtual time when virtual is
// set (child processes, one per CPU, at most as many drills at once as
// memory holds: vclock.CallJobs), and returns their outcomes in the order
// of jobs.
func ChatDrills(ctx context.Context, jobs []ChatJob, virtual bool, stderr io.Writer) ([]ChatOutcome, error) {
	if !virtual {
		// Real time takes the drills' whole length: say how far they are.
		var mu sync.Mutex
		var runs []*chat.Run
		total := 0
		for _, j := range jobs {
			total += j.Config.Conversations
		}
		stop := StartProgress(stderr, "chat", "conversations", total, func() int {
			mu.Lock()
			defer mu.Unlock()
			n := 0
			for _, r := range runs {
				n += r.Ended()
			}
			return n
		})
		defer stop()
		return runChatJobs(ctx, jobs, event.ClockReal, func(r *chat.Run) {
			mu.Lock()
			runs = append(runs, r)
			mu.Unlock()
		}), nil
	}
	now := time.Now()
	jobs = slices.Clone(jobs)
	for i := range jobs {
		if jobs[i].Started.IsZero() {
			jobs[i].Started = now
		}
	}
	outs, err := vclock.CallJobs[ChatJob, ChatOutcome](ctx, chatBody, jobs, 0, stderr)
	if err != nil {
		return nil, FromChild(err)
	}
	return outs, nil
}

// ChatShow shows a live chat drill by following its log until the user
// quits (tui.LiveChat).
type ChatShow func(ctx context.Context, log *event.Log) error

// ShownChatDrill runs one chat drill on the real clock while show shows
// it. Quitting show stops the drill if it is still going (its status is
// then interrupted, and its journal is finished all the same); once the
// drill ends, show stays until the user quits. The error is show's.
func ShownChatDrill(ctx context.Context, job ChatJob, show ChatShow) (ChatOutcome, error) {
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	var showErr error
	shown := make(chan struct{})
	started := false
	o := runChat(runCtx, job, event.ClockReal, func(r *chat.Run) {
		started = true
		go func() {
			defer close(shown)
			showErr = show(ctx, r.Log())
			stop() // the user quit: the drill stops with the dashboard
		}()
	})
	if started {
		<-shown
	}
	return o, showErr
}

// runChatDrills is ChatDrills' body in the bubble.
func runChatDrills(ctx context.Context, in []byte, out io.Writer) error {
	return vclock.RunBatch(ctx, in, out, func(ctx context.Context, job ChatJob) ChatOutcome {
		return runChat(ctx, job, event.ClockVirtual, nil)
	}, ChatOutcome{Status: event.StatusInterrupted})
}

// runChatJobs runs the jobs at once on this clock; started, if set, is
// told each run before it starts.
func runChatJobs(ctx context.Context, jobs []ChatJob, clock string, started func(*chat.Run)) []ChatOutcome {
	outs := make([]ChatOutcome, len(jobs))
	var wg sync.WaitGroup
	for i, job := range jobs {
		wg.Go(func() { outs[i] = runChat(ctx, job, clock, started) })
	}
	wg.Wait()
	return outs
}

// runChat runs one chat drill on this clock against the built-in fake
// model's agent and the in-process services, recording it if the job says
// so, and folds its log; started, if set, is told the run before it starts.
func runChat(ctx context.Context, job ChatJob, clock string, started func(*chat.Run)) ChatOutcome {
	cfg := job.Config
	cfg.Clock = clock
	cfg.Models = fakemodel.New(fakemodel.Options{Seed: cfg.Seed, LatencyScale: 1}).Transport()
	run, err := chat.New(cfg)
	if err != nil {
		return ChatOutcome{Status: event.StatusFailed, Error: err.Error()}
	}
	var rec *journal.Writer
	if job.Journal != "" {
		start := run.Log().Start()
		if !job.Started.IsZero() {
			start = job.Started
		}
		h, err := journal.NewHeader(run.Config(), start)
		if err == nil {
			h.Clock = clock
			rec, err = journal.Create(job.Journal, h, run.Log(), journal.Options{})
		}
		if err != nil {
			return ChatOutcome{Status: event.StatusFailed, Error: err.Error()}
		}
	}
	if started != nil {
		started(run)
	}
	status := run.Start(ctx)
	sum := scoring.FoldChat(run.Log().Events())
	o := ChatOutcome{Status: status}
	if err := JudgeChat(&sum, job.Hypotheses); err != nil {
		o.Error = err.Error()
	}
	o.Summary = sum
	if rec != nil {
		if err := rec.FinishChat(sum, status); err != nil {
			o.Error = fmt.Sprintf("recording %s: %v", job.Journal, err)
		}
	}
	return o
}

// ChatSweep runs every drill of a chat sweep's rows at once (in one bubble
// with virtual), recording each to recordDir if set (journal.SweepRunPath;
// existing journals refused unless force), and tabulates them with the
// chat figures as columns. The outcomes, row by row and repeat by repeat,
// give the exit codes.
func ChatSweep(ctx context.Context, g sweep.Grid, rows []plan.ChatSweepRow, virtual bool, recordDir string, force bool, stderr io.Writer) (*sweep.ChatResult, []ChatOutcome, error) {
	var jobs []ChatJob
	if recordDir != "" {
		if err := journal.PrepareDir(recordDir); err != nil {
			return nil, nil, err
		}
	}
	for i, row := range rows {
		for r, cfg := range row.Configs {
			j := ChatJob{Config: cfg}
			if recordDir != "" {
				j.Journal = journal.SweepRunPath(recordDir, i, r, "chat-"+cfg.Incident, cfg.Policy.Name) // FileSafe makes the names file names
				if err := journal.CheckRecord(j.Journal, force); err != nil {
					return nil, nil, err
				}
			}
			jobs = append(jobs, j)
		}
	}
	start := time.Now()
	outs, err := ChatDrills(ctx, jobs, virtual, stderr)
	if err != nil {
		return nil, nil, err
	}
	wall := time.Since(start)
	settings := make([]sweep.Setting, len(rows))
	runs := make([][]sweep.ChatRan, len(rows))
	k := 0
	for i, row := range rows {
		settings[i] = row.Setting
		for _, cfg := range row.Configs {
			runs[i] = append(runs[i], sweep.ChatRan{Seed: cfg.Seed, Status: outs[k].Status, Summary: outs[k].Summary, Journal: jobs[k].Journal})
			k++
		}
	}
	return sweep.TabulateChat(g, settings, runs, clockName(virtual), wall.Seconds()), outs, nil
}

// JudgeChat judges a chat drill's checks (`figure op value`) on sum into
// sum.Hypotheses: the one place they are judged, at a live run's end and
// on a replay's recomputed figures. The error is a check that does not
// parse.
func JudgeChat(sum *scoring.ChatSummary, hypotheses []string) error {
	sum.Hypotheses = nil
	if len(hypotheses) == 0 {
		return nil
	}
	exprs, err := scoring.ParseChatExprs(hypotheses)
	if err != nil {
		return fmt.Errorf("the chat drill's hypotheses: %w", err)
	}
	sum.Hypotheses, err = scoring.JudgeChat(*sum, exprs)
	return err
}

// ChatFailed is the error (exit 1) of chat drills whose checks failed,
// naming each failed check with its measured value; nil when none failed.
func ChatFailed(sums []scoring.ChatSummary) error {
	var errs []error
	for _, sum := range sums {
		failed := scoring.Failed(sum.Hypotheses)
		if len(failed) == 0 {
			continue
		}
		lines := make([]string, len(failed))
		for i, v := range failed {
			lines[i] = fmt.Sprintf("  %s (measured %s)", v.Expr, scoring.FormatValue(v.Value))
		}
		errs = append(errs, fmt.Errorf("chat %s/%s seed %d: %d of %d hypotheses failed:\n%s", format.Text(sum.Incident), format.Text(sum.Policy),
			sum.Seed, len(failed), len(sum.Hypotheses), strings.Join(lines, "\n")))
	}
	return errors.Join(errs...)
}
