package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/internal/drillfile"
	"github.com/drill-dev/drill/internal/drills"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/internal/session"
	"github.com/drill-dev/drill/internal/sweep"
	"github.com/drill-dev/drill/internal/vclock"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/tui"
	"github.com/drill-dev/drill/workload"
)

// axisFlag is a drill flag as `drill sweep` takes it: every occurrence's
// text, expanded later into the axis's values.
type axisFlag struct {
	name  string
	typ   string // the drill flag's pflag type: int, duration, bool, ...
	raw   []string
	list  bool      // a list flag (--trip): each occurrence is one value
	given *[]string // the axes given, in command-line order
}

func (a *axisFlag) String() string { return strings.Join(a.raw, ",") }
func (a *axisFlag) Type() string   { return "values" }
func (a *axisFlag) Set(s string) error {
	if len(a.raw) == 0 {
		*a.given = append(*a.given, a.name)
	}
	a.raw = append(a.raw, s)
	return nil
}

// sweepFlags are drill sweep's flags.
type sweepFlags struct {
	file        string
	axes        map[string]*axisFlag // the drill flags, by name
	order       []string             // their names, as registered
	given       []string             // the names given, in command-line order
	repeat      int
	maxParallel int
	dryRun      bool
	json        bool
	sortBy      string
	top         int
	record      string
	force       bool
	noTUI       bool
	clock       clockValue
}

func newSweepCmd() *cobra.Command {
	sf := &sweepFlags{axes: map[string]*axisFlag{}}
	cmd := &cobra.Command{
		Use:   "sweep",
		Short: "Run every combination of settings, concurrently, and tabulate the trade-off",
		Long: `Run a grid of drills: every flag that takes one value takes a comma list or a
range (0..2 counts up by one; 1s..5s..1s and 0.1..0.5..0.1 need a step), and
every combination runs concurrently, on the same emails and seed, as drill
compare does. --repeat N runs each setting N times with latency seeds seed,
seed+1, ...; the table gives each figure's median over the repeats and its
spread (smallest–largest). Rows marked "dominated" are beaten by another row
on all three trade-off figures: p95 wait during the outage, all-4-right and
calls to the broken model. A drill file's sweep: section gives axes too;
flags given override the file's axes and settings.

--fault KEY=V1,V2 sweeps a fault parameter; --trip is a list already, so
each --trip occurrence is one value (--trip count --trip count,in-flight).
Bool flags take true,false (--rules=true,false).`,
		Example: `  drill sweep --clock virtual --primary-timeout 1s,2s,3s,5s --primary-retries 0..2 --trip-failures 3,5
  drill sweep --primary-timeout 1s..5s..1s --outages hang --repeat 3 --sort p95_wait_outage_s --top 5
  drill sweep --policies breaker,fail-fast --cooldown 5s,10s --dry-run
  drill sweep -f examples/sweep.yaml --clock virtual --record runs/ && drill report runs/*.jsonl`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error { return sf.run(cmd) },
	}
	fs := cmd.Flags()
	fs.StringVarP(&sf.file, "file", "f", "", "read the drill from this drill file; its sweep: section adds axes (flags given override it)")
	fs.IntVar(&sf.repeat, "repeat", 1, "run each setting this many times, with latency seeds seed, seed+1, ...")
	fs.IntVar(&sf.maxParallel, "max-parallel", 0, "run at most this many drills at once (0: all)")
	fs.BoolVar(&sf.dryRun, "dry-run", false, "print the grid and its size, check every setting, run nothing")
	fs.BoolVar(&sf.json, "json", false, "print the rows as JSON")
	fs.StringVar(&sf.sortBy, "sort", "", "sort the rows by this figure's median (e.g. p95_wait_outage_s, all4_right); best first, or FIGURE:asc / FIGURE:desc")
	fs.IntVar(&sf.top, "top", 0, "print only the first N rows (after --sort; 0: all)")
	fs.StringVar(&sf.record, "record", "", "record every run's journal in this directory (then: drill report DIR/*.jsonl)")
	fs.BoolVar(&sf.force, "force", false, "let --record overwrite journals already in the directory")
	fs.BoolVar(&sf.noTUI, "no-tui", false, "no sweep dashboard: progress on stderr, then the table (the default when stdout is no terminal)")
	registerClock(fs, &sf.clock)
	sf.registerAxes(fs)
	return cmd
}

// registerAxes adds --outages, --policies and every drill flag of run and
// compare as a list flag.
func (sf *sweepFlags) registerAxes(fs *pflag.FlagSet) {
	add := func(name, typ, usage string, list bool) *pflag.Flag {
		a := &axisFlag{name: name, typ: typ, list: list, given: &sf.given}
		sf.axes[name], sf.order = a, append(sf.order, name)
		fs.Var(a, name, usage)
		return fs.Lookup(name)
	}
	add(sweep.AxisOutages, "string", "outage kinds, comma list (default busy,hang): "+strings.Join(workload.OutageKinds(), ", "), false)
	add(sweep.AxisPolicies, "string", "policy presets, comma list (default breaker)", false)
	tmpl := pflag.NewFlagSet("drill", pflag.ContinueOnError)
	var f drillFlags
	f.register(tmpl)
	for _, name := range f.names {
		fl := tmpl.Lookup(name)
		typ := fl.Value.Type()
		usage := fl.Usage
		switch typ {
		case "stringSlice":
			add(name, typ, usage+"; repeatable, each occurrence one value of the sweep", true)
		case "stringArray": // --fault KEY=V1,V2
			add(name, typ, usage+"; in a sweep KEY=V1,V2 sweeps the key's values", true)
		case "bool":
			add(name, typ, usage+"; true, false or true,false", false).NoOptDefVal = "true"
		default:
			def := ""
			if fl.DefValue != "" && fl.DefValue != "0" && fl.DefValue != "0s" && fl.DefValue != "[]" {
				def = " (default " + fl.DefValue + ")"
			}
			add(name, typ, usage+def+"; a comma list or a range sweeps it", false)
		}
	}
}

// grid builds the sweep's axes: the drill file's sweep section, then the
// flags given (which replace a file axis of the same flag).
func (sf *sweepFlags) grid(fs *pflag.FlagSet, file *drillfile.File) (sweep.Grid, error) {
	given := map[string][]string{} // axis name → raw texts, in flag order
	var names []string
	note := func(name string, raw []string) {
		if _, ok := given[name]; !ok {
			names = append(names, name)
		}
		given[name] = raw
	}
	if file != nil {
		for _, a := range file.Sweep {
			if _, ok := sf.axes[a.Flag]; !ok {
				return sweep.Grid{}, exit.Usagef("%s:%d: sweep.%s is no flag of drill sweep (valid: %s)", file.Path, a.Line, a.Flag, strings.Join(sf.order, ", "))
			}
			note(a.Flag, []string{a.Values})
		}
	}
	for _, name := range sf.given {
		note(name, sf.axes[name].raw)
	}
	axes := make([]sweep.RawAxis, len(names))
	for i, name := range names {
		a := sf.axes[name]
		axes[i] = sweep.RawAxis{Name: name, Type: a.typ, Raw: given[name], List: a.list}
	}
	g, err := sweep.BuildGrid(axes, file == nil)
	if err != nil {
		return sweep.Grid{}, exit.UsageError(err)
	}
	return g, nil
}

// sweepRow is one setting of the sweep: for a drill file whose outages or
// policies are not swept, each of the file's runs is a setting of its own.
type sweepRow struct {
	setting sweep.Setting
	cfg     workload.Config // the first repeat's
	runs    []int           // indexes into the jobs, one per repeat
}

// plan turns the grid into rows and the runs to make. Every setting's
// configuration is built and checked the way drill compare builds one, so a
// bad value fails before anything runs.
func (sf *sweepFlags) plan(g sweep.Grid, abort *[]scoring.Expr, warn func(string)) ([]sweepRow, []workload.Config, error) {
	settings, err := g.Settings()
	if err != nil {
		return nil, nil, exit.UsageError(err)
	}
	var rows []sweepRow
	var cfgs []workload.Config
	for _, set := range settings {
		got, chk, err := sf.settingConfigs(set, warn)
		if err != nil {
			if len(set) > 0 {
				return nil, nil, fmt.Errorf("setting %s: %w", set.Flags(), err)
			}
			return nil, nil, err
		}
		*abort = chk.abort
		for _, cfg := range got {
			// The drill file's own outages and policies lead, as the axes do.
			var lead sweep.Setting
			if _, ok := set.Value(sweep.AxisOutages); !ok {
				lead = append(lead, sweep.Assignment{Name: sweep.AxisOutages, Value: cfg.Outage})
			}
			if _, ok := set.Value(sweep.AxisPolicies); !ok {
				lead = append(lead, sweep.Assignment{Name: sweep.AxisPolicies, Value: cfg.Policy.Name})
			}
			row := sweepRow{setting: append(lead, set...), cfg: cfg}
			for r := range sf.repeat {
				c := cfg
				c.Seed += int64(r)
				row.runs = append(row.runs, len(cfgs))
				cfgs = append(cfgs, c)
			}
			rows = append(rows, row)
		}
	}
	return rows, cfgs, nil
}

// settingConfigs builds one setting's drills: a fresh set of drill run's
// flags set to the setting's values, resolved as drill compare resolves its
// flags (and the drill file, if any).
func (sf *sweepFlags) settingConfigs(set sweep.Setting, warn func(string)) ([]workload.Config, checks, error) {
	fs := pflag.NewFlagSet("sweep", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var f drillFlags
	f.register(fs)
	df := fileFlags{path: sf.file}
	var outages, policies []string
	fs.StringSliceVar(&outages, sweep.AxisOutages, nil, "")
	fs.StringSliceVar(&policies, sweep.AxisPolicies, nil, "")
	for _, a := range set {
		name, v := a.Name, a.Value
		if strings.HasPrefix(name, sweep.FaultAxis) {
			name, v = "fault", strings.TrimPrefix(name, sweep.FaultAxis)+"="+v
		}
		if err := fs.Set(name, v); err != nil {
			return nil, checks{}, exit.Usagef("--%s %s: %v", name, v, err)
		}
	}
	cfgs, chk, err := df.plan(fs, &f, outages, policies, sweep.AxisOutages, sweep.AxisPolicies, nil)
	for _, w := range f.warnings {
		warn(w)
	}
	return cfgs, chk, err
}

// run is drill sweep.
func (sf *sweepFlags) run(cmd *cobra.Command) error {
	fs := cmd.Flags()
	if sf.repeat < 1 {
		return exit.Usagef("--repeat must be at least 1, got %d", sf.repeat)
	}
	if sf.maxParallel < 0 {
		return exit.Usagef("--max-parallel must not be negative, got %d", sf.maxParallel)
	}
	if sf.top < 0 {
		return exit.Usagef("--top must not be negative, got %d", sf.top)
	}
	sortFig, desc, err := sweep.ParseSort(sf.sortBy)
	if err != nil {
		return exit.Usagef("--sort: %w", err)
	}
	var file *drillfile.File
	if sf.file != "" {
		if file, err = drillfile.Load(sf.file); err != nil {
			return exit.UsageError(err)
		}
	}
	g, err := sf.grid(fs, file)
	if err != nil {
		return err
	}
	stderr := cmd.ErrOrStderr()
	var warned []string
	warn := func(w string) {
		if !slices.Contains(warned, w) {
			warned = append(warned, w)
			fmt.Fprintln(stderr, "drill: warning:", w)
		}
	}
	var abort []scoring.Expr
	rows, cfgs, err := sf.plan(g, &abort, warn)
	if err != nil {
		return err
	}
	if sf.clock.virtual() {
		for _, c := range cfgs {
			if err := session.VirtualUsage(c); err != nil {
				return err
			}
		}
	}
	if sf.dryRun {
		settings := make([]sweep.Setting, len(rows))
		for i, r := range rows {
			settings[i] = r.setting
		}
		d := sweep.PlanDry(g, settings, sf.repeat)
		if sf.json {
			return encodeJSON(cmd.OutOrStdout(), d)
		}
		return plain.SweepDryRun(cmd.OutOrStdout(), d)
	}
	paths := make([]string, len(cfgs))
	if sf.record != "" {
		if err := journal.PrepareDir(sf.record); err != nil {
			return err
		}
		for i, row := range rows {
			for r, k := range row.runs {
				paths[k] = filepath.Join(sf.record, fmt.Sprintf("%03d-%s-%s-r%d.jsonl", i+1, journal.FileSafe(row.cfg.Outage), journal.FileSafe(row.cfg.Policy.Name), r+1))
				if !sf.force {
					if err := journal.RefuseOverwrite(paths[k]); err != nil {
						return err
					}
				}
			}
		}
	}
	headers, err := sweepHeaders(rows, cfgs, paths, sf.repeat)
	if err != nil {
		return err
	}
	start := time.Now()
	var outs []vclock.Outcome
	if sf.clock.virtual() {
		jobs := make([]vclock.Job, len(cfgs))
		for i, c := range cfgs {
			jobs[i] = vclock.Job{Config: c, Journal: paths[i], Header: headers[i]}
		}
		show := !sf.noTUI && !sf.json && stdoutIsTerminal()
		if show {
			// The dashboard replays the runs: record those not recorded.
			tmp, err := os.MkdirTemp("", "drill-sweep-*")
			if err != nil {
				return fmt.Errorf("recording the virtual runs for the dashboard: %w", err)
			}
			defer os.RemoveAll(tmp)
			for i := range jobs {
				if jobs[i].Journal == "" {
					jobs[i].Journal = filepath.Join(tmp, fmt.Sprintf("%04d.jsonl", i+1))
				}
			}
			if headers, err = sweepHeaders(rows, cfgs, jobPaths(jobs), sf.repeat); err != nil {
				return err
			}
			for i := range jobs {
				jobs[i].Header = headers[i]
			}
		}
		fmt.Fprintf(stderr, "drill sweep: %d drills in virtual time…\n", len(jobs))
		if outs, err = vclock.Drills(cmd.Context(), jobs, sf.maxParallel, stderr); err != nil {
			return session.FromChild(err)
		}
		if show {
			runs := make([][]int, len(rows))
			for i, r := range rows {
				runs[i] = r.runs
			}
			if err := tui.SweepRecorded(cmd.Context(), rowLabels(rows), runs, jobPaths(jobs), tui.Options{Output: os.Stdout}); err != nil {
				return err
			}
		}
	} else if !sf.noTUI && !sf.json && stdoutIsTerminal() {
		if outs, err = sweepDashboard(cmd.Context(), rows, cfgs, paths, headers, sf.maxParallel, abort); err != nil {
			return err
		}
	} else {
		outs = sweepReal(cmd.Context(), stderr, cfgs, paths, headers, sf.maxParallel, abort, nil)
	}
	wall := time.Since(start)
	planned := make([]sweep.Planned, len(rows))
	for i, row := range rows {
		planned[i] = sweep.Planned{Setting: row.setting, Outage: row.cfg.Outage, Policy: row.cfg.Policy.Name, Seed: row.cfg.Seed}
		for _, k := range row.runs {
			planned[i].Runs = append(planned[i].Runs, sweep.Ran{Status: outs[k].Status, Summary: outs[k].Summary, Journal: paths[k]})
		}
	}
	res, err := sweep.Tabulate(g, planned, sf.repeat, sf.clock.String(), wall.Seconds())
	if err != nil {
		return err
	}
	if sortFig != "" {
		res.Sort(sortFig, desc)
	}
	res.Top(sf.top)
	out := cmd.OutOrStdout()
	if sf.json {
		if err := encodeJSON(out, res); err != nil {
			return err
		}
	} else if err := plain.SweepTable(out, res); err != nil {
		return err
	}
	// Exit codes as for compare: interrupted (130), aborted (3), failed (1).
	return worst(drills.Errs(cfgs, outs))
}
