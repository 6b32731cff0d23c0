package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/edge"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/internal/session"
	"github.com/drill-dev/drill/tui"
	"github.com/drill-dev/drill/workload"
)

// clocks are the valid values of --clock.
var clocks = []string{event.ClockReal, event.ClockVirtual}

// clockValue is the --clock flag: real (default) or virtual. An unknown
// value is a flag error, so a usage error (exit 2) listing the valid ones.
type clockValue string

func (c *clockValue) String() string { return string(*c) }
func (c *clockValue) Type() string   { return "clock" }
func (c *clockValue) Set(s string) error {
	if !slices.Contains(clocks, s) {
		return fmt.Errorf("unknown clock %q (valid: %s)", s, strings.Join(clocks, ", "))
	}
	*c = clockValue(s)
	return nil
}

// virtual reports whether --clock virtual was given.
func (c clockValue) virtual() bool { return string(c) == event.ClockVirtual }

// registerClock adds --clock to fs, def its default.
func registerClock(fs *pflag.FlagSet, c *clockValue, def string) {
	*c = clockValue(def)
	fs.Var(c, "clock", `real, or virtual: run against the built-in fake model in a testing/synctest bubble's fake time, `+
		`with the same SDK, retries, breakers and latencies, in seconds instead of minutes`)
}

// checkSpeed checks drill run's --speed: a replay speed above 0, given
// only where it is read, the dashboard that plays a virtual run (a
// real-clock drill runs at the clock's own pace).
func checkSpeed(fs *pflag.FlagSet, speed float64, virtual bool) error {
	if err := edge.Factor(speed, false); err != nil {
		return exit.Usagef("--speed %v", err)
	}
	if fs.Changed("speed") && !virtual {
		return exit.Usagef("--speed sets the pace of a --clock virtual run's dashboard; a real-clock drill runs in real time")
	}
	return nil
}

// runVirtual is `drill run --clock virtual`: the drill runs to its end in
// virtual time, recorded when asked to or when it is to be shown; on a
// terminal the recording then plays in the replay dashboard at speed, and
// the summary is printed as for a real-time run.
func runVirtual(cmd *cobra.Command, cfg workload.Config, opts runOptions, speed float64) error {
	if err := session.VirtualUsage(cfg); err != nil {
		return err
	}
	if err := session.NoLiveAborts(opts.checks.Abort); err != nil {
		return err
	}
	warn(cmd, cfg.Warnings())
	// The baseline plays first (about half a second), so the run's
	// summary and journal carry it.
	baseline, err := session.StartBaseline(cmd.Context(), cfg, opts.baseline)
	if err != nil {
		return exit.UsageError(err)
	}
	defer baseline.Close()
	whole := baseline.Whole(cmd.Context())
	if err := baseline.Err(); err != nil && cmd.Context().Err() == nil { // not when Ctrl-C stopped it too
		warn(cmd, []string{"no baseline: " + err.Error()})
	}
	var show func(context.Context, []event.Event) error
	if opts.tui {
		show = func(ctx context.Context, evs []event.Event) error {
			// The baseline's whole-run figures, as its journal records them.
			return tui.Replay(ctx, evs, tui.ReplayOptions{Speed: speed, Hypotheses: opts.checks.Hypotheses, Baseline: whole})
		}
	}
	o, err := session.VirtualRun(cmd.Context(), cfg, opts.checks.Hypotheses, opts.record, opts.force, show, cmd.ErrOrStderr(), whole)
	if err != nil {
		return err
	}
	warn(cmd, plain.AfterWarnings(o.Summary))
	return printJudged(cmd, o.Summary, o.Status, opts.checks, o.Failed, opts.json)
}
