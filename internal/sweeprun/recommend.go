package sweeprun

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/cli"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/internal/plan"
	"github.com/drill-dev/drill/internal/recommend"
	"github.com/drill-dev/drill/internal/sweep"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

// RecommendFlags are drill recommend's flags.
type RecommendFlags struct {
	within   time.Duration
	minAll4  cli.Share
	normal   normalFlags
	outages  []string
	repeat   int
	parallel int
	file     string
	routes   []string
	grid     []string
	json     bool
	clock    cli.Clock
	force    bool
	shard    cli.ShardFlags
}

// Register adds drill recommend's flags to fs.
func (rf *RecommendFlags) Register(fs *pflag.FlagSet) {
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
	cli.RegisterClock(fs, &rf.clock, event.ClockVirtual)
	fs.BoolVar(&rf.force, "force", false, "let -o overwrite a file already there")
	rf.shard.Register(fs, "the recommendation (or --json) to write instead of printing it; with --shard, the shard file to write")
}

// defaultGridText is the default grid as --grid would give it.
func defaultGridText() string {
	parts := make([]string, len(recommend.DefaultGrid))
	for i, a := range recommend.DefaultGrid {
		parts[i] = a.Flag + "=" + a.Values
	}
	return strings.Join(parts, " ")
}

// options are the search's options from the flags (fs tells which were
// given; progress goes to stderr); errors are usage errors.
func (rf *RecommendFlags) options(fs *pflag.FlagSet, stderr io.Writer) (recommend.Options, error) {
	if !rf.clock.Virtual() {
		return recommend.Options{}, exit.Usagef("drill recommend searches on the virtual clock only (a grid in real time takes hours): leave --clock out")
	}
	if rf.repeat < 1 {
		return recommend.Options{}, exit.Usagef("--repeat must be at least 1, got %d", rf.repeat)
	}
	if rf.file != "" && len(rf.routes) > 0 {
		return recommend.Options{}, exit.Usagef("--route names built-in classes without a drill file; with -f the file's routes: are the classes")
	}
	opts := recommend.Options{Within: rf.within, MinAll4Right: float64(rf.minAll4), Outages: rf.outages, Repeat: rf.repeat,
		Parallel: rf.parallel, File: rf.file, Routes: rf.routes, Progress: stderr}
	rf.normal.apply(fs, &opts)
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

// Recommend is drill recommend with its flags parsed into rf.
func Recommend(env Env, rf *RecommendFlags) error {
	opts, err := rf.options(env.Flags, env.Err)
	if err != nil {
		return err
	}
	if err := rf.shard.Check(cli.InputsOf(env.Flags), rf.force); err != nil {
		return err
	}
	if rf.shard.Shard != "" {
		return runRecommendShard(env, rf)
	}
	res, err := recommend.Run(env.Ctx, opts)
	if err != nil {
		return err
	}
	return rf.print(env.Out, res)
}

// print prints the recommendation, to -o if given, and exits 1 when a
// class's bounds cannot be met: a search run whole and one merged from its
// shards print through it.
func (rf *RecommendFlags) print(stdout io.Writer, res *recommend.Result) error {
	err := rf.shard.Write(stdout, func(out io.Writer) error {
		if rf.json {
			return plain.JSON(out, res)
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

// recommendFromArgs parses a shard's command line as drill recommend does
// and plans the search. Close the search when done.
func recommendFromArgs(env Env, args []string) (*RecommendFlags, *recommend.Search, string, error) {
	rf := &RecommendFlags{}
	fs := pflag.NewFlagSet("recommend", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	rf.Register(fs)
	if err := fs.Parse(args); err != nil {
		return nil, nil, "", shardArgsError(args, err)
	}
	opts, err := rf.options(fs, env.Err)
	if err != nil {
		return nil, nil, "", err
	}
	s, err := recommend.PlanSearch(opts)
	if err != nil {
		return nil, nil, "", err
	}
	g, rows, cfgs, o := s.Definition()
	fp, err := plan.Fingerprint(plan.Definition{Kind: sweep.KindRecommend, Args: args, Clock: string(rf.clock), Grid: g, Configs: cfgs, Options: o}, rows)
	if err != nil {
		s.Close()
		return nil, nil, "", err
	}
	return rf, s, fp, nil
}

// runRecommendShard is drill recommend --shard I/N -o FILE: the search
// planned from its command line as drill sweep merge plans it, the
// shard's drills run and written with the search's fingerprint.
func runRecommendShard(env Env, own *RecommendFlags) error {
	args := plan.CommandLine(env.Flags, nil)
	_, s, fp, err := recommendFromArgs(env, args)
	if err != nil {
		return err
	}
	defer s.Close()
	ran, err := s.Run(env.Ctx, own.shard.Parsed)
	if err != nil {
		return err
	}
	_, _, cfgs, _ := s.Definition()
	return writeShard(env, shardRun{kind: sweep.KindRecommend, shard: own.shard, args: args, fingerprint: fp, ran: ran, cfgs: cfgs})
}

// normalFlags are drill recommend's bounds on the normal day.
type normalFlags struct {
	maxFallback cli.Share
	minAll4     cli.NormalQuality
}

// register adds the normal day's two bounds to fs.
func (n *normalFlags) register(fs *pflag.FlagSet) {
	n.maxFallback = cli.Share(scoring.DefaultNormalMaxFallback)
	n.minAll4 = cli.NormalQuality{PrimaryAlone: true}
	fs.Var(&n.maxFallback, "normal-max-fallback", "with no outage, the largest share of a class's emails the primary may leave to the backup, the canned reply or a person, in every repeat (5% or 0.05; 100% for no bound)")
	fs.Var(&n.minAll4, "normal-min-all4-right", "with no outage, a class's all-4-right floor: primary (not below the primary alone's 95 % interval on the same day), a share (90% or 0.9), or none")
}

// apply sets the bounds given on the command line (fs); the others are the
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
