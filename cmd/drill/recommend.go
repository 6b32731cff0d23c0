package main

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/drillfile"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/recommend"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

// recommendFlags are drill recommend's flags.
type recommendFlags struct {
	within   time.Duration
	minAll4  shareValue
	normal   normalFlags
	outages  []string
	repeat   int
	parallel int
	file     string
	routes   []string
	grid     []string
	json     bool
	clock    clockValue
	force    bool
	shard    shardFlags
}

func newRecommendCmd() *cobra.Command { return recommendCommand(&recommendFlags{}) }

// recommendCommand is drill recommend with its flags parsed into rf:
// drill sweep merge parses a shard's command line with it.
func recommendCommand(rf *recommendFlags) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "recommend",
		Short: "Search policy settings per class of email and recommend the one to ship",
		Long: `For each class of email (a drill file's routes:, or the built-in classes), search
policy settings against the outages to hold against and a day with no outage,
on the virtual clock with repeats, and keep the settings whose measured p95
wait during every outage is within what the class's customers can wait
(--within, or the route's within:), whose quality clears --min-all4-right, and
that keep the normal day: with no outage at most --normal-max-fallback of the
class's emails left to the backup or a person, and all 4 right no worse than
--normal-min-all4-right (default: the primary alone's 95 % interval). Of those
it recommends the best quality in its worst outage, then the shortest p95
wait, and says why; it lists the other settings that met the bounds and why
each rejected one failed, with drill predict's arithmetic beside the measured
figures and a drill-file snippet to paste. A class whose route says backup:
never keeps it; the built-in safety and billing-error classes are kept off the
backup. Exit 1, with the reason and the closest setting, when a class's bounds
cannot be met. docs/routes.md.`,
		Example: `  drill recommend --within 5s --outages busy,hang
  drill recommend -f examples/routes.yaml --json
  drill recommend --within 5s --route safety=breaker,never,person --grid primary-timeout=1s,2s,3s
  drill recommend --within 5s --normal-max-fallback 10% --normal-min-all4-right 0.9`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error { return rf.run(cmd) },
	}
	fs := cmd.Flags()
	fs.DurationVar(&rf.within, "within", 0, "what every class's customers can wait: the bound on its p95 wait during each outage (a route's within: wins; 0: the drill file's recommend: within, if any)")
	fs.Var(&rf.minAll4, "min-all4-right", "quality floor: a class's share of emails with all four fields right, in every outage (0.8 or 80%; 0: none)")
	rf.normal.register(fs)
	fs.StringSliceVar(&rf.outages, "outages", recommend.DefaultOutages, "the outages to hold against, comma list (a day with no outage is always played besides): "+strings.Join(slices.DeleteFunc(workload.OutageKinds(), func(k string) bool { return k == recommend.NormalDay }), ", "))
	fs.IntVar(&rf.repeat, "repeat", recommend.DefaultRepeat, "run each setting this many times, with latency seeds seed, seed+1, ...")
	fs.IntVar(&rf.parallel, "max-parallel", 0, "run at most this many drills at once (0: all)")
	fs.StringVarP(&rf.file, "file", "f", "", "a drill file whose routes: are the classes (with their backup: never and within:); its recommend: section sets the bounds no flag gives")
	fs.StringArrayVar(&rf.routes, "route", nil, "without -f, a built-in class to recommend for, CLASS=PRESET[,never,MODE], repeatable (default: every built-in class on "+recommend.DefaultBase+")")
	fs.StringArrayVar(&rf.grid, "grid", nil, "a policy setting to search, FLAG=VALUES as drill sweep takes them (a comma list or a range), repeatable (default: "+defaultGridText()+")")
	fs.BoolVar(&rf.json, "json", false, "print the recommendation as JSON")
	// The search runs on the virtual clock only, so that is its default;
	// --clock virtual, as scripts write it, still reads.
	registerClock(fs, &rf.clock, event.ClockVirtual)
	fs.BoolVar(&rf.force, "force", false, "let -o overwrite a file already there")
	rf.shard.register(fs, "the recommendation (or --json) to write instead of printing it; with --shard, the shard file to write")
	return cmd
}

func defaultGridText() string {
	parts := make([]string, len(recommend.DefaultGrid))
	for i, a := range recommend.DefaultGrid {
		parts[i] = a.Flag + "=" + a.Values
	}
	return strings.Join(parts, " ")
}

// options are the search's options from the flags; errors are usage
// errors.
func (rf *recommendFlags) options(cmd *cobra.Command) (recommend.Options, error) {
	if !rf.clock.virtual() {
		return recommend.Options{}, exit.Usagef("drill recommend searches on the virtual clock only (a grid in real time takes hours): leave --clock out")
	}
	if rf.repeat < 1 {
		return recommend.Options{}, exit.Usagef("--repeat must be at least 1, got %d", rf.repeat)
	}
	if rf.file != "" && len(rf.routes) > 0 {
		return recommend.Options{}, exit.Usagef("--route names built-in classes without a drill file; with -f the file's routes: are the classes")
	}
	opts := recommend.Options{Within: rf.within, MinAll4Right: float64(rf.minAll4), Outages: rf.outages, Repeat: rf.repeat,
		Parallel: rf.parallel, File: rf.file, Routes: rf.routes, Progress: cmd.ErrOrStderr()}
	rf.normal.apply(cmd.Flags(), &opts)
	for _, g := range rf.grid {
		flag, values, ok := strings.Cut(g, "=")
		if !ok || values == "" {
			return recommend.Options{}, exit.Usagef("--grid %q: want FLAG=VALUES, e.g. primary-timeout=1s,2s,3s", g)
		}
		if _, ok := recommend.PolicyFlag(flag); !ok {
			return recommend.Options{}, exit.Usagef("--grid %s: not a policy setting (the policy flags of drill run, or policies)", flag)
		}
		opts.Grid = append(opts.Grid, recommend.Axis{Flag: flag, Values: values})
	}
	return opts, nil
}

// run is drill recommend.
func (rf *recommendFlags) run(cmd *cobra.Command) error {
	opts, err := rf.options(cmd)
	if err != nil {
		return err
	}
	if err := rf.shard.check(cmd, rf.force); err != nil {
		return err
	}
	if rf.shard.shard != "" {
		return runRecommendShard(cmd, rf)
	}
	res, err := recommend.Run(cmd.Context(), opts)
	if err != nil {
		return err
	}
	return rf.print(cmd, res)
}

// print prints the recommendation, to -o if given, and exits 1 when a
// class's bounds cannot be met: a search run whole and one merged from its
// shards print through it.
func (rf *recommendFlags) print(cmd *cobra.Command, res *recommend.Result) error {
	err := rf.shard.write(cmd, func(out io.Writer) error {
		if rf.json {
			return encodeJSON(out, res)
		}
		return res.WriteText(out)
	})
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

// normalFlags are drill recommend's bounds on the normal day.
type normalFlags struct {
	maxFallback shareValue
	minAll4     normalQualityValue
}

func (n *normalFlags) register(fs *pflag.FlagSet) {
	n.maxFallback = shareValue(scoring.DefaultNormalMaxFallback)
	n.minAll4 = normalQualityValue{PrimaryAlone: true}
	fs.Var(&n.maxFallback, "normal-max-fallback", "with no outage, the largest share of a class's emails the primary may leave to the backup, the canned reply or a person, in every repeat (5% or 0.05; 100% for no bound)")
	fs.Var(&n.minAll4, "normal-min-all4-right", "with no outage, a class's all-4-right floor: primary (not below the primary alone's 95 % interval on the same day), a share (90% or 0.9), or none")
}

// apply sets the bounds given on the command line; the others are the
// drill file's recommend: keys, or the defaults.
func (n *normalFlags) apply(fs *pflag.FlagSet, o *recommend.Options) {
	if fs.Changed("normal-max-fallback") {
		f := float64(n.maxFallback)
		o.NormalMaxFallback = &f
	}
	if fs.Changed("normal-min-all4-right") {
		q := scoring.NormalQuality(n.minAll4)
		o.NormalQuality = &q
	}
}

// shareValue is a share flag: 0.05 or 5%.
type shareValue float64

func (s *shareValue) String() string { return strconv.FormatFloat(float64(*s)*100, 'g', -1, 64) + "%" }
func (s *shareValue) Type() string   { return "share" }
func (s *shareValue) Set(v string) error {
	f, err := drillfile.ParseShare(v)
	if err != nil {
		return err
	}
	*s = shareValue(f)
	return nil
}

// normalQualityValue is --normal-min-all4-right: primary, or a share.
type normalQualityValue scoring.NormalQuality

func (q *normalQualityValue) String() string {
	if q.PrimaryAlone {
		return drillfile.QualityPrimary
	}
	return strconv.FormatFloat(q.Floor*100, 'g', -1, 64) + "%"
}
func (q *normalQualityValue) Type() string { return "primary|share" }
func (q *normalQualityValue) Set(v string) error {
	nq, err := drillfile.ParseNormalQuality(v)
	if err != nil {
		return err
	}
	*q = normalQualityValue(nq)
	return nil
}
