package chatrun

import (
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/drill-dev/drill/internal/cli"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/internal/plan"
	"github.com/drill-dev/drill/internal/report"
	"github.com/drill-dev/drill/internal/session"
	"github.com/drill-dev/drill/scoring"
)

// writeTables writes the chat comparison (report.WriteChatTables) in the
// format asked for: aligned text on a terminal, Markdown in a file or a
// pipe, as drill compare's table.
func writeTables(out io.Writer, f cli.TableFormat, sums []scoring.ChatSummary) error {
	return report.WriteChatTables(out, sums, func(t plain.Table) error { return f.WriteTable(out, t) })
}

// CompareOptions are drill compare --workload chat's settings.
type CompareOptions struct {
	// Chat are the chat flags; Policies the presets to run (every one
	// when --policies was not given).
	Chat     plan.ChatFlags
	Policies []string
	// Expect are the hypotheses, --expect.
	Expect []string
	// JSON prints a JSON array of summaries; else Tables says how the
	// side-by-side tables are written.
	JSON   bool
	Tables cli.TableFormat
	// Virtual runs on the virtual clock.
	Virtual bool
	// Record is the directory of one journal per run ("" for none);
	// Force lets them overwrite journals there.
	Record string
	Force  bool
}

// Compare is `drill compare --workload chat`: every incident × policy ×
// seed at once, printed side by side (or as a JSON array of summaries).
func Compare(env cli.Env, o CompareOptions) error {
	cfgs, err := plan.ChatConfigs(env.Flags, o.Chat, o.Policies)
	if err != nil {
		return err
	}
	hyps, err := o.Chat.Hypotheses(o.Expect)
	if err != nil {
		return err
	}
	jobs := make([]session.ChatJob, len(cfgs))
	if o.Record != "" {
		if err := journal.PrepareDir(o.Record); err != nil {
			return err
		}
	}
	for i, cfg := range cfgs {
		jobs[i].Config, jobs[i].Hypotheses = cfg, hyps
		if o.Record != "" {
			jobs[i].Journal = journal.ChatRunPath(o.Record, i, cfg.Incident, cfg.Policy.Name, cfg.Seed)
			if err := journal.CheckRecord(jobs[i].Journal, o.Force, cli.InputsOf(env.Flags)...); err != nil {
				return err
			}
		}
	}
	outs, err := session.ChatDrills(env.Ctx, jobs, o.Virtual, env.Err)
	if err != nil {
		return err
	}
	sums := make([]scoring.ChatSummary, len(outs))
	var errs []error
	for i, out := range outs {
		sums[i] = out.Summary
		if out.Error != "" {
			errs = append(errs, fmt.Errorf("run %d (%s / %s / seed %d): %s", i+1, cfgs[i].Incident, cfgs[i].Policy.Name, cfgs[i].Seed, out.Error))
		}
	}
	if o.JSON {
		errs = append(errs, plain.JSON(env.Out, sums))
	} else {
		errs = append(errs, writeTables(env.Out, o.Tables, sums), plain.ChatVerdicts(env.Out, sums))
	}
	errs = append(errs, session.ChatFailed(sums))
	if slices.ContainsFunc(outs, func(o session.ChatOutcome) bool { return o.Status == "interrupted" }) {
		errs = append(errs, exit.ErrInterrupted)
	}
	return errors.Join(errs...)
}
