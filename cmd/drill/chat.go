package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/chat"
	"github.com/drill-dev/drill/internal/cli"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/internal/plan"
	"github.com/drill-dev/drill/internal/predict"
	"github.com/drill-dev/drill/internal/report"
	"github.com/drill-dev/drill/internal/sdkprofile"
	"github.com/drill-dev/drill/internal/session"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/tui"
)

// writeChatTables writes the chat comparison (report.WriteChatTables) in
// the format asked for: aligned text on a terminal, Markdown in a file or a
// pipe, as drill compare's table.
func writeChatTables(out io.Writer, f cli.TableFormat, sums []scoring.ChatSummary) error {
	return report.WriteChatTables(out, sums, func(t plain.Table) error { return f.WriteTable(out, t) })
}

// compareChat is `drill compare --workload chat`: every incident × policy
// × seed at once, printed side by side (or as a JSON array of summaries).
func compareChat(cmd *cobra.Command, c plan.ChatFlags, expect, policies []string, asJSON bool, tables cli.TableFormat, virtual bool, recordDir string, force bool) error {
	if !cmd.Flags().Changed("policies") {
		policies = chat.PresetNames()
	}
	cfgs, err := plan.ChatConfigs(cmd.Flags(), c, policies)
	if err != nil {
		return err
	}
	hyps, err := c.Hypotheses(expect)
	if err != nil {
		return err
	}
	jobs := make([]session.ChatJob, len(cfgs))
	if recordDir != "" {
		if err := journal.PrepareDir(recordDir); err != nil {
			return err
		}
	}
	for i, cfg := range cfgs {
		jobs[i].Config, jobs[i].Hypotheses = cfg, hyps
		if recordDir != "" {
			jobs[i].Journal = journal.ChatRunPath(recordDir, i, cfg.Incident, cfg.Policy.Name, cfg.Seed)
			if err := journal.CheckRecord(jobs[i].Journal, force, cli.InputsOf(cmd.Flags())...); err != nil {
				return err
			}
		}
	}
	outs, err := session.ChatDrills(cmd.Context(), jobs, virtual, cmd.ErrOrStderr())
	if err != nil {
		return err
	}
	sums := make([]scoring.ChatSummary, len(outs))
	var errs []error
	for i, o := range outs {
		sums[i] = o.Summary
		if o.Error != "" {
			errs = append(errs, fmt.Errorf("run %d (%s / %s / seed %d): %s", i+1, cfgs[i].Incident, cfgs[i].Policy.Name, cfgs[i].Seed, o.Error))
		}
	}
	if asJSON {
		errs = append(errs, plain.JSON(cmd.OutOrStdout(), sums))
	} else {
		errs = append(errs, writeChatTables(cmd.OutOrStdout(), tables, sums), plain.ChatVerdicts(cmd.OutOrStdout(), sums))
	}
	errs = append(errs, session.ChatFailed(sums))
	if slices.ContainsFunc(outs, func(o session.ChatOutcome) bool { return o.Status == "interrupted" }) {
		errs = append(errs, exit.ErrInterrupted)
	}
	return errors.Join(errs...)
}

// chatJournal reports whether the journal at path is a chat run's, with
// drill's exit code for a journal it cannot read.
func chatJournal(cmd *cobra.Command, path string) (bool, error) {
	isChat, err := journal.IsChat(cmd.Context(), path)
	if err != nil {
		return false, journal.ReadError(cmd.Context(), err)
	}
	return isChat, nil
}

// replayChat prints a chat journal's figures, recomputed by the fold the
// live run used (as JSON with asJSON), or one conversation's trace; with
// show (a terminal, no --no-tui) it first shows the Conversations view.
func replayChat(cmd *cobra.Command, path string, conversation int, expect []string, asJSON, show bool) error {
	if _, err := scoring.ParseChatExprs(expect); err != nil {
		return exit.Usagef("--expect: %w", err)
	}
	j, err := journal.ReadFileContext(cmd.Context(), path)
	if err != nil {
		return journal.ReadError(cmd.Context(), err)
	}
	if show && conversation == 0 {
		if err := tui.ReplayChat(cmd.Context(), j.Events, tui.Options{}); err != nil {
			if cmd.Context().Err() != nil {
				return exit.ErrInterrupted
			}
			return err
		}
	}
	fold := scoring.NewChatFold(conversation)
	for _, e := range j.Events {
		fold.Add(e)
	}
	out := cmd.OutOrStdout()
	if conversation > 0 {
		t, ok := fold.TraceOf()
		if !ok {
			return exit.Usagef("--conversation %d: the journal has no such conversation (1..%d)", conversation, len(fold.Rows()))
		}
		if asJSON {
			return plain.JSON(out, t)
		}
		return report.ChatTrace(out, t)
	}
	sum, differs, err := session.RejudgeChat(j, fold.Summary(), path, expect)
	if differs {
		fmt.Fprintln(cmd.ErrOrStderr(), "drill: the figures recomputed from the events differ from the journal's summary line; showing the recomputed ones")
	}
	if err != nil {
		return err
	}
	sums := []scoring.ChatSummary{sum}
	if asJSON {
		return errors.Join(plain.JSON(out, sum), session.ChatFailed(sums))
	}
	return errors.Join(writeChatTables(out, plain.FormatAuto, sums), plain.ChatVerdicts(out, sums), session.ChatFailed(sums))
}

// chatPredictFlags are drill predict's chat inputs.
type chatPredictFlags struct {
	within       time.Duration
	trickle      float64
	answerTokens int
	headers      time.Duration
	modelPace    float64
}

func (c *chatPredictFlags) register(fs *pflag.FlagSet) {
	d := predict.DefaultChatInputs()
	fs.DurationVar(&c.within, "within", 0, "chat: the wait a conversation should fit in; each case then says the setting that makes it fit")
	fs.Float64Var(&c.trickle, "trickle", d.TrickleTokensPerS, "chat: the trickling provider's tokens a second")
	fs.IntVar(&c.answerTokens, "answer-tokens", d.AnswerTokens, "chat: an answer's length in tokens when the policy sets no --max-tokens")
	fs.DurationVar(&c.headers, "headers", time.Duration(d.HeadersS*float64(time.Second)),
		"chat: the slowest a model sends its response headers (the stream-rate check counts from them; default: the built-in fake model's slowest)")
	fs.Float64Var(&c.modelPace, "model-tokens-per-s", d.ModelTokensPerS, "chat: a healthy model's slowest pace, tokens a second (default: the built-in fake model's)")
	plan.MarkChatOnly(fs, "within", "trickle", "answer-tokens", "headers", "model-tokens-per-s")
}

// inputs are the prediction's inputs from the flags, checked.
func (c chatPredictFlags) inputs() (predict.ChatInputs, error) {
	if !(c.trickle > 0) || c.answerTokens < 1 || c.within < 0 || c.headers < 0 || !(c.modelPace > 0) {
		return predict.ChatInputs{}, exit.Usagef("--trickle and --model-tokens-per-s must be above 0, --answer-tokens at least 1, --within and --headers not negative")
	}
	return predict.ChatInputs{TrickleTokensPerS: c.trickle, AnswerTokens: c.answerTokens, Within: c.within,
		HeadersS: c.headers.Seconds(), ModelTokensPerS: c.modelPace}, nil
}

// predictUnread are the chat flags a prediction does not read: it is the
// arithmetic of one conversation under the policy and the incidents.
var predictUnread = []string{"seed", "seeds", "conversations", "conversation-rate", "tool-breakers", "tool-breaker-scope", "tool-outage", "agent-profile"}

// predictChat is `drill predict --workload chat`: the worst case of one
// conversation under the policy (and the chat policy flags given) for a
// silent, a trickling and an overloaded provider and each incident, for a
// service written with sdk.
func predictChat(cmd *cobra.Command, policy string, cf plan.ChatFlags, c chatPredictFlags, sdk sdkprofile.Profile, asJSON bool) error {
	fs := cmd.Flags()
	for _, name := range predictUnread {
		if fs.Changed(name) {
			return exit.Usagef("drill predict --workload chat reads the policy of one conversation and the incidents, not --%s", name)
		}
	}
	pol, err := cf.Policy(fs, policy)
	if err != nil {
		return err
	}
	in, err := c.inputs()
	if err != nil {
		return err
	}
	if in.Incidents, in.Profiles, err = cf.IncidentProfiles(fs); err != nil {
		return err
	}
	p := predict.ChatFor(pol, in, sdk)
	if asJSON {
		return plain.JSON(cmd.OutOrStdout(), p)
	}
	out := cmd.OutOrStdout()
	intro, table := report.ChatPrediction(pol.Name, p)
	if _, err := fmt.Fprintf(out, "%s\n\n", strings.Join(intro, "\n")); err != nil {
		return err
	}
	return cli.TableFormat(plain.FormatAuto).WriteTable(out, table)
}

// reportChat is `drill report` of chat journals: the comparison table and
// each run's chart of its slowest conversations and silent endings.
func reportChat(cmd *cobra.Command, paths []string, out string, dpi int) error {
	runs := make([]report.ChatRun, len(paths))
	for i, p := range paths {
		r, err := report.ReadChatRun(p)
		if err != nil {
			return exit.UsageError(err)
		}
		runs[i] = r
	}
	if err := report.WriteChatReport(out, runs, dpi); err != nil {
		if errors.Is(err, report.ErrFormat) {
			return exit.UsageError(err)
		}
		return err
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "drill: wrote %s (%s)\n", out, format.Plural(len(runs), "chat run"))
	return nil
}

// runChat is `drill run --workload chat`: one chat drill (the policy, the
// first incident and seed), recorded to record if set, shown live in the
// Conversations view when show is set (on the virtual clock: its recording
// played at speed once it has run), its figures then printed as a table or
// as the JSON object drill replay --json prints of its journal.
func runChat(cmd *cobra.Command, c plan.ChatFlags, expect []string, policy string, asJSON, virtual, show bool, speed float64, record string, force bool) error {
	fs := cmd.Flags()
	if !fs.Changed("policy") {
		policy = chat.PresetDefaults
	}
	cfgs, err := plan.ChatConfigs(fs, c, []string{policy})
	if err != nil {
		return err
	}
	if len(cfgs) > 1 {
		fmt.Fprintf(cmd.ErrOrStderr(), "drill: run makes one drill: %s, incident %s, seed %d (drill compare runs them all)\n",
			cfgs[0].Policy.Name, cfgs[0].Incident, cfgs[0].Seed)
	}
	hyps, err := c.Hypotheses(expect)
	if err != nil {
		return err
	}
	job := session.ChatJob{Config: cfgs[0], Journal: record, Hypotheses: hyps}
	if record != "" {
		if err := journal.CheckRecord(record, force); err != nil {
			return err
		}
	}
	var o session.ChatOutcome
	var showErr error
	early := false // q ended the live drill early: a normal end, not 130
	switch {
	case show && !virtual:
		o, showErr = session.ShownChatDrill(cmd.Context(), job, func(ctx context.Context, log *event.Log) error {
			var err error
			early, err = tui.LiveChat(ctx, log, tui.Options{Output: os.Stdout})
			return err
		})
	case show:
		var err error
		o, showErr, err = playVirtualChat(cmd, job, speed)
		if err != nil {
			return err
		}
	default:
		outs, err := session.ChatDrills(cmd.Context(), []session.ChatJob{job}, virtual, cmd.ErrOrStderr())
		if err != nil {
			return err
		}
		o = outs[0]
	}
	if o.Status == event.StatusFailed {
		return fmt.Errorf("chat drill: %s", o.Error)
	}
	var errs []error
	if showErr != nil && cmd.Context().Err() == nil {
		errs = append(errs, fmt.Errorf("dashboard: %w", showErr))
	}
	if o.Error != "" {
		errs = append(errs, errors.New(o.Error))
	}
	sums := []scoring.ChatSummary{o.Summary}
	if asJSON {
		errs = append(errs, plain.JSON(cmd.OutOrStdout(), o.Summary))
	} else {
		errs = append(errs, writeChatTables(cmd.OutOrStdout(), plain.FormatAuto, sums), plain.ChatVerdicts(cmd.OutOrStdout(), sums))
	}
	errs = append(errs, session.ChatFailed(sums))
	if (o.Status == event.StatusInterrupted && !early) || cmd.Context().Err() != nil {
		errs = append(errs, exit.ErrInterrupted)
	}
	return errors.Join(errs...)
}

// playVirtualChat runs a chat drill on the virtual clock, recorded (to a
// temporary file unless the job names one), then plays the recording in
// the Conversations view at speed, as drill run --clock virtual does for
// triage. showErr is the dashboard's error, err the drill's.
func playVirtualChat(cmd *cobra.Command, job session.ChatJob, speed float64) (o session.ChatOutcome, showErr, err error) {
	if job.Journal == "" {
		f, err := os.CreateTemp("", "drill-virtual-chat-*.jsonl")
		if err != nil {
			return o, nil, fmt.Errorf("recording the virtual chat drill for the dashboard: %w", err)
		}
		f.Close()
		job.Journal = f.Name()
		defer os.Remove(job.Journal)
	}
	outs, err := session.ChatDrills(cmd.Context(), []session.ChatJob{job}, true, cmd.ErrOrStderr())
	if err != nil {
		return o, nil, err
	}
	o = outs[0]
	if o.Status == event.StatusFailed || o.Status == event.StatusInterrupted {
		return o, nil, nil
	}
	j, err := journal.ReadFileContext(cmd.Context(), job.Journal)
	if err != nil {
		return o, nil, journal.ReadError(cmd.Context(), err)
	}
	return o, tui.PlayChat(cmd.Context(), j.Events, tui.ReplayOptions{Speed: speed}), nil
}

// withChatHelp makes cmd's help, given --workload chat, describe its policy
// flag (--policy or --policies) as the chat workload reads it: the chat
// presets (with checks added by name) and the chat default, def.
func withChatHelp(cmd *cobra.Command, def ...string) *cobra.Command {
	cmd.SetHelpFunc(func(c *cobra.Command, args []string) {
		if w, _ := c.Flags().GetString("workload"); w == event.WorkloadChat {
			for _, name := range []string{"policy", "policies"} {
				if fl := c.Flags().Lookup(name); fl != nil {
					fl.Usage = "chat policy presets: " + strings.Join(chat.PresetNames(), ", ") + ", each with checks added by name (agent-defaults+budget; checks: " +
						strings.Join([]string{chat.CheckBreaker, chat.CheckStream, chat.CheckValidity, chat.CheckLoop, chat.CheckBudget}, ", ") + ")"
					fl.DefValue = strings.Join(def, ",")
					if name == "policies" {
						fl.DefValue = "[" + fl.DefValue + "]"
					}
				}
			}
		}
		c.Parent().HelpFunc()(c, args)
	})
	return cmd
}
