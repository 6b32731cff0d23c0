package present

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/chatrun"
	"github.com/drill-dev/drill/internal/cli"
	"github.com/drill-dev/drill/internal/edge"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/internal/report"
	"github.com/drill-dev/drill/internal/session"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/tui"
)

// ReplayOptions are drill replay's settings.
type ReplayOptions struct {
	// Path is the journal.
	Path string
	// Speed is the dashboard's initial speed; At opens it paused there.
	Speed float64
	At    time.Duration
	// Expect are the hypotheses, judged live and on the final summary.
	Expect []string
	// JSON prints the recomputed summary as JSON; NoTUI prints it as a
	// table. Without either, Terminal (stdout is one) shows the dashboard.
	JSON, NoTUI, Terminal bool
	// Conversation traces one conversation of a chat journal.
	Conversation int
}

// show says whether the replay shows a dashboard.
func (o ReplayOptions) show() bool { return !o.NoTUI && !o.JSON && o.Terminal }

// Replay is drill replay: a chat journal through chatrun.Replay, a triage
// journal in the replay dashboard (then its summary), or its summary
// recomputed from the events.
func Replay(env cli.Env, o ReplayOptions) error {
	if err := edge.Factor(o.Speed, false); err != nil {
		return exit.Usagef("--speed %v", err)
	}
	if o.At < 0 {
		return exit.Usagef("--at must not be negative, got %v", o.At)
	}
	hyps, err := scoring.ParseExprs(o.Expect)
	if err != nil {
		return exit.UsageError(fmt.Errorf("--expect: %w", err))
	}
	path := o.Path
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return exit.Usagef("replay takes one journal file; %s is a directory (drill report %s reads every journal in it)", path, path)
	}
	if isChat, err := chatrun.IsJournal(env.Ctx, path); err != nil {
		return err
	} else if isChat {
		return chatrun.Replay(env, chatrun.ReplayOptions{Path: path, Conversation: o.Conversation, Expect: o.Expect, JSON: o.JSON, Show: o.show()})
	} else if o.Conversation != 0 {
		return exit.Usagef("--conversation N traces a conversation of a chat journal; %s is a triage run's", path)
	}
	if o.show() {
		return replayDashboard(env, path, tui.ReplayOptions{Speed: o.Speed, At: o.At, Hypotheses: hyps})
	}
	return replaySummary(env, path, hyps, o.JSON)
}

// replayDashboard shows the journal in the replay dashboard and, after q,
// prints its summary as drill run does.
func replayDashboard(env cli.Env, path string, opts tui.ReplayOptions) error {
	ctx := env.Ctx
	var j *journal.Journal
	err := cli.Interruptible(ctx, func(ctx context.Context) (err error) {
		j, err = journal.ReadFileContext(ctx, path)
		return err
	})
	if err != nil {
		return journal.ReadError(ctx, err)
	}
	opts.Baseline = report.RecordedBaseline(j.Meta) // shown as recorded: a replay cannot play it again
	if err := tui.Replay(ctx, j.Events, opts); err != nil {
		if ctx.Err() != nil {
			return exit.ErrInterrupted // Ctrl-C or SIGTERM: exit 130
		}
		return err
	}
	fold := scoring.NewFold()
	fold.AddAll(j.Events)
	sum := fold.Summary()
	sum.Baseline = opts.Baseline // as replay --no-tui prints it
	vs, verr := session.Judge(sum, opts.Hypotheses)
	return cli.FirstErr(printRun(env.Out, sum, vs, fold.FailedCalls()), verr)
}

// replaySummary prints the summary recomputed from the journal's events,
// as a table or as JSON, with the hypotheses judged on it.
func replaySummary(env cli.Env, path string, hyps []scoring.Expr, jsonOut bool) error {
	ctx := env.Ctx
	fold := scoring.NewFold()
	var meta journal.Meta
	err := cli.Interruptible(ctx, func(ctx context.Context) (err error) {
		meta, err = journal.ScanContext(ctx, path, func(e event.Event) error {
			fold.Add(e)
			return nil
		})
		return err
	})
	if err != nil {
		return journal.ReadError(ctx, err) // interrupted, the scan may still be folding: leave the fold alone
	}
	sum := fold.Summary()
	sum.Baseline = report.RecordedBaseline(meta)
	differs := meta.Summary != nil && !reflect.DeepEqual(meta.Summary.Summary, sum)
	for _, l := range plain.Replayed(path, meta, differs) {
		fmt.Fprintln(env.Err, "drill:", l)
	}
	out := env.Out
	if jsonOut && len(hyps) == 0 && meta.Summary != nil && len(meta.Summary.Hypotheses) > 0 {
		// As drill run --json printed it: the hypotheses the run recorded,
		// judged again on the summary recomputed from the events — a
		// journal's own "pass" is not evidence (it may be forged or stale).
		vs, err := session.Rejudge(sum, meta.Summary.Hypotheses)
		if err != nil {
			return exit.UsageError(fmt.Errorf("%s: %w", path, err))
		}
		return plain.JSON(out, scoring.Judged{Summary: sum, Hypotheses: vs})
	}
	vs, verr := session.Judge(sum, hyps)
	switch {
	case jsonOut && len(hyps) > 0:
		return cli.FirstErr(plain.JSON(out, scoring.Judged{Summary: sum, Hypotheses: vs}), verr)
	case jsonOut:
		return cli.FirstErr(plain.JSON(out, sum), verr)
	}
	return cli.FirstErr(printRun(out, sum, vs, fold.FailedCalls()), verr)
}
