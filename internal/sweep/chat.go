package sweep

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/scoring"
)

// ChatFigure is one column of a chat sweep: the chat summary's figure under
// its JSON key, and its head in the table.
type ChatFigure struct {
	Key, Head string
	Of        func(scoring.ChatSummary) float64
	// Secs: the figure is seconds (formatted as such); else a count.
	Secs bool
}

// ChatFigures are a chat sweep's columns, the figures the chat workload
// is judged on; every one is read from the fold's summary.
var ChatFigures = []ChatFigure{
	{"answered", "answered", func(s scoring.ChatSummary) float64 { return float64(s.Answered) }, false},
	{"handed_over", "handed over", func(s scoring.ChatSummary) float64 { return float64(s.HandedOver) }, false},
	{"silent", "silent", func(s scoring.ChatSummary) float64 { return float64(s.Silent) }, false},
	{"turn_limit", "turn limit", func(s scoring.ChatSummary) float64 { return float64(s.TurnLimit) }, false},
	{"time_p99_s", "p99", func(s scoring.ChatSummary) float64 { return s.TimeP99S }, true},
	{"over_120s", "over 2 min", func(s scoring.ChatSummary) float64 { return float64(s.Over120s) }, false},
	{"tokens_billed", "tokens", func(s scoring.ChatSummary) float64 { return float64(s.TokensBilled) }, false},
	{"model_calls", "model calls", func(s scoring.ChatSummary) float64 { return float64(s.ModelCalls) }, false},
	{"breaker_opens", "breaker opens", func(s scoring.ChatSummary) float64 { return float64(s.BreakerOpensTotal()) }, false},
}

// ChatResult is what drill sweep --workload chat prints: `--json` prints
// it as is.
type ChatResult struct {
	// Axes are the swept flags and their values, in grid order.
	Axes []Axis `json:"axes"`
	// Repeats are the runs per row (seed, seed+1, ...).
	Repeats int `json:"repeats"`
	// Clock is real or virtual; WallS the sweep's wall time in seconds.
	Clock string    `json:"clock"`
	WallS float64   `json:"wall_s"`
	Rows  []ChatRow `json:"rows"`
}

// ChatRow is one setting of a chat sweep over its repeats.
type ChatRow struct {
	// Setting is every axis's value, Flags the same as drill run flags.
	Setting map[string]string `json:"setting"`
	Flags   string            `json:"flags"`
	// Seeds are the repeats' seeds; Statuses how each ended.
	Seeds    []int64  `json:"seeds"`
	Statuses []string `json:"statuses"`
	// Figures are ChatFigures' medians and spreads over the repeats, by key.
	Figures map[string]scoring.Stat `json:"figures"`
	// BreakerOpens are each breaker's openings, summed over the repeats.
	BreakerOpens map[string]int `json:"breaker_opens"`
	// Summaries are every repeat's whole chat summary.
	Summaries []scoring.ChatSummary `json:"summaries"`
	// Journals are the recorded journals (--record), one per repeat.
	Journals []string `json:"journals,omitempty"`

	order Setting
}

// ChatRan is one repeat of a chat sweep's setting.
type ChatRan struct {
	Seed    int64
	Status  string
	Summary scoring.ChatSummary
	Journal string
}

// TabulateChat aggregates each setting's repeats (runs[i] are setting i's)
// into rows, each figure's median and spread by the fold's aggregation
// (scoring.Aggregate).
func TabulateChat(g Grid, settings []Setting, runs [][]ChatRan, clock string, wallS float64) *ChatResult {
	res := &ChatResult{Axes: g.shownAxes(), Clock: clock, WallS: wallS}
	for i, set := range settings {
		row := ChatRow{Setting: set.shown(), Flags: set.Flags(), BreakerOpens: map[string]int{}, order: set}
		var figs []map[string]float64
		for _, r := range runs[i] {
			row.Seeds = append(row.Seeds, r.Seed)
			row.Statuses = append(row.Statuses, r.Status)
			row.Summaries = append(row.Summaries, r.Summary)
			if r.Journal != "" {
				row.Journals = append(row.Journals, r.Journal)
			}
			m := map[string]float64{}
			for _, f := range ChatFigures {
				m[f.Key] = f.Of(r.Summary)
			}
			figs = append(figs, m)
			for dep, n := range r.Summary.BreakerOpens {
				row.BreakerOpens[dep] += n
			}
		}
		row.Figures = scoring.Aggregate(figs)
		res.Repeats = max(res.Repeats, len(runs[i]))
		res.Rows = append(res.Rows, row)
	}
	return res
}

// WriteTable prints the chat sweep as a table: a row per setting (the axes
// that vary, as flags), each figure's median, and with repeats its spread
// (low–high) beside it.
func (res *ChatResult) WriteTable(w io.Writer) error {
	settings := make([]Setting, len(res.Rows))
	for i, r := range res.Rows {
		settings[i] = r.order
	}
	labels := Labels(settings)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	heads := []string{"setting", "runs"}
	for _, f := range ChatFigures {
		heads = append(heads, f.Head)
	}
	fmt.Fprintln(tw, strings.Join(heads, "\t"))
	for i, r := range res.Rows {
		label := labels[i]
		if label == "" {
			label = r.Flags
		}
		cells := []string{label, fmt.Sprint(len(r.Statuses))}
		for _, f := range ChatFigures {
			cells = append(cells, chatCell(r.Figures[f.Key], f.Secs))
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	var opens []string
	for _, r := range res.Rows {
		for _, dep := range slices.Sorted(maps.Keys(r.BreakerOpens)) {
			if !slices.Contains(opens, dep) {
				opens = append(opens, dep)
			}
		}
	}
	fixed := Fixed(settings)
	_, err := fmt.Fprintf(w, "\n%d settings × %d repeats, %s clock, %s of wall time; every setting: %s; breakers that opened: %s\n",
		len(res.Rows), res.Repeats, res.Clock, format.Secs(res.WallS), format.Text(fixed), format.Text(strings.Join(opens, ", ")))
	return err
}

// chatCell is a figure's median, with its spread when the repeats differ.
func chatCell(s scoring.Stat, secs bool) string {
	one := func(v float64) string {
		if secs {
			return format.Secs(v)
		}
		return format.Count(v)
	}
	if s.N == 0 {
		return format.Dash
	}
	if s.Min == s.Max {
		return one(s.Median)
	}
	return fmt.Sprintf("%s (%s–%s)", one(s.Median), one(s.Min), one(s.Max))
}
