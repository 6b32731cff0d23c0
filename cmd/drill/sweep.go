package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/drillfile"
	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/journal"
	"github.com/drill-dev/drill/report"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/sweep"
	"github.com/drill-dev/drill/tui"
	"github.com/drill-dev/drill/vclock"
	"github.com/drill-dev/drill/workload"
)

// Axis names of the sweep besides the drill flags: the outage kinds and
// policy presets, and a --fault key's axis ("fault:retry_after").
const (
	axisOutages  = "outages"
	axisPolicies = "policies"
	faultAxis    = "fault:"
)

// sweepDefaults are the outages and policies a sweep runs when neither the
// flags nor the drill file say: both of the chapter's outages, and the
// breaker preset (the policy every time-limit, retry and breaker flag
// applies to).
var sweepDefaults = map[string]string{axisOutages: "busy,hang", axisPolicies: "breaker"}

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

// kind is how the flag's values are read (which ranges mean).
func (a *axisFlag) kind() sweep.Kind {
	switch a.typ {
	case "int", "int64":
		return sweep.Int
	case "float64":
		return sweep.Float
	case "duration":
		return sweep.Duration
	}
	return sweep.String
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
	add(axisOutages, "string", "outage kinds, comma list (default busy,hang): "+strings.Join(workload.OutageKinds(), ", "), false)
	add(axisPolicies, "string", "policy presets, comma list (default breaker)", false)
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
				return sweep.Grid{}, usagef("%s:%d: sweep.%s is no flag of drill sweep (valid: %s)", file.Path, a.Line, a.Flag, strings.Join(sf.order, ", "))
			}
			note(a.Flag, []string{a.Values})
		}
	}
	for _, name := range sf.given {
		note(name, sf.axes[name].raw)
	}
	if file == nil {
		for _, name := range []string{axisOutages, axisPolicies} {
			if _, ok := given[name]; !ok {
				names = append([]string{name}, names...)
				given[name] = []string{sweepDefaults[name]}
			}
		}
		// The outages and policies go first: rows read outage, policy, then the settings.
		slices.SortStableFunc(names, func(a, b string) int { return axisRank(a) - axisRank(b) })
	}
	var g sweep.Grid
	for _, name := range names {
		a := sf.axes[name]
		raw := given[name]
		var err error
		switch {
		case name == "fault":
			err = addFaultAxes(&g, raw)
		case a.list:
			err = g.Add(name, raw)
		default:
			var vals []string
			if vals, err = sweep.ParseValues(strings.Join(raw, ","), a.kind()); err == nil {
				err = g.Add(name, vals)
			}
		}
		if err != nil {
			return sweep.Grid{}, usagef("--%s: %v", name, err)
		}
	}
	return g, nil
}

// axisRank puts outages first and policies second.
func axisRank(name string) int {
	switch name {
	case axisOutages:
		return 0
	case axisPolicies:
		return 1
	}
	return 2
}

// addFaultAxes adds one axis per --fault key: KEY=V1,V2 sweeps V1 and V2.
func addFaultAxes(g *sweep.Grid, raw []string) error {
	for _, kv := range raw {
		key, vals, ok := strings.Cut(kv, "=")
		key = strings.TrimSpace(key)
		if !ok || key == "" {
			return fmt.Errorf("want KEY=VALUE or KEY=V1,V2, got %q", kv)
		}
		values, err := sweep.ParseValues(vals, sweep.String)
		if err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
		if err := g.Add(faultAxis+key, values); err != nil {
			return err
		}
	}
	return nil
}

// flagsOf writes a setting as the flags of drill run: "--primary-timeout
// 1s --fault retry_after=20s --outage hang".
func flagsOf(s sweep.Setting) string {
	parts := make([]string, 0, len(s))
	for _, a := range s {
		switch {
		case a.Name == axisOutages:
			parts = append(parts, "--outage "+a.Value)
		case a.Name == axisPolicies:
			parts = append(parts, "--policy "+a.Value)
		case strings.HasPrefix(a.Name, faultAxis):
			parts = append(parts, "--fault "+strings.TrimPrefix(a.Name, faultAxis)+"="+a.Value)
		default:
			parts = append(parts, "--"+a.Name+" "+a.Value)
		}
	}
	return strings.Join(parts, " ")
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
		return nil, nil, usageError{err}
	}
	var rows []sweepRow
	var cfgs []workload.Config
	for _, set := range settings {
		got, chk, err := sf.settingConfigs(set, warn)
		if err != nil {
			if len(set) > 0 {
				return nil, nil, fmt.Errorf("setting %s: %w", flagsOf(set), err)
			}
			return nil, nil, err
		}
		*abort = chk.abort
		for _, cfg := range got {
			// The drill file's own outages and policies lead, as the axes do.
			var lead sweep.Setting
			if _, ok := set.Value(axisOutages); !ok {
				lead = append(lead, sweep.Assignment{Name: axisOutages, Value: cfg.Outage})
			}
			if _, ok := set.Value(axisPolicies); !ok {
				lead = append(lead, sweep.Assignment{Name: axisPolicies, Value: cfg.Policy.Name})
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
	fs.StringSliceVar(&outages, axisOutages, nil, "")
	fs.StringSliceVar(&policies, axisPolicies, nil, "")
	for _, a := range set {
		name, v := a.Name, a.Value
		if strings.HasPrefix(name, faultAxis) {
			name, v = "fault", strings.TrimPrefix(name, faultAxis)+"="+v
		}
		if err := fs.Set(name, v); err != nil {
			return nil, checks{}, usagef("--%s %s: %v", name, v, err)
		}
	}
	cfgs, chk, err := df.plan(fs, &f, outages, policies, axisOutages, axisPolicies, nil)
	for _, w := range f.warnings {
		warn(w)
	}
	return cfgs, chk, err
}

// run is drill sweep.
func (sf *sweepFlags) run(cmd *cobra.Command) error {
	fs := cmd.Flags()
	if sf.repeat < 1 {
		return usagef("--repeat must be at least 1, got %d", sf.repeat)
	}
	if sf.maxParallel < 0 {
		return usagef("--max-parallel must not be negative, got %d", sf.maxParallel)
	}
	if sf.top < 0 {
		return usagef("--top must not be negative, got %d", sf.top)
	}
	sortFig, desc, err := parseSort(sf.sortBy)
	if err != nil {
		return err
	}
	var file *drillfile.File
	if sf.file != "" {
		if file, err = drillfile.Load(sf.file); err != nil {
			return usageError{err}
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
			if err := virtualUsage(c); err != nil {
				return err
			}
		}
	}
	if sf.dryRun {
		return writeDryRun(cmd.OutOrStdout(), g, rows, sf.repeat, sf.json)
	}
	paths := make([]string, len(cfgs))
	if sf.record != "" {
		if err := prepareRecordDir(sf.record); err != nil {
			return err
		}
		for i, row := range rows {
			for r, k := range row.runs {
				paths[k] = filepath.Join(sf.record, fmt.Sprintf("%03d-%s-%s-r%d.jsonl", i+1, fileSafe(row.cfg.Outage), fileSafe(row.cfg.Policy.Name), r+1))
				if !sf.force {
					if err := refuseOverwrite(paths[k]); err != nil {
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
			return fromChild(err)
		}
		if show {
			if err := replaySweep(cmd.Context(), rows, jobPaths(jobs)); err != nil {
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
	res, err := tabulate(g, rows, outs, sf.repeat, sf.clock.String(), wall)
	if err != nil {
		return err
	}
	res.withJournals(rows, paths)
	if sortFig != "" {
		res.sort(sortFig, desc)
	}
	if sf.top > 0 && sf.top < len(res.Rows) {
		res.Rows = res.Rows[:sf.top]
	}
	out := cmd.OutOrStdout()
	if sf.json {
		if err := encodeJSON(out, res); err != nil {
			return err
		}
	} else if err := res.writeMarkdown(out); err != nil {
		return err
	}
	// Exit codes as for compare: interrupted (130), aborted (3), failed (1).
	var errs []error
	for i, o := range outs {
		what := fmt.Sprintf("run %d (%s / %s, seed %d)", i+1, cfgs[i].Outage, cfgs[i].Policy.Name, cfgs[i].Seed)
		switch {
		case o.Status == event.StatusInterrupted:
			errs = append(errs, errInterrupted)
		case o.Status == event.StatusAborted:
			errs = append(errs, fmt.Errorf("%s: %w (%s)", what, errAborted, o.Error))
		case o.Error != "":
			errs = append(errs, fmt.Errorf("%s: %s", what, o.Error))
		}
	}
	return worst(errs)
}

// parseSort reads --sort FIGURE[:asc|:desc]: without a direction, best
// first for figures drill knows the direction of, else ascending.
func parseSort(s string) (figure string, desc bool, err error) {
	if s == "" {
		return "", false, nil
	}
	figure, dir, hasDir := strings.Cut(s, ":")
	if !slices.Contains(scoring.Figures(), figure) {
		return "", false, usagef("--sort: unknown figure %q (valid: %s)", figure, strings.Join(scoring.Figures(), ", "))
	}
	switch {
	case !hasDir:
		higher, _ := sweep.HigherIsBetter(figure)
		return figure, higher, nil
	case dir == "asc":
		return figure, false, nil
	case dir == "desc":
		return figure, true, nil
	}
	return "", false, usagef("--sort: unknown direction %q (valid: asc, desc)", dir)
}

// sweepRecordedConfig is a sweep run's journal header config: the run's
// configuration and which setting and repeat of the sweep it is.
type sweepRecordedConfig struct {
	recordedConfig
	Sweep report.SweepTag `json:"sweep"`
}

// sweepHeaders are the journal headers of the runs to record (nil for the
// others).
func sweepHeaders(rows []sweepRow, cfgs []workload.Config, paths []string, repeats int) ([]*journal.Header, error) {
	out := make([]*journal.Header, len(cfgs))
	now := time.Now()
	for i, row := range rows {
		for r, k := range row.runs {
			if paths[k] == "" {
				continue
			}
			c := cfgs[k]
			h, err := journal.NewHeader(sweepRecordedConfig{
				recordedConfig: recordedConfig{Config: c, CeilingNS: c.Ceiling()},
				Sweep:          report.SweepTag{Setting: i + 1, Settings: len(rows), Flags: flagsOf(row.setting), Repeat: r + 1, Repeats: repeats},
			}, now)
			if err != nil {
				return nil, fmt.Errorf("recording %s: %w", paths[k], err)
			}
			h.Clock = event.ClockReal
			out[k] = &h
		}
	}
	return out, nil
}

// sweepReal runs the drills in real time, calling onStart (if not nil) with
// each run as it starts, at most parallel at once (0:
// all), each with its own fake model and clients as drill compare does,
// recording those with a path and guarding them with the abort conditions.
// When ctx ends the runs in flight stop as on Ctrl-C and those not started
// are not run (status interrupted, empty summary).
func sweepReal(ctx context.Context, stderr io.Writer, cfgs []workload.Config, paths []string, headers []*journal.Header, parallel int, abort []scoring.Expr, onStart func(int, *workload.Run)) []vclock.Outcome {
	n := parallel
	if n <= 0 || n > len(cfgs) {
		n = len(cfgs)
	}
	outs := make([]vclock.Outcome, len(cfgs))
	var mu sync.Mutex
	started := make([]*workload.Run, len(cfgs))
	total := 0
	for _, c := range cfgs {
		total += c.Emails
	}
	cursors := make([]*event.Cursor, len(cfgs))
	folds := make([]*scoring.Fold, len(cfgs))
	stopProgress := startProgress(stderr, "sweep", "emails", total, func() int {
		mu.Lock()
		runs := slices.Clone(started)
		mu.Unlock()
		done := 0
		for i, r := range runs {
			if r == nil {
				continue
			}
			if cursors[i] == nil {
				cursors[i], folds[i] = r.Log().Cursor(), scoring.NewFold()
			}
			folds[i].AddAll(cursors[i].Poll())
			done += folds[i].Served().Total()
		}
		return done
	})
	defer stopProgress()
	slots := make(chan struct{}, max(n, 1))
	var wg sync.WaitGroup
	for i, cfg := range cfgs {
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			outs[i] = vclock.Outcome{Status: event.StatusInterrupted}
			continue
		}
		wg.Go(func() {
			defer func() { <-slots }()
			outs[i] = runOneReal(ctx, cfg, paths[i], headers[i], abort, func(r *workload.Run) {
				mu.Lock()
				started[i] = r
				mu.Unlock()
				if onStart != nil {
					onStart(i, r)
				}
			})
		})
	}
	wg.Wait()
	return outs
}

// sweepDashboard runs the drills in real time under the sweep dashboard
// (tui.Sweep) on the terminal. Quitting it while runs go stops them
// (interrupted, exit 130); once they are all done it waits for the user to
// quit, and the table is printed after.
func sweepDashboard(ctx context.Context, rows []sweepRow, cfgs []workload.Config, paths []string, headers []*journal.Header, parallel int, abort []scoring.Expr) ([]vclock.Outcome, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var mu sync.Mutex
	logs := make([]*event.Log, len(cfgs))
	var outs []vclock.Outcome
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		outs = sweepReal(ctx, io.Discard, cfgs, paths, headers, parallel, abort, func(i int, r *workload.Run) {
			mu.Lock()
			logs[i] = r.Log()
			mu.Unlock()
		})
	}()
	src := tui.SweepSource{Labels: rowLabels(rows), Logs: func(row int) []*event.Log {
		mu.Lock()
		defer mu.Unlock()
		var out []*event.Log
		for _, k := range rows[row].runs {
			if logs[k] != nil {
				out = append(out, logs[k])
			}
		}
		return out
	}}
	err := tui.Sweep(ctx, src, tui.Options{Output: os.Stdout})
	cancel() // quitting early stops the runs still going
	<-finished
	if err != nil && !errors.Is(err, context.Canceled) {
		return outs, err
	}
	return outs, nil
}

// jobPaths are the jobs' journal paths.
func jobPaths(jobs []vclock.Job) []string {
	out := make([]string, len(jobs))
	for i, j := range jobs {
		out[i] = j.Journal
	}
	return out
}

// replaySweep shows a finished virtual sweep in the sweep dashboard, its
// rows filled in from the journals; enter replays a setting's first run in
// the replay dashboard (as drill replay, at 1×; + and - change the speed).
func replaySweep(ctx context.Context, rows []sweepRow, paths []string) error {
	logs := make([]*event.Log, len(paths))
	events := make([][]event.Event, len(paths))
	for i, p := range paths {
		j, err := journal.ReadFileContext(ctx, p)
		if err != nil {
			return fmt.Errorf("reading the virtual run back: %w", err)
		}
		events[i] = j.Events
		logs[i] = event.NewLog(j.Header.Start)
		for _, e := range j.Events {
			logs[i].AppendRecorded(e)
		}
		logs[i].Close()
	}
	src := tui.SweepSource{
		Labels: rowLabels(rows),
		Logs: func(row int) []*event.Log {
			var out []*event.Log
			for _, k := range rows[row].runs {
				out = append(out, logs[k])
			}
			return out
		},
		Open: func(ctx context.Context, row int) error {
			return tui.Replay(ctx, events[rows[row].runs[0]], tui.ReplayOptions{Options: tui.Options{Output: os.Stdout}})
		},
	}
	if err := tui.Sweep(ctx, src, tui.Options{Output: os.Stdout}); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}

// rowLabels names each row by the axes whose values differ between rows.
func rowLabels(rows []sweepRow) []string {
	res := sweepResult{}
	for _, r := range rows {
		res.Rows = append(res.Rows, sweepOut{order: r.setting, Setting: map[string]string{}})
	}
	vary := res.varying()
	out := make([]string, len(rows))
	for i, r := range rows {
		var s sweep.Setting
		for _, a := range r.setting {
			if slices.Contains(vary, a.Name) {
				s = append(s, a)
			}
		}
		out[i] = flagsOf(s)
	}
	return out
}

// runOneReal runs one drill of a sweep in real time.
func runOneReal(ctx context.Context, cfg workload.Config, path string, h *journal.Header, abort []scoring.Expr, onStart func(*workload.Run)) vclock.Outcome {
	r, err := startRun(ctx, cfg)
	if err != nil {
		return vclock.Outcome{Status: event.StatusFailed, Error: err.Error()}
	}
	onStart(r)
	var rec *journal.Writer
	if path != "" {
		hh := *h
		hh.Start = r.Log().Start()
		rec, err = journal.Create(path, hh, r.Log(), journal.Options{Secrets: []string{cfg.Endpoint.APIKey}})
		if err != nil {
			r.Stop()
			<-r.Done()
			return vclock.Outcome{Status: event.StatusFailed, Error: fmt.Sprintf("--record: %v", err)}
		}
	}
	guarded := make(chan string, 1)
	go func() { guarded <- drillfile.Guard(r, abort, drillfile.GuardInterval) }()
	status := r.Wait()
	reason := <-guarded
	fold := scoring.NewFold()
	fold.AddAll(r.Log().Events())
	sum := fold.Summary()
	o := vclock.Outcome{Summary: sum, Status: status, Failed: fold.FailedCalls()}
	if status == event.StatusAborted {
		o.Error = "by " + reason
	}
	if err := finishRecording(rec, sum, status); err != nil {
		o.Error = err.Error()
	}
	return o
}

// sweepResult is what drill sweep prints: `--json` prints it as is.
type sweepResult struct {
	// Axes are the swept flags and their values, in grid order.
	Axes []sweep.Axis `json:"axes"`
	// Settings is the number of rows before --top; Repeats the runs per row.
	Settings int `json:"settings"`
	Repeats  int `json:"repeats"`
	// Clock is real or virtual; WallS the sweep's wall time in seconds.
	Clock string  `json:"clock"`
	WallS float64 `json:"wall_s"`
	// Objectives are the figures domination is judged on.
	Objectives []string   `json:"objectives"`
	Rows       []sweepOut `json:"rows"`
}

// sweepOut is one row: one setting over its repeats.
type sweepOut struct {
	// Setting is every axis's value for this row (outages and policies
	// included), Flags the same as drill run flags.
	Setting map[string]string `json:"setting"`
	Flags   string            `json:"flags"`
	Outage  string            `json:"outage"`
	Policy  string            `json:"policy"`
	// Seeds are the latency seeds of the repeats; Statuses how each ended.
	Seeds    []int64  `json:"seeds"`
	Statuses []string `json:"statuses"`
	// Figures are every numeric summary figure: median, min, max over the
	// repeats that measured it, and n, how many did.
	Figures map[string]sweep.Stat `json:"figures"`
	// Dominated: another row of the same outage (kind and --fault values)
	// is at least as good on every objective (by median) and better on one.
	Dominated bool `json:"dominated"`
	// Journals are the recorded journals (--record), one per repeat.
	Journals []string `json:"journals,omitempty"`

	order []sweep.Assignment // the setting, in axis order
}

// numericFigures are a summary's number figures (a null figure is left out).
func numericFigures(s scoring.Summary) (map[string]float64, error) {
	figs, err := scoring.FiguresOf(s)
	if err != nil {
		return nil, err
	}
	out := make(map[string]float64, len(figs))
	for name, v := range figs {
		if f, ok := v.(float64); ok {
			out[name] = f
		}
	}
	return out, nil
}

// tabulate aggregates the outcomes into rows and marks the dominated ones.
func tabulate(g sweep.Grid, rows []sweepRow, outs []vclock.Outcome, repeats int, clock string, wall time.Duration) (*sweepResult, error) {
	res := &sweepResult{Axes: g.Axes, Settings: len(rows), Repeats: repeats, Clock: clock, WallS: wall.Seconds()}
	for _, o := range sweep.TradeOff {
		res.Objectives = append(res.Objectives, o.Figure)
	}
	stats := make([]map[string]sweep.Stat, len(rows))
	for i, row := range rows {
		o := sweepOut{Setting: map[string]string{}, Flags: flagsOf(row.setting), Outage: row.cfg.Outage, Policy: row.cfg.Policy.Name, order: row.setting}
		for _, a := range row.setting {
			o.Setting[a.Name] = a.Value
		}
		var figs []map[string]float64
		for _, k := range row.runs {
			out := outs[k]
			o.Seeds = append(o.Seeds, row.cfg.Seed+int64(len(o.Seeds)))
			o.Statuses = append(o.Statuses, out.Status)
			if out.Summary.Outage == "" { // never ran (interrupted before its turn)
				continue
			}
			f, err := numericFigures(out.Summary)
			if err != nil {
				return nil, err
			}
			figs = append(figs, f)
		}
		o.Figures = sweep.Aggregate(figs)
		stats[i] = o.Figures
		res.Rows = append(res.Rows, o)
	}
	// A setting competes with the settings of the same outage: the outage
	// and its fault parameters are the scenario, the rest are choices.
	groups := map[string][]int{}
	var keys []string
	for i, row := range rows {
		key := row.cfg.Outage
		for _, a := range row.setting {
			if strings.HasPrefix(a.Name, faultAxis) {
				key += " " + a.Name + "=" + a.Value
			}
		}
		if _, ok := groups[key]; !ok {
			keys = append(keys, key)
		}
		groups[key] = append(groups[key], i)
	}
	for _, key := range keys {
		idx := groups[key]
		sub := make([]map[string]sweep.Stat, len(idx))
		for k, i := range idx {
			sub[k] = stats[i]
		}
		for k, d := range sweep.Dominated(sub, sweep.TradeOff) {
			res.Rows[idx[k]].Dominated = d
		}
	}
	return res, nil
}

// withJournals adds the journal paths to the rows (in row order, before
// sorting).
func (res *sweepResult) withJournals(rows []sweepRow, paths []string) {
	for i, row := range rows {
		for _, k := range row.runs {
			if paths[k] != "" {
				res.Rows[i].Journals = append(res.Rows[i].Journals, paths[k])
			}
		}
	}
}

// sort orders the rows by a figure's median.
func (res *sweepResult) sort(figure string, desc bool) {
	stats := make([]map[string]sweep.Stat, len(res.Rows))
	for i, r := range res.Rows {
		stats[i] = r.Figures
	}
	idx := sweep.Order(stats, figure, desc)
	sorted := make([]sweepOut, len(idx))
	for i, k := range idx {
		sorted[i] = res.Rows[k]
	}
	res.Rows = sorted
}

// varying are the axes whose value differs between rows, in axis order.
func (res *sweepResult) varying() []string {
	var names []string
	vals := map[string]map[string]bool{}
	for _, r := range res.Rows {
		for _, a := range r.order {
			if vals[a.Name] == nil {
				vals[a.Name] = map[string]bool{}
				names = append(names, a.Name)
			}
			vals[a.Name][a.Value] = true
		}
	}
	return slices.DeleteFunc(names, func(n string) bool { return len(vals[n]) < 2 })
}

// fixed are the axes every row shares, as flags.
func (res *sweepResult) fixed() string {
	if len(res.Rows) == 0 {
		return ""
	}
	vary := res.varying()
	var s sweep.Setting
	for _, a := range res.Rows[0].order {
		if !slices.Contains(vary, a.Name) {
			s = append(s, a)
		}
	}
	return flagsOf(s)
}

// statText formats a Stat as "median (min–max)" with the unit once, when
// the repeats differ; "—" when nothing measured it.
func statText(st sweep.Stat, ok bool, num func(float64) string, unit string) string {
	if !ok || st.N == 0 {
		return "—"
	}
	if st.Min == st.Max {
		return num(st.Median) + unit
	}
	return fmt.Sprintf("%s%s (%s–%s)", num(st.Median), unit, num(st.Min), num(st.Max))
}

func secs(v float64) string  { return fmt.Sprintf("%.2f", v) }
func pctf(v float64) string  { return fmt.Sprintf("%.1f", v*100) }
func count(v float64) string { return strings.TrimSuffix(fmt.Sprintf("%.1f", v), ".0") }

// axisHead is a column head for an axis.
func axisHead(name string) string {
	switch {
	case name == axisOutages:
		return "Outage"
	case name == axisPolicies:
		return "Policy"
	case strings.HasPrefix(name, faultAxis):
		return "--fault " + strings.TrimPrefix(name, faultAxis)
	}
	return "--" + name
}

// writeMarkdown prints the rows as a Markdown table with a note below.
func (res *sweepResult) writeMarkdown(w io.Writer) error {
	vary := res.varying()
	head := []string{"#"}
	for _, n := range vary {
		head = append(head, axisHead(n))
	}
	head = append(head, "primary / backup / canned / error", "p95 wait, outage", "Typical wait, outage",
		"All 4 right", "Calls to broken model, outage", "Breaker first open", "Trade-off")
	var b strings.Builder
	b.WriteString("| " + strings.Join(head, " | ") + " |\n|")
	b.WriteString(strings.Repeat(" --- |", len(head)) + "\n")
	for i, r := range res.Rows {
		cells := []string{fmt.Sprint(i + 1)}
		for _, n := range vary {
			cells = append(cells, r.Setting[n])
		}
		fig := func(name string, num func(float64) string, unit string) string {
			st, ok := r.Figures[name]
			return statText(st, ok, num, unit)
		}
		served := make([]string, 4)
		for k, rung := range []string{"primary", "backup", "canned", "error"} {
			served[k] = count(r.Figures["served."+rung].Median)
		}
		front := "front"
		if r.Dominated {
			front = "dominated"
		}
		cells = append(cells, strings.Join(served, " / "), fig("p95_wait_outage_s", secs, " s"), fig("median_wait_outage_s", secs, " s"),
			fig("all4_right", pctf, "%"), fig("calls_to_broken_outage", count, ""), fig("breaker_first_open_s", secs, " s"), front)
		b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
	}
	fmt.Fprintf(&b, "\n%d setting%s × %d repeat%s, %s clock, %.1f s wall.", res.Settings, plural(res.Settings), res.Repeats, plural(res.Repeats), res.Clock, res.WallS)
	if f := res.fixed(); f != "" {
		fmt.Fprintf(&b, " Every row: %s.", f)
	}
	if len(res.Rows) < res.Settings {
		fmt.Fprintf(&b, " Showing %d of %d rows.", len(res.Rows), res.Settings)
	}
	b.WriteString(" Figures are medians over the repeats, (smallest–largest) when they differ; served counts are medians." +
		" Dominated: another setting of the same outage is at least as good on p95 wait, all 4 right and calls to the broken model (medians) and better on one.\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// dryRun is what `drill sweep --dry-run --json` prints.
type dryRun struct {
	Axes     []sweep.Axis `json:"axes"`
	Settings int          `json:"settings"`
	Repeats  int          `json:"repeats"`
	Runs     int          `json:"runs"`
	Grid     []string     `json:"grid"` // each setting as drill run flags
}

// writeDryRun prints the grid and its size.
func writeDryRun(w io.Writer, g sweep.Grid, rows []sweepRow, repeats int, asJSON bool) error {
	d := dryRun{Axes: g.Axes, Settings: len(rows), Repeats: repeats, Runs: len(rows) * repeats}
	for _, r := range rows {
		d.Grid = append(d.Grid, flagsOf(r.setting))
	}
	if asJSON {
		return encodeJSON(w, d)
	}
	var b strings.Builder
	b.WriteString(g.Shape())
	if n, _ := g.Size(); n != len(rows) {
		fmt.Fprintf(&b, " × the drill file's runs = %d rows", len(rows))
	}
	fmt.Fprintf(&b, " × %d repeat%s = %d drills\n", repeats, plural(repeats), d.Runs)
	for _, a := range g.Axes {
		fmt.Fprintf(&b, "  %s: %s\n", axisHead(a.Name), strings.Join(a.Values, ", "))
	}
	width := len(fmt.Sprint(len(rows)))
	for i, s := range d.Grid {
		fmt.Fprintf(&b, "%*d  %s\n", width, i+1, s)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
