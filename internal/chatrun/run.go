package chatrun

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/cli"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/internal/plan"
	"github.com/drill-dev/drill/internal/session"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/tui"
)

// RunOptions are drill run --workload chat's settings.
type RunOptions struct {
	// Chat are the chat flags; Policy the one policy to run.
	Chat   plan.ChatFlags
	Policy string
	// Expect are the hypotheses, --expect.
	Expect []string
	// JSON prints the summary as JSON; Show shows the drill in the
	// Conversations view (a terminal, no --no-tui or --json).
	JSON, Show bool
	// Virtual runs on the virtual clock; a shown virtual run plays its
	// recording at Speed.
	Virtual bool
	Speed   float64
	// Record is the journal to write ("" for none); Force lets it
	// overwrite one.
	Record string
	Force  bool
}

// Run is `drill run --workload chat`: one chat drill (the policy, the
// first incident and seed), recorded if asked, shown live in the
// Conversations view with Show (on the virtual clock: its recording played
// at speed once it has run), its figures then printed as a table or as
// the JSON object drill replay --json prints of its journal.
func Run(env cli.Env, o RunOptions) error {
	cfgs, err := plan.ChatConfigs(env.Flags, o.Chat, []string{o.Policy})
	if err != nil {
		return err
	}
	if len(cfgs) > 1 {
		fmt.Fprintf(env.Err, "drill: run makes one drill: %s, incident %s, seed %d (drill compare runs them all)\n",
			cfgs[0].Policy.Name, cfgs[0].Incident, cfgs[0].Seed)
	}
	hyps, err := o.Chat.Hypotheses(o.Expect)
	if err != nil {
		return err
	}
	job := session.ChatJob{Config: cfgs[0], Journal: o.Record, Hypotheses: hyps}
	if o.Record != "" {
		if err := journal.CheckRecord(o.Record, o.Force); err != nil {
			return err
		}
	}
	out, showErr, early, err := drill(env, o, job)
	if err != nil {
		return err
	}
	if out.Status == event.StatusFailed {
		return fmt.Errorf("chat drill: %s", out.Error)
	}
	var errs []error
	if showErr != nil && env.Ctx.Err() == nil {
		errs = append(errs, fmt.Errorf("dashboard: %w", showErr))
	}
	if out.Error != "" {
		errs = append(errs, errors.New(out.Error))
	}
	sums := []scoring.ChatSummary{out.Summary}
	if o.JSON {
		errs = append(errs, plain.JSON(env.Out, out.Summary))
	} else {
		errs = append(errs, writeTables(env.Out, plain.FormatAuto, sums), plain.ChatVerdicts(env.Out, sums))
	}
	errs = append(errs, session.ChatFailed(sums))
	if (out.Status == event.StatusInterrupted && !early) || env.Ctx.Err() != nil {
		errs = append(errs, exit.ErrInterrupted)
	}
	return errors.Join(errs...)
}

// drill runs the job: shown live on the real clock, played after it ran
// on the virtual one, or unseen. showErr is the dashboard's error, err the
// drill's; early says q ended the live drill early (a normal end, not 130).
func drill(env cli.Env, o RunOptions, job session.ChatJob) (out session.ChatOutcome, showErr error, early bool, err error) {
	switch {
	case o.Show && !o.Virtual:
		out, showErr = session.ShownChatDrill(env.Ctx, job, func(ctx context.Context, log *event.Log) error {
			var err error
			early, err = tui.LiveChat(ctx, log, tui.Options{Output: os.Stdout})
			return err
		})
		return out, showErr, early, nil
	case o.Show:
		out, showErr, err = playVirtual(env, job, o.Speed)
		return out, showErr, false, err
	}
	outs, err := session.ChatDrills(env.Ctx, []session.ChatJob{job}, o.Virtual, env.Err)
	if err != nil {
		return out, nil, false, err
	}
	return outs[0], nil, false, nil
}

// playVirtual runs a chat drill on the virtual clock, recorded (to a
// temporary file unless the job names one), then plays the recording in
// the Conversations view at speed, as drill run --clock virtual does for
// triage. showErr is the dashboard's error, err the drill's.
func playVirtual(env cli.Env, job session.ChatJob, speed float64) (o session.ChatOutcome, showErr, err error) {
	if job.Journal == "" {
		f, err := os.CreateTemp("", "drill-virtual-chat-*.jsonl")
		if err != nil {
			return o, nil, fmt.Errorf("recording the virtual chat drill for the dashboard: %w", err)
		}
		f.Close()
		job.Journal = f.Name()
		defer os.Remove(job.Journal)
	}
	outs, err := session.ChatDrills(env.Ctx, []session.ChatJob{job}, true, env.Err)
	if err != nil {
		return o, nil, err
	}
	o = outs[0]
	if o.Status == event.StatusFailed || o.Status == event.StatusInterrupted {
		return o, nil, nil
	}
	j, err := journal.ReadFileContext(env.Ctx, job.Journal)
	if err != nil {
		return o, nil, journal.ReadError(env.Ctx, err)
	}
	return o, tui.PlayChat(env.Ctx, j.Events, tui.ReplayOptions{Speed: speed}), nil
}
