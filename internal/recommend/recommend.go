// Package recommend is the search behind `drill recommend`: for each class
// of email, the policy setting to ship. It runs a grid of settings against
// the outages to hold against and a day with no outage (the normal day),
// on the virtual clock with repeats, through drill sweep's own machinery
// (plan.Sweep and session.Sweep), every class routed as the drill file
// routes it, beside the primary alone on the same normal days; then, per
// class, the fold's rule (scoring.JudgeRecommend, scoring.ChooseSetting)
// keeps the settings that meet the class's bounds on the normal day and
// during every outage and picks the best of them. The result lists the
// settings kept, says why each other one was rejected, and gives drill
// predict's arithmetic beside the measured figures and a drill-file snippet
// to paste.
package recommend

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/drillfile"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/plan"
	"github.com/drill-dev/drill/internal/predict"
	"github.com/drill-dev/drill/internal/route"
	"github.com/drill-dev/drill/internal/session"
	"github.com/drill-dev/drill/internal/sweep"
	"github.com/drill-dev/drill/internal/vclock"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

// DefaultGrid is the settings searched when no axis is given: the
// primary's time limit and retries, the two settings that decide how fast
// a failure is counted. 12 settings; with busy, hang and the normal day and
// 3 repeats, 108 virtual drills, and 3 of the primary alone's normal day.
var DefaultGrid = []Axis{
	{Flag: "primary-timeout", Values: "1s,2s,3s,5s"},
	{Flag: "primary-retries", Values: "0,1,2"},
}

// DefaultOutages are the outages a recommendation holds against.
var DefaultOutages = []string{"busy", "hang"}

// DefaultBase is the policy preset every class starts from when neither a
// drill file nor --route names one: the chapter's breaker.
const DefaultBase = "breaker"

// DefaultRepeat is how many times each setting runs (latency seeds seed,
// seed+1, …).
const DefaultRepeat = 3

// NormalDay is the outage kind of the normal day every setting also plays.
const NormalDay = workload.OutageNone

// PrimaryAlone is the preset the normal day's quality is compared with:
// the primary model answering every email, with no time limit short
// enough to give any up.
const PrimaryAlone = "primary-only"

// Rule is how drill recommend picks among a class's eligible settings
// (scoring.ChooseSetting), as its output says it.
const Rule = "the best all-4-right share in its worst outage, then the shortest p95 wait in its worst outage, then the fewest emails left off the primary with no outage"

// Axis is one swept drill flag and its values (a comma list or a range, as
// drill sweep takes it).
type Axis struct {
	Flag   string `json:"flag"`
	Values string `json:"values"`
}

// Options say what to search and what each class needs.
type Options struct {
	// Within is what every class's customers can wait during an outage,
	// unless its route says (within:). 0 takes the drill file's
	// recommend: within, else leaves only the routes' bounds. Every bound
	// left unset (0 or nil) takes the drill file's recommend: key.
	Within time.Duration
	// MinAll4Right is the quality floor: a class's share of emails with all
	// four fields right, in every outage; 0 for none.
	MinAll4Right float64
	// NormalMaxFallback bounds the share of a class's emails the primary
	// leaves to others on the normal day, in every repeat; nil for
	// scoring.DefaultNormalMaxFallback.
	NormalMaxFallback *float64
	// NormalQuality is the quality bound on the normal day; nil for the
	// default, not below the primary alone's 95 % interval.
	NormalQuality *scoring.NormalQuality
	// Outages are the outage kinds to hold against (default busy, hang);
	// the normal day is played besides.
	Outages []string
	// Repeat is how many times each setting runs (default 3).
	Repeat int
	// Parallel bounds the drills at once (0: all).
	Parallel int
	// File is a drill file whose routes: say the classes (with their
	// backup: never and within:); "" uses Routes.
	File string
	// Routes are --route values (CLASS=POLICY[,never,MODE]) naming built-in
	// classes when there is no File: the policy is the class's base
	// preset. Neither: every built-in class, on DefaultBase.
	Routes []string
	// Grid are the axes searched (default DefaultGrid).
	Grid []Axis
	// Progress gets the sweep's progress.
	Progress io.Writer
}

// Result is a recommendation: `drill recommend --json` prints it.
type Result struct {
	// Tried is how many settings were searched; Drills how many drills ran
	// (settings × (outages + the normal day) × repeats, and the primary
	// alone's normal day × repeats).
	Tried   int      `json:"tried"`
	Drills  int      `json:"drills"`
	Repeats int      `json:"repeats"`
	Outages []string `json:"outages"`
	Grid    []Axis   `json:"grid"`
	WallS   float64  `json:"wall_s"`
	// Rule is how a class's setting is chosen among those that meet its
	// bounds.
	Rule string `json:"rule"`
	// Classes are the recommendations, in route order, the default last.
	Classes []Pick `json:"classes"`
	// Met is true when every class has a setting that meets its bounds.
	Met bool `json:"met"`
	// Snippet is the drill-file text to paste: policies: (the default
	// class's) and routes: (every other class's setting).
	Snippet string `json:"snippet"`
}

// Pick is one class's recommendation, or why there is none.
type Pick struct {
	Class string `json:"class"`
	// Hold is the class's backup: never mode, if its route has one.
	Hold string `json:"hold,omitempty"`
	// WithinS is the class's bound on its p95 wait during each outage;
	// null for none. MinAll4Right is the quality floor (0: none).
	WithinS      *float64 `json:"within_s"`
	MinAll4Right float64  `json:"min_all4_right"`
	// NormalMaxFallback and NormalQuality are the normal day's bounds.
	NormalMaxFallback float64               `json:"normal_max_fallback"`
	NormalQuality     scoring.NormalQuality `json:"normal_quality"`
	// Met says whether a setting meets the bounds; Reason says why it was
	// chosen, or why none meets them.
	Met    bool   `json:"met"`
	Reason string `json:"reason"`
	// Setting is the recommended setting when Met, else the closest one:
	// its flags (drill run's) and its policy as a drill file writes it.
	Flags  string            `json:"flags"`
	Policy map[string]string `json:"policy"`
	// Candidates is how many settings met the bounds; Eligible lists them
	// in the rule's order (the chosen first), Rejected the others with the
	// bounds each missed.
	Candidates int         `json:"candidates"`
	Eligible   []Candidate `json:"eligible"`
	Rejected   []Rejected  `json:"rejected"`
	// NormalDay are the setting's figures on the normal day.
	NormalDay scoring.NormalDayFigures `json:"normal_day"`
	// Outages are the setting's measured figures and drill predict's
	// arithmetic, per outage.
	Outages []OutageFigures `json:"outages"`
}

// Candidate is a setting that meets a class's bounds, with the figures
// the rule ranks it by.
type Candidate struct {
	Flags string `json:"flags"`
	// WorstAll4Right is its smallest median all-4-right share over the
	// outages (null when none was scored); WorstP95WaitS its largest p95
	// wait (null when none was measured).
	WorstAll4Right *float64 `json:"worst_all4_right"`
	WorstP95WaitS  *float64 `json:"worst_p95_wait_s"`
	// NormalFallback is the largest share of the class's emails the
	// primary left to others on the normal day.
	NormalFallback float64 `json:"normal_fallback"`
}

// Rejected is a setting that misses a class's bounds, and every bound it
// misses.
type Rejected struct {
	Flags  string              `json:"flags"`
	Misses []scoring.BoundMiss `json:"misses"`
}

// OutageFigures are one class's figures for one setting in one outage:
// measured (median and largest over the repeats) beside predicted.
type OutageFigures struct {
	Outage string `json:"outage"`
	// P95WaitS is the class's p95 wait during the outage; null when none
	// of its emails was sent in it.
	P95WaitS *scoring.Stat `json:"p95_wait_s"`
	// All4Right is the class's share of emails with all four fields
	// right; null when none was scored.
	All4Right *scoring.Stat `json:"all4_right"`
	// ServedBackup and HandedOver are the class's emails served by the
	// backup and handed to a person (median over the repeats).
	ServedBackup float64 `json:"served_backup"`
	HandedOver   float64 `json:"handed_over"`
	// Predicted are drill predict's ranges for the class's chain in this
	// outage: the breaker's first open and the worst wait, [low, high]
	// seconds from the outage's start; null when not predicted.
	PredictedFirstOpenS *predict.Range `json:"predicted_first_open_s"`
	PredictedWorstWaitS *predict.Range `json:"predicted_worst_wait_s"`
	PredictedNote       string         `json:"predicted_note,omitempty"`
}

// class is one class to recommend for: its route as planned.
type class struct {
	name   string
	hold   string
	within time.Duration
	base   string // the preset its policy starts from
	match  route.Match
}

// search is what a search ran: the rows of every setting and outage, and
// each drill's outcome.
type searched struct {
	res     *sweep.Result
	rows    plan.SweepRows
	outs    []vclock.Outcome
	classes []class
	alone   int // the index of the primary alone's row in rows and res.Rows
}

// Run searches and recommends. An error is a usage or run error; a class
// whose bounds no setting meets is in the Result (Met false), not an error.
// It is PlanSearch, Search.Run and Search.Build: a search run whole and
// one merged from its shards are built by the same code.
func Run(ctx context.Context, opts Options) (*Result, error) {
	s, err := PlanSearch(opts)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	ran, err := s.Run(ctx, sweep.Shard{})
	if err != nil {
		return nil, err
	}
	return s.Build(ctx, ran)
}

// build is the recommendation from the search's drills.
func build(sr *searched, opts Options, start time.Time) *Result {
	out := &Result{Drills: len(sr.outs), Repeats: opts.Repeat, Outages: opts.Outages, Grid: opts.Grid, Rule: Rule, Met: true}
	bySetting, alone := groupRows(sr)
	out.Tried = len(bySetting)
	for _, c := range sr.classes {
		p := pick(c, bySetting, alone, opts)
		out.Met = out.Met && p.Met
		out.Classes = append(out.Classes, p)
	}
	out.Snippet = snippet(sr.classes, out.Classes)
	out.WallS = time.Since(start).Seconds()
	return out
}

// validate refuses bounds that are not numbers a bound can be, and an
// outage list that names the normal day (always played), before any
// drill runs: usage errors.
func (o Options) validate() error {
	share := func(name string, v float64) error {
		if math.IsNaN(v) || v < 0 || v > 1 {
			return exit.Usagef("%s must be a share from 0 to 1 (or 0%% to 100%%), got %v", name, v)
		}
		return nil
	}
	if o.Within < 0 {
		return exit.Usagef("--within must not be negative, got %s", o.Within)
	}
	if err := share("--min-all4-right", o.MinAll4Right); err != nil {
		return err
	}
	if o.NormalMaxFallback != nil {
		if err := share("--normal-max-fallback", *o.NormalMaxFallback); err != nil {
			return err
		}
	}
	if o.NormalQuality != nil {
		if err := share("--normal-min-all4-right", o.NormalQuality.Floor); err != nil {
			return err
		}
	}
	if slices.Contains(o.Outages, NormalDay) {
		return exit.Usagef("--outages %s: every setting plays the normal day (no outage) besides the outages; name the outages to hold against (%s)",
			strings.Join(o.Outages, ","), strings.Join(slices.DeleteFunc(workload.OutageKinds(), func(k string) bool { return k == NormalDay }), ", "))
	}
	return nil
}

// withFile takes the drill file's recommend: bounds where the options
// give none (a flag given wins).
func withFile(o Options, df *drillfile.File) Options {
	r := df.Recommend
	if r == nil {
		return o
	}
	if o.Within == 0 && r.Within != nil {
		o.Within = r.Within.D()
	}
	if o.MinAll4Right == 0 && r.MinAll4Right != nil {
		o.MinAll4Right = float64(*r.MinAll4Right)
	}
	if o.NormalMaxFallback == nil && r.NormalMaxFallback != nil {
		v := float64(*r.NormalMaxFallback)
		o.NormalMaxFallback = &v
	}
	if o.NormalQuality == nil && r.NormalMinAll4Right != nil {
		v := scoring.NormalQuality(*r.NormalMinAll4Right)
		o.NormalQuality = &v
	}
	return o
}

// bounds are class c's bounds as the fold's rule reads them.
func (o Options) bounds(c class) scoring.RecommendBounds {
	b := scoring.RecommendBounds{WithinS: c.within.Seconds(), MinAll4Right: o.MinAll4Right,
		NormalMaxFallback: scoring.DefaultNormalMaxFallback, NormalQuality: scoring.NormalQuality{PrimaryAlone: true}}
	if o.NormalMaxFallback != nil {
		b.NormalMaxFallback = *o.NormalMaxFallback
	}
	if o.NormalQuality != nil {
		b.NormalQuality = *o.NormalQuality
	}
	return b
}

// Search is a planned search: the sweep behind a recommendation, every
// setting and outage with the primary alone's normal day after them,
// ready to run (Run, whole or a shard's share) and to build the
// recommendation from its drills' outcomes (Build).
type Search struct {
	opts    Options
	grid    sweep.Grid
	rows    plan.SweepRows
	cfgs    []workload.Config
	classes []class
	alone   int // the index of the primary alone's row in rows
	cleanup func()
}

// PlanSearch plans the grid over the classes' drill file, the normal day
// added to its outages and the primary alone's normal day after it. An
// error (a bad file, class, outage or grid value) is a usage error. Close
// it when done.
func PlanSearch(opts Options) (*Search, error) {
	opts = withDefaults(opts)
	if err := opts.validate(); err != nil {
		return nil, err
	}
	usage := func(err error) (*Search, error) {
		if exit.Code(err) == exit.Failed {
			err = exit.UsageError(err)
		}
		return nil, err
	}
	s := &Search{cleanup: func() {}}
	file := opts.File
	if file == "" {
		tmp, cleanup, err := builtinFile(opts.Routes)
		if err != nil {
			return usage(err)
		}
		file, s.cleanup = tmp, cleanup
	}
	if err := s.plan(file, opts); err != nil {
		s.Close()
		return usage(err)
	}
	return s, nil
}

// plan plans the search over the drill file at file.
func (s *Search) plan(file string, opts Options) error {
	df, err := drillfile.Load(file)
	if err != nil {
		return err
	}
	s.opts = withFile(opts, df)
	if s.classes, err = classesOf(df, s.opts); err != nil {
		return err
	}
	fs := pflag.NewFlagSet("recommend", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var sw plan.Sweep
	sw.Register(fs)
	outages := append(slices.Clone(opts.Outages), NormalDay)
	set := map[string]string{sweep.AxisOutages: strings.Join(outages, ","), "repeat": fmt.Sprint(opts.Repeat),
		"max-parallel": fmt.Sprint(opts.Parallel)}
	for _, a := range opts.Grid {
		set[a.Flag] = a.Values
	}
	for _, name := range slices.Sorted(maps.Keys(set)) {
		if err := fs.Set(name, set[name]); err != nil {
			return fmt.Errorf("--%s %s: %w", name, set[name], err)
		}
	}
	sw.File = file
	if _, _, err := sw.Validate(); err != nil {
		return err
	}
	if s.grid, err = sw.Grid(df); err != nil {
		return err
	}
	rows, cfgs, _, err := sw.Plan(s.grid, func(string) {})
	if err != nil {
		return err
	}
	s.rows, s.cfgs, s.alone, err = withPrimaryAlone(rows, cfgs)
	return err
}

// Close removes the built-in classes' drill file, if the search wrote one.
func (s *Search) Close() { s.cleanup() }

// Definition is what the search runs, for a shard's fingerprint: its
// grid, rows and drills, and the options that judge them.
func (s *Search) Definition() (sweep.Grid, plan.SweepRows, []workload.Config, Options) {
	o := s.opts
	o.Progress, o.Parallel = nil, 0
	return s.grid, s.rows, s.cfgs, o
}

// Run runs the search's drills, the shard's share of them (all for the
// zero Shard), on the virtual clock.
func (s *Search) Run(ctx context.Context, shard sweep.Shard) (session.SweepRan, error) {
	return session.RunSweep(ctx, s.rows, s.cfgs, session.SweepOptions{Virtual: true, Parallel: s.opts.Parallel,
		Repeat: s.opts.Repeat, Progress: s.opts.Progress, Command: "drill recommend", Shard: shard})
}

// Build tabulates the drills' outcomes as drill sweep does and picks each
// class's setting. A drill that did not complete measured nothing to
// recommend on: its error is returned.
func (s *Search) Build(ctx context.Context, ran session.SweepRan) (*Result, error) {
	if err := exit.Worst(session.Errs(s.cfgs, ran.Outcomes)); err != nil {
		return nil, err
	}
	res, err := session.BuildSweep(ctx, s.grid, s.rows, ran, s.opts.Repeat, true)
	if err != nil {
		return nil, err
	}
	sr := &searched{res: res, rows: s.rows, outs: ran.Outcomes, classes: s.classes, alone: s.alone}
	return build(sr, s.opts, ran.Start), nil
}

// withPrimaryAlone adds the primary alone's normal day to the planned
// rows: the first normal-day row's drills, every route and the default
// taking the PrimaryAlone preset and no route kept off the backup (the
// primary is the only model either way), so each class's quality on a
// normal day can be compared with the primary's own on the same emails and
// seeds. It returns the row's index.
func withPrimaryAlone(rows plan.SweepRows, cfgs []workload.Config) (plan.SweepRows, []workload.Config, int, error) {
	i := slices.IndexFunc(rows, func(r plan.SweepRow) bool { return r.Config.Outage == NormalDay })
	if i < 0 {
		return nil, nil, 0, errors.New("the sweep planned no normal day")
	}
	p, err := workload.Preset(PrimaryAlone)
	if err != nil {
		return nil, nil, 0, err
	}
	row := plan.SweepRow{Setting: sweep.Setting{{Name: sweep.AxisOutages, Value: NormalDay}, {Name: sweep.AxisPolicies, Value: PrimaryAlone}}}
	for r, k := range rows[i].Runs {
		c := cfgs[k]
		c.Policy = p
		c.Routes = slices.Clone(c.Routes)
		for j := range c.Routes {
			c.Routes[j].Policy, c.Routes[j].Hold, c.Routes[j].Wait, c.Routes[j].Queue = p, "", 0, 0
		}
		if r == 0 {
			row.Config = c
		}
		row.Runs = append(row.Runs, len(cfgs))
		cfgs = append(cfgs, c)
	}
	return append(rows, row), cfgs, len(rows), nil
}

func withDefaults(o Options) Options {
	if len(o.Outages) == 0 {
		o.Outages = DefaultOutages
	}
	if o.Repeat <= 0 {
		o.Repeat = DefaultRepeat
	}
	if len(o.Grid) == 0 {
		o.Grid = DefaultGrid
	}
	if o.Progress == nil {
		o.Progress = io.Discard
	}
	return o
}

// builtinFile writes the drill file of the built-in classes --route names
// (all of them when none) to a temporary directory: the sweep's planner
// reads its drill from a file. A class the shop's checklist keeps off the
// backup (route.BuiltinNever: safety, billing-error) is routed backup:
// never, person unless --route gives it another never mode.
func builtinFile(routes []string) (path string, cleanup func(), err error) {
	specs := make([]plan.RouteSpec, 0, len(routes))
	for _, r := range routes {
		spec, err := plan.ParseRoute(r)
		if err != nil {
			return "", nil, err
		}
		specs = append(specs, spec)
	}
	if len(specs) == 0 {
		for _, n := range route.BuiltinNames() {
			specs = append(specs, plan.RouteSpec{Class: n, Policy: DefaultBase})
		}
	}
	var b strings.Builder
	b.WriteString("policies:\n  - preset: " + DefaultBase + "\nroutes:\n")
	for _, s := range specs {
		if s.Hold == "" && route.BuiltinNever(s.Class) {
			s.Hold = event.HoldPerson // the shop's checklist: never the backup's answer
		}
		m, ok := route.Builtin[s.Class]
		if !ok {
			return "", nil, fmt.Errorf("--route: no built-in class %q (built-in: %s); a drill file's routes: defines others",
				s.Class, strings.Join(route.BuiltinNames(), ", "))
		}
		mj, _ := json.Marshal(m) // JSON is YAML's flow style
		fmt.Fprintf(&b, "  - class: %s\n    match: %s\n    policy: %s\n", s.Class, mj, s.Policy)
		if s.Hold != "" {
			fmt.Fprintf(&b, "    backup: %s, %s\n", drillfile.BackupNever, s.Hold)
		}
	}
	dir, err := os.MkdirTemp("", "drill-recommend-*")
	if err != nil {
		return "", nil, fmt.Errorf("writing the classes' drill file: %w", err)
	}
	cleanup = func() { os.RemoveAll(dir) }
	path = filepath.Join(dir, "classes.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		cleanup()
		return "", nil, fmt.Errorf("writing the classes' drill file: %w", err)
	}
	return path, cleanup, nil
}

// classesOf lists the file's classes in route order, the default last,
// each with its bound and the preset its policy starts from.
func classesOf(df *drillfile.File, opts Options) ([]class, error) {
	rs, err := df.RouteList()
	if err != nil {
		return nil, err
	}
	if len(rs) == 0 {
		return nil, fmt.Errorf("%s routes no class: give it routes: (docs/routes.md), or no drill file for the built-in classes", opts.File)
	}
	defaultBase := DefaultBase
	if ps := df.PolicyList(); len(ps) > 0 && ps[0].Preset != "" {
		defaultBase = ps[0].Preset
	}
	var out []class
	for i, r := range rs {
		c := class{name: r.Class, hold: r.Hold, within: r.Within, base: basePreset(df, df.Routes[i]), match: r.Match}
		if c.within == 0 {
			c.within = opts.Within
		}
		out = append(out, c)
	}
	out = append(out, class{name: route.DefaultClass, within: opts.Within, base: defaultBase})
	// A class without a bound takes the best quality any setting gives;
	// with no bound at all there is nothing to recommend against.
	if opts.MinAll4Right <= 0 && !slices.ContainsFunc(out, func(c class) bool { return c.within > 0 }) {
		return nil, errors.New("no bound to recommend against: give --within (what customers can wait), a route's within:, or --min-all4-right")
	}
	return out, nil
}

// basePreset is the preset a route's policy starts from.
func basePreset(df *drillfile.File, r drillfile.Route) string {
	if r.Policy.Inline != nil && r.Policy.Inline.Preset != "" {
		return r.Policy.Inline.Preset
	}
	for _, p := range df.Policies {
		if p.PolicyName() == r.Policy.Ref && p.Preset != "" {
			return p.Preset
		}
	}
	if slices.Contains(workload.PresetNames(), r.Policy.Ref) {
		return r.Policy.Ref
	}
	return DefaultBase
}

// setting is one searched setting: its rows (one per outage, the normal
// day's included) and the flags that tell it apart.
type setting struct {
	flags  string
	values map[string]string // swept flag -> value, outages left out
	rows   map[string]sweep.Row
	cfgs   map[string]workload.Config // outage -> the first repeat's drill
	normal []scoring.Summary          // the normal day's summaries, one per repeat
}

// groupRows groups the search's rows by setting, outage apart, in the
// sweep's order, and returns the primary alone's normal-day summaries
// apart, one per repeat.
func groupRows(sr *searched) ([]*setting, []scoring.Summary) {
	summaries := func(i int) []scoring.Summary {
		var out []scoring.Summary
		for _, k := range sr.rows[i].Runs {
			out = append(out, sr.outs[k].Summary)
		}
		return out
	}
	var out []*setting
	index := map[string]*setting{}
	for i, r := range sr.res.Rows {
		if i == sr.alone {
			continue
		}
		values := maps.Clone(r.Setting)
		delete(values, sweep.AxisOutages)
		// The setting as drill run's flags, its outage apart.
		key := slices.DeleteFunc(slices.Clone(sr.rows[i].Setting), func(a sweep.Assignment) bool { return a.Name == sweep.AxisOutages }).Flags()
		s := index[key]
		if s == nil {
			s = &setting{flags: key, values: values, rows: map[string]sweep.Row{}, cfgs: map[string]workload.Config{}}
			index[key] = s
			out = append(out, s)
		}
		if sr.rows[i].Config.Outage == NormalDay {
			s.normal = summaries(i)
			continue
		}
		s.rows[r.Outage] = r
		s.cfgs[r.Outage] = sr.rows[i].Config
	}
	return out, summaries(sr.alone)
}
