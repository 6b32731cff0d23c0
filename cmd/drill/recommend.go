package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/recommend"
	"github.com/drill-dev/drill/workload"
)

// recommendFlags are drill recommend's flags.
type recommendFlags struct {
	within   time.Duration
	minAll4  float64
	outages  []string
	repeat   int
	parallel int
	file     string
	routes   []string
	grid     []string
	json     bool
	clock    clockValue
}

func newRecommendCmd() *cobra.Command {
	rf := &recommendFlags{}
	cmd := &cobra.Command{
		Use:   "recommend",
		Short: "Search policy settings per class of email and recommend the one to ship",
		Long: `For each class of email (a drill file's routes:, or the built-in classes), search
policy settings against the outages to hold against, on the virtual clock with
repeats, and print the setting whose measured p95 wait during every outage is
within what the class's customers can wait (--within, or the route's within:)
and whose quality clears --min-all4-right, with drill predict's arithmetic
beside the measured figures and a drill-file snippet to paste. A class whose
route says backup: never keeps it. Exit 1, with the reason and the closest
setting, when a class's bounds cannot be met. docs/routes.md.`,
		Example: `  drill recommend --within 5s --outages busy,hang
  drill recommend -f examples/routes.yaml --json
  drill recommend --within 5s --route safety=breaker,never,person --grid primary-timeout=1s,2s,3s`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error { return rf.run(cmd) },
	}
	fs := cmd.Flags()
	fs.DurationVar(&rf.within, "within", 0, "what every class's customers can wait: the bound on its p95 wait during each outage (a route's within: wins)")
	fs.Float64Var(&rf.minAll4, "min-all4-right", 0, "quality floor: a class's share of emails with all four fields right, in every outage (0: none)")
	fs.StringSliceVar(&rf.outages, "outages", recommend.DefaultOutages, "the outages to hold against, comma list: "+strings.Join(workload.OutageKinds(), ", "))
	fs.IntVar(&rf.repeat, "repeat", recommend.DefaultRepeat, "run each setting this many times, with latency seeds seed, seed+1, ...")
	fs.IntVar(&rf.parallel, "max-parallel", 0, "run at most this many drills at once (0: all)")
	fs.StringVarP(&rf.file, "file", "f", "", "a drill file whose routes: are the classes (with their backup: never and within:)")
	fs.StringArrayVar(&rf.routes, "route", nil, "without -f, a built-in class to recommend for, CLASS=PRESET[,never,MODE], repeatable (default: every built-in class on "+recommend.DefaultBase+")")
	fs.StringArrayVar(&rf.grid, "grid", nil, "a policy setting to search, FLAG=VALUES as drill sweep takes them (a comma list or a range), repeatable (default: "+defaultGridText()+")")
	fs.BoolVar(&rf.json, "json", false, "print the recommendation as JSON")
	// The search runs on the virtual clock only, so that is its default;
	// --clock virtual, as scripts write it, still reads.
	registerClock(fs, &rf.clock, event.ClockVirtual)
	return cmd
}

func defaultGridText() string {
	parts := make([]string, len(recommend.DefaultGrid))
	for i, a := range recommend.DefaultGrid {
		parts[i] = a.Flag + "=" + a.Values
	}
	return strings.Join(parts, " ")
}

// run is drill recommend.
func (rf *recommendFlags) run(cmd *cobra.Command) error {
	if !rf.clock.virtual() {
		return exit.Usagef("drill recommend searches on the virtual clock only (a grid in real time takes hours): leave --clock out")
	}
	if rf.within < 0 || rf.minAll4 < 0 || rf.minAll4 > 1 {
		return exit.Usagef("--within must not be negative and --min-all4-right must be a share from 0 to 1")
	}
	if rf.file != "" && len(rf.routes) > 0 {
		return exit.Usagef("--route names built-in classes without a drill file; with -f the file's routes: are the classes")
	}
	opts := recommend.Options{Within: rf.within, MinAll4Right: rf.minAll4, Outages: rf.outages, Repeat: rf.repeat,
		Parallel: rf.parallel, File: rf.file, Routes: rf.routes, Progress: cmd.ErrOrStderr()}
	for _, g := range rf.grid {
		flag, values, ok := strings.Cut(g, "=")
		if !ok || values == "" {
			return exit.Usagef("--grid %q: want FLAG=VALUES, e.g. primary-timeout=1s,2s,3s", g)
		}
		if _, ok := recommend.PolicyFlag(flag); !ok {
			return exit.Usagef("--grid %s: not a policy setting (the policy flags of drill run, or policies)", flag)
		}
		opts.Grid = append(opts.Grid, recommend.Axis{Flag: flag, Values: values})
	}
	res, err := recommend.Run(cmd.Context(), opts)
	if err != nil {
		return err
	}
	if rf.json {
		err = encodeJSON(cmd.OutOrStdout(), res)
	} else {
		err = res.WriteText(cmd.OutOrStdout())
	}
	if err != nil {
		return err
	}
	if !res.Met {
		var unmet []string
		for _, p := range res.Classes {
			if !p.Met {
				unmet = append(unmet, p.Class)
			}
		}
		return fmt.Errorf("no setting tried meets the bounds of class %s (the reason and the closest setting are above)", strings.Join(unmet, ", "))
	}
	return nil
}
