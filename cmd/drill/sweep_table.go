package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/drill-dev/drill/internal/sweep"
	"github.com/drill-dev/drill/internal/vclock"
	"github.com/drill-dev/drill/scoring"
)

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
	Figures map[string]scoring.Stat `json:"figures"`
	// Dominated: another row of the same outage (kind and --fault values)
	// is at least as good on every objective (by median) and better on one.
	Dominated bool `json:"dominated"`
	// Journals are the recorded journals (--record), one per repeat.
	Journals []string `json:"journals,omitempty"`

	order []sweep.Assignment // the setting, in axis order
}

// tabulate aggregates the outcomes into rows (the fold's sweep
// aggregation) and marks the dominated ones.
func tabulate(g sweep.Grid, rows []sweepRow, outs []vclock.Outcome, repeats int, clock string, wall time.Duration) (*sweepResult, error) {
	res := &sweepResult{Axes: g.Axes, Settings: len(rows), Repeats: repeats, Clock: clock, WallS: wall.Seconds()}
	for _, o := range scoring.TradeOffObjectives {
		res.Objectives = append(res.Objectives, o.Figure)
	}
	settings := make([]scoring.SweepSetting, len(rows))
	for i, row := range rows {
		o := sweepOut{Setting: map[string]string{}, Flags: flagsOf(row.setting), Outage: row.cfg.Outage, Policy: row.cfg.Policy.Name, order: row.setting}
		var faults []string
		for _, a := range row.setting {
			o.Setting[a.Name] = a.Value
			if param, ok := strings.CutPrefix(a.Name, faultAxis); ok {
				faults = append(faults, param+"="+a.Value)
			}
		}
		settings[i].Scenario = scoring.SweepScenario(row.cfg.Outage, faults)
		for _, k := range row.runs {
			o.Seeds = append(o.Seeds, row.cfg.Seed+int64(len(o.Seeds)))
			o.Statuses = append(o.Statuses, outs[k].Status)
			settings[i].Summaries = append(settings[i].Summaries, outs[k].Summary)
		}
		res.Rows = append(res.Rows, o)
	}
	agg, err := scoring.AggregateSweep(settings)
	if err != nil {
		return nil, err
	}
	for i, a := range agg {
		res.Rows[i].Figures, res.Rows[i].Dominated = a.Figures, a.Dominated
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
	stats := make([]map[string]scoring.Stat, len(res.Rows))
	for i, r := range res.Rows {
		stats[i] = r.Figures
	}
	idx := scoring.OrderBy(stats, figure, desc)
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
func statText(st scoring.Stat, ok bool, num func(float64) string, unit string) string {
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
