package plain

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/sweep"
	"github.com/drill-dev/drill/scoring"
)

// SweepTable writes drill sweep's rows as a Markdown table with a note
// below: the axes that vary, who served the emails, the trade-off figures
// as "median (smallest–largest)" over the repeats, and front or dominated.
func SweepTable(w io.Writer, res *sweep.Result) error {
	if err := SweepRows(res).Markdown(w); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n"+SweepNote(res)+"\n")
	return err
}

// SweepText writes the same table and note as aligned text for a terminal
// width cells wide (0: any width), the note wrapped at words.
func SweepText(w io.Writer, res *sweep.Result, width int) error {
	if err := SweepRows(res).Text(w, width); err != nil {
		return err
	}
	note := SweepNote(res)
	if width > 0 {
		note = strings.Join(WrapWords(note, width), "\n")
	}
	_, err := io.WriteString(w, "\n"+note+"\n")
	return err
}

// SweepRows is drill sweep's table: a row per setting, the axes that vary,
// who served the emails, the trade-off figures as "median
// (smallest–largest)" over the repeats, and front or dominated.
func SweepRows(res *sweep.Result) Table {
	vary := res.Varying()
	head := []string{"#"}
	for _, n := range vary {
		head = append(head, sweep.AxisHead(n))
	}
	servers := SweepServedColumns(res)
	head = append(head, ServedHead(servers), "p95 wait, outage", "Typical wait, outage",
		"All 4 right", "Calls to broken model, outage", "Breaker first open", "Trade-off")
	t := Table{Head: head}
	for i, r := range res.Rows {
		cells := []string{fmt.Sprint(i + 1)}
		for _, n := range vary {
			cells = append(cells, r.Setting[n])
		}
		fig := func(name string, num func(float64) string, unit string) string {
			st, ok := r.Figures[name]
			return StatSpread(st, ok, num, unit)
		}
		served := make([]string, len(servers))
		for k, server := range servers {
			served[k] = format.Count(r.Figures["served."+server].Median)
		}
		front := "front"
		if r.Dominated {
			front = "dominated"
		}
		cells = append(cells, strings.Join(served, " / "), fig("p95_wait_outage_s", format.Secs2, " s"), fig("median_wait_outage_s", format.Secs2, " s"),
			fig("all4_right", format.Percent1, "%"), fig("calls_to_broken_outage", format.Count, ""), fig("breaker_first_open_s", format.Secs2, " s"), front)
		t.Rows = append(t.Rows, cells)
	}
	return t
}

// SweepServedColumns are the servers the sweep's served column counts:
// handed over and rejected when any run of any row had some.
func SweepServedColumns(res *sweep.Result) []string {
	figures := make([]map[string]scoring.Stat, len(res.Rows))
	for i, r := range res.Rows {
		figures[i] = r.Figures
	}
	return ServedColumnsOfFigures(figures)
}

// ServedColumnsOfFigures is ServedColumns for rows of figures aggregated
// over runs (a sweep's "served.primary", …): handed over and rejected when
// any run of any row had some. The sweep table and the sweep dashboard
// pick their served columns here.
func ServedColumnsOfFigures(rows []map[string]scoring.Stat) []string {
	return ServedColumns(func(server string) bool {
		return slices.ContainsFunc(rows, func(f map[string]scoring.Stat) bool { return f["served."+server].Max > 0 })
	})
}

// ServedHead names served columns in a table's head: "primary / backup /
// canned / error / rejected".
func ServedHead(servers []string) string {
	names := make([]string, len(servers))
	for i, s := range servers {
		names[i] = strings.ReplaceAll(s, "_", " ")
	}
	return strings.Join(names, " / ")
}

// SweepNote is the note under drill sweep's table: the grid's size, the
// settings every row shares, and how to read the figures.
func SweepNote(res *sweep.Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s × %s, %s clock, %s wall.", format.Plural(res.Settings, "setting"), format.Plural(res.Repeats, "repeat"), res.Clock, format.Secs(res.WallS))
	if f := res.Fixed(); f != "" {
		fmt.Fprintf(&b, " Every row: %s.", f)
	}
	if len(res.Rows) < res.Settings {
		fmt.Fprintf(&b, " Showing %d of %d rows.", len(res.Rows), res.Settings)
	}
	b.WriteString(" Figures are medians over the repeats, (smallest–largest) when they differ; served counts are medians." +
		" Dominated: another setting of the same outage is better on p95 wait, all 4 right or calls to the broken model by more than the repeats' spread, and worse on none.")
	return b.String()
}

// SweepDryRun writes a sweep's grid, its size and every setting as flags.
func SweepDryRun(w io.Writer, d sweep.DryRun) error {
	var b strings.Builder
	b.WriteString(d.Shape)
	if d.GridSettings != d.Settings {
		fmt.Fprintf(&b, " × the drill file's runs = %d rows", d.Settings)
	}
	fmt.Fprintf(&b, " × %s = %d drills\n", format.Plural(d.Repeats, "repeat"), d.Runs)
	for _, a := range d.Axes {
		fmt.Fprintf(&b, "  %s: %s\n", sweep.AxisHead(a.Name), strings.Join(a.Values, ", "))
	}
	width := len(fmt.Sprint(len(d.Grid)))
	for i, s := range d.Grid {
		fmt.Fprintf(&b, "%*d  %s\n", width, i+1, s)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// StatSpread formats a figure over repeated runs as "median unit
// (min–max)" when the runs differ, the one value when they agree, or Dash
// when nothing measured it (!ok or N 0).
func StatSpread(st scoring.Stat, ok bool, num func(float64) string, unit string) string {
	if !ok || st.N == 0 {
		return format.Dash
	}
	if st.Min == st.Max {
		return num(st.Median) + unit
	}
	return fmt.Sprintf("%s%s (%s–%s)", num(st.Median), unit, num(st.Min), num(st.Max))
}
