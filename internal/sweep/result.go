package sweep

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/drill-dev/drill/scoring"
)

// Result is what drill sweep prints: `--json` prints it as is.
type Result struct {
	// Axes are the swept flags and their values, in grid order.
	Axes []Axis `json:"axes"`
	// Settings is the number of rows before --top; Repeats the runs per row.
	Settings int `json:"settings"`
	Repeats  int `json:"repeats"`
	// Clock is real or virtual; WallS the sweep's wall time in seconds,
	// from the drills' start to the rows' tabulation (the front rule
	// included).
	Clock string  `json:"clock"`
	WallS float64 `json:"wall_s"`
	// Objectives are the figures domination is judged on.
	Objectives []string `json:"objectives"`
	Rows       []Row    `json:"rows"`
}

// Row is one setting over its repeats.
type Row struct {
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
	Figures map[string]scoring.Stat `json:"figures"`
	// Dominated: another row of the same outage (kind and --fault values)
	// is clearly better on one objective and clearly worse on none, by
	// more than the repeats' spread and, for all 4 right, by McNemar's
	// test on the first repeat's answers (scoring.Dominated, the rule the
	// dashboard and the report read).
	Dominated bool `json:"dominated"`
	// Journals are the recorded journals (--record), one per repeat.
	Journals []string `json:"journals,omitempty"`

	order Setting // the setting, in axis order
}

// Planned is one setting as a sweep planned and ran it.
type Planned struct {
	Setting        Setting
	Outage, Policy string
	Seed           int64 // the first repeat's latency seed; repeat r has Seed+r
	Runs           []Ran // one per repeat
}

// Ran is one repeat of a setting: how it ended, its summary (zero if it
// never ran) and its journal ("" if not recorded).
type Ran struct {
	Status  string
	Summary scoring.Summary
	Journal string
	// All4ByEmail is the first repeat's per-email all-4-right (nil for the
	// other repeats, and if it never ran): the pairs the front rule's
	// McNemar test reads, as the dashboard and the report read them.
	All4ByEmail map[int]bool
}

// Tabulate aggregates the settings' runs into rows with the fold's sweep
// aggregation (scoring.AggregateSweep): settings compete within their
// scenario, the outage and its fault parameters. It stops with ctx's
// error when ctx is done; the Result's wall time runs from start, the
// drills' start, to the end of the tabulation.
func Tabulate(ctx context.Context, g Grid, planned []Planned, repeats int, clock string, start time.Time) (*Result, error) {
	res := &Result{Axes: g.shownAxes(), Settings: len(planned), Repeats: repeats, Clock: clock}
	for _, o := range scoring.TradeOffObjectives {
		res.Objectives = append(res.Objectives, o.Figure)
	}
	settings := make([]scoring.SweepSetting, len(planned))
	for i, p := range planned {
		row := Row{Setting: p.Setting.shown(), Flags: p.Setting.Flags(), Outage: p.Outage, Policy: p.Policy, order: p.Setting}
		settings[i].Scenario = scoring.SweepScenario(p.Outage, p.Setting.FaultParams())
		for r, run := range p.Runs {
			row.Seeds = append(row.Seeds, p.Seed+int64(r))
			row.Statuses = append(row.Statuses, run.Status)
			if run.Journal != "" {
				row.Journals = append(row.Journals, run.Journal)
			}
			settings[i].Summaries = append(settings[i].Summaries, run.Summary)
			if settings[i].All4ByEmail == nil {
				settings[i].All4ByEmail = run.All4ByEmail
			}
		}
		res.Rows = append(res.Rows, row)
	}
	agg, err := scoring.AggregateSweepContext(ctx, settings)
	if err != nil {
		return nil, fmt.Errorf("aggregating the sweep: %w", err)
	}
	for i, a := range agg {
		res.Rows[i].Figures, res.Rows[i].Dominated = a.Figures, a.Dominated
	}
	res.WallS = time.Since(start).Seconds()
	return res, nil
}

// Sort orders the rows by a figure's median, descending when desc.
func (res *Result) Sort(figure string, desc bool) {
	stats := make([]map[string]scoring.Stat, len(res.Rows))
	for i, r := range res.Rows {
		stats[i] = r.Figures
	}
	idx := scoring.OrderBy(stats, figure, desc)
	sorted := make([]Row, len(idx))
	for i, k := range idx {
		sorted[i] = res.Rows[k]
	}
	res.Rows = sorted
}

// Top keeps the first n rows (all for n ≤ 0).
func (res *Result) Top(n int) {
	if n > 0 && n < len(res.Rows) {
		res.Rows = res.Rows[:n]
	}
}

// settings are the rows' settings, in row order.
func (res *Result) settings() []Setting {
	out := make([]Setting, len(res.Rows))
	for i, r := range res.Rows {
		out[i] = r.order
	}
	return out
}

// Varying are the axes whose value differs between rows, in axis order.
func (res *Result) Varying() []string { return Varying(res.settings()) }

// Fixed are the axes every row shares, as flags.
func (res *Result) Fixed() string { return Fixed(res.settings()) }

// DryRun is what `drill sweep --dry-run --json` prints.
type DryRun struct {
	Axes     []Axis   `json:"axes"`
	Settings int      `json:"settings"`
	Repeats  int      `json:"repeats"`
	Runs     int      `json:"runs"`
	Grid     []string `json:"grid"` // each setting as drill run flags
	// Shape is the grid's shape and size ("2 outages × 3 … = 6 settings")
	// and GridSettings that size; not printed with --json.
	Shape        string `json:"-"`
	GridSettings int    `json:"-"`
}

// PlanDry is the dry run of a grid whose settings became rows (a drill
// file's runs can make more rows than the grid has settings).
func PlanDry(g Grid, rows []Setting, repeats int) DryRun {
	d := DryRun{Axes: g.shownAxes(), Settings: len(rows), Repeats: repeats, Runs: len(rows) * repeats, Shape: g.Shape()}
	d.GridSettings, _ = g.Size() // an oversized grid has no rows to dry-run
	for _, s := range rows {
		d.Grid = append(d.Grid, s.Flags())
	}
	return d
}

// ParseSort reads --sort FIGURE[:asc|:desc]: without a direction, best
// first for figures drill knows the direction of, else ascending.
func ParseSort(s string) (figure string, desc bool, err error) {
	if s == "" {
		return "", false, nil
	}
	figure, dir, hasDir := strings.Cut(s, ":")
	if !slices.Contains(scoring.Figures(), figure) {
		return "", false, fmt.Errorf("unknown figure %q (valid: %s)", figure, strings.Join(scoring.Figures(), ", "))
	}
	switch {
	case !hasDir:
		higher, _ := scoring.HigherIsBetter(figure)
		return figure, higher, nil
	case dir == "asc":
		return figure, false, nil
	case dir == "desc":
		return figure, true, nil
	}
	return "", false, fmt.Errorf("unknown direction %q (valid: asc, desc)", dir)
}
