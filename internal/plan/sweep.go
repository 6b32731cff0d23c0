package plan

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/internal/drillfile"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/sweep"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

// Sweep is drill sweep's command line: every drill flag of run and compare
// as an axis (a comma list or a range), --outages and --policies, a drill
// file whose sweep: section adds axes, and the repeats. Plan turns it into
// the settings to run and their drills.
type Sweep struct {
	File        string // -f
	Repeat      int    // --repeat
	MaxParallel int    // --max-parallel
	SortBy      string // --sort
	Top         int    // --top
	// Workload is --workload: triage, or chat (PlanChat).
	Workload string

	axes  map[string]*axisFlag // the drill flags, by name
	order []string             // their names, as registered
	given []string             // the names given, in command-line order
}

// axisFlag is a drill flag as drill sweep takes it: every occurrence's
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

// Register adds -f, --repeat, --max-parallel, --sort, --top, --outages,
// --policies and every drill flag of run and compare as a list flag.
func (s *Sweep) Register(fs *pflag.FlagSet) {
	fs.StringVarP(&s.File, "file", "f", "", "read the drill from this drill file; its sweep: section adds axes (flags given override it)")
	fs.IntVar(&s.Repeat, "repeat", 1, "run each setting this many times, with latency seeds seed, seed+1, ...")
	fs.IntVar(&s.MaxParallel, "max-parallel", 0, "run at most this many drills at once (0: as many as half the available memory holds, at most 64)")
	fs.StringVar(&s.SortBy, "sort", "", "sort the rows by this figure's median (e.g. p95_wait_outage_s, all4_right); best first, or FIGURE:asc / FIGURE:desc")
	fs.IntVar(&s.Top, "top", 0, "print only the first N rows (after --sort; 0: all)")
	s.axes = map[string]*axisFlag{}
	add := func(name, typ, usage string, list bool) *pflag.Flag {
		a := &axisFlag{name: name, typ: typ, list: list, given: &s.given}
		s.axes[name], s.order = a, append(s.order, name)
		fs.Var(a, name, usage)
		return fs.Lookup(name)
	}
	add(sweep.AxisOutages, "string", "outage kinds, comma list (default busy,hang): "+strings.Join(workload.OutageKinds(), ", "), false)
	add(sweep.AxisPolicies, "string", "policy presets, comma list (default breaker)", false)
	tmpl := pflag.NewFlagSet("drill", pflag.ContinueOnError)
	var c CLI
	c.Register(tmpl)
	for _, name := range c.Names() {
		if name == routeFlag {
			continue // a sweep's routes are fixed: a drill file's routes: (-f)
		}
		fl := tmpl.Lookup(name)
		typ, usage := fl.Value.Type(), fl.Usage
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
	s.registerChat(fs, add)
}

// Validate checks the sweep's own settings and returns the --sort figure
// and direction. Errors are usage errors (exit 2).
func (s *Sweep) Validate() (sortFigure string, desc bool, err error) {
	switch {
	case s.Repeat < 1:
		return "", false, exit.Usagef("--repeat must be at least 1, got %d", s.Repeat)
	case s.Repeat > sweep.MaxRuns:
		return "", false, exit.Usagef("--repeat must be at most %d (the most drills a sweep runs), got %d", sweep.MaxRuns, s.Repeat)
	case s.MaxParallel < 0:
		return "", false, exit.Usagef("--max-parallel must not be negative, got %d", s.MaxParallel)
	case s.Top < 0:
		return "", false, exit.Usagef("--top must not be negative, got %d", s.Top)
	}
	sortFigure, desc, err = sweep.ParseSort(s.SortBy)
	if err != nil {
		return "", false, exit.Usagef("--sort: %w", err)
	}
	return sortFigure, desc, nil
}

// Grid builds the sweep's axes: the drill file's sweep section, then the
// flags given (which replace a file axis of the same flag). file is nil
// without -f.
func (s *Sweep) Grid(file *drillfile.File) (sweep.Grid, error) {
	given := map[string][]string{} // axis name → raw texts, in flag order
	where := map[string]string{}   // axis name → the file's line, when the file gave it
	var names []string
	note := func(name string, raw []string, at string) {
		if _, ok := given[name]; !ok {
			names = append(names, name)
		}
		given[name], where[name] = raw, at
	}
	if file != nil {
		for _, a := range file.Sweep {
			at := fmt.Sprintf("%s:%d: sweep.%s", file.Path, a.Line, a.Flag)
			if _, ok := s.axes[a.Flag]; !ok {
				return sweep.Grid{}, exit.Usagef("%s is no flag of drill sweep (valid: %s)", at, strings.Join(s.order, ", "))
			}
			note(a.Flag, []string{a.Values}, at)
		}
	}
	for _, name := range s.given {
		note(name, s.axes[name].raw, "")
	}
	axes := make([]sweep.RawAxis, len(names))
	for i, name := range names {
		a := s.axes[name]
		axes[i] = sweep.RawAxis{Name: name, Type: a.typ, Raw: given[name], List: a.list, Where: where[name]}
	}
	g, err := sweep.BuildGrid(axes, file == nil)
	if err != nil {
		return sweep.Grid{}, exit.UsageError(err)
	}
	return g, nil
}

// SweepRow is one setting of the sweep: for a drill file whose outages or
// policies are not swept, each of the file's runs is a setting of its own.
type SweepRow struct {
	Setting sweep.Setting
	Config  workload.Config // the first repeat's
	Runs    []int           // indexes into the drills, one per repeat
}

// SweepRows are a sweep's settings, in order.
type SweepRows []SweepRow

// Settings are the rows' settings.
func (rows SweepRows) Settings() []sweep.Setting {
	out := make([]sweep.Setting, len(rows))
	for i, r := range rows {
		out[i] = r.Setting
	}
	return out
}

// Plan turns the grid into rows and the drills to run (every repeat of
// every row, the repeat's seed added to the row's), with the drill file's
// abort conditions. Every setting's configuration is built and checked the
// way drill compare builds one, so a bad value fails before anything runs;
// warn is told what the user should know.
func (s *Sweep) Plan(g sweep.Grid, warn func(string)) (SweepRows, []workload.Config, []scoring.Expr, error) {
	settings, err := g.Settings()
	if err != nil {
		return nil, nil, nil, exit.UsageError(err)
	}
	// Refuse a sweep past MaxRuns before building any configuration.
	if err := s.checkRuns(g, len(settings)); err != nil {
		return nil, nil, nil, err
	}
	var rows SweepRows
	var cfgs []workload.Config
	var abort []scoring.Expr
	for _, set := range settings {
		got, x, err := s.settingConfigs(set, warn)
		if err != nil {
			if len(set) > 0 {
				return nil, nil, nil, fmt.Errorf("setting %s: %w", set.Flags(), err)
			}
			return nil, nil, nil, err
		}
		abort = x.Abort
		if len(cfgs)+len(got)*s.Repeat > sweep.MaxRuns {
			return nil, nil, nil, exit.Usagef("the sweep runs more than %d drills (%s, each with the drill file's %d runs, × --repeat %d), the most a sweep runs; lower --repeat or sweep fewer values",
				sweep.MaxRuns, g.Shape(), len(got), s.Repeat)
		}
		for _, cfg := range got {
			// The drill file's own outages and policies lead, as the axes do.
			var lead sweep.Setting
			if _, ok := set.Value(sweep.AxisOutages); !ok {
				lead = append(lead, sweep.Assignment{Name: sweep.AxisOutages, Value: cfg.Outage})
			}
			if _, ok := set.Value(sweep.AxisPolicies); !ok {
				lead = append(lead, sweep.Assignment{Name: sweep.AxisPolicies, Value: cfg.Policy.Name})
			}
			row := SweepRow{Setting: append(lead, set...), Config: cfg}
			for r := range s.Repeat {
				c := cfg
				c.Seed += int64(r)
				row.Runs = append(row.Runs, len(cfgs))
				cfgs = append(cfgs, c)
			}
			rows = append(rows, row)
		}
	}
	return rows, cfgs, abort, nil
}

// checkRuns refuses, as a usage error, a grid of settings whose repeats
// pass sweep.MaxRuns drills: checked before any drill is built.
func (s *Sweep) checkRuns(g sweep.Grid, settings int) error {
	if settings > sweep.MaxRuns/s.Repeat {
		return exit.Usagef("--repeat %d: %s × %d repeats is more than %d drills, the most a sweep runs; lower --repeat or sweep fewer values",
			s.Repeat, g.Shape(), s.Repeat, sweep.MaxRuns)
	}
	return nil
}

// settingConfigs builds one setting's drills: a fresh set of drill run's
// flags set to the setting's values, resolved as drill compare resolves its
// flags (and the drill file, if any).
func (s *Sweep) settingConfigs(set sweep.Setting, warn func(string)) ([]workload.Config, Expectations, error) {
	fs := pflag.NewFlagSet("sweep", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	c := CLI{file: s.File}
	c.Register(fs)
	var outages, policies []string
	fs.StringSliceVar(&outages, sweep.AxisOutages, nil, "")
	fs.StringSliceVar(&policies, sweep.AxisPolicies, nil, "")
	for _, a := range set {
		name, v := a.Name, a.Value
		if strings.HasPrefix(name, sweep.FaultAxis) {
			name, v = "fault", strings.TrimPrefix(name, sweep.FaultAxis)+"="+v
		}
		if err := fs.Set(name, v); err != nil {
			return nil, Expectations{}, exit.Usagef("--%s %s: %v", name, v, err)
		}
	}
	cfgs, x, err := c.Plan(fs, Selection{Outages: outages, Policies: policies, OutagesFlag: sweep.AxisOutages, PoliciesFlag: sweep.AxisPolicies}, nil)
	for _, w := range c.Warnings() {
		warn(w)
	}
	return cfgs, x, err
}

// AxisArgs are the axes given on the command line as flags, in the order
// given (the grid's order), each occurrence one "--name=text": parsed
// again, they give the same axes in the same order. Axes names them.
func (s *Sweep) AxisArgs() []string {
	var out []string
	for _, name := range s.given {
		for _, raw := range s.axes[name].raw {
			out = append(out, "--"+name+"="+raw)
		}
	}
	return out
}

// IsAxis reports whether name is one of the sweep's axis flags.
func (s *Sweep) IsAxis(name string) bool {
	_, ok := s.axes[name]
	return ok
}
