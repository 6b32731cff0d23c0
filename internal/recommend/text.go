package recommend

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/predict"
	"github.com/drill-dev/drill/scoring"
)

// WriteText writes the recommendation as drill recommend prints it: how
// much was searched, per class the setting (or why there is none) with
// its measured figures beside drill predict's, then the snippet.
func (r *Result) WriteText(w io.Writer) error {
	repeats := fmt.Sprintf("%d repeats each", r.Repeats)
	if r.Repeats == 1 {
		repeats = "once each"
	}
	fmt.Fprintf(w, "drill recommend: tried %d settings (%s) against %s, %s: %d drills on the virtual clock in %s\n\n",
		r.Tried, gridText(r.Grid), strings.Join(r.Outages, " and "), repeats, r.Drills, format.Secs(r.WallS))
	for _, p := range r.Classes {
		bounds := []string{}
		if p.WithinS != nil {
			bounds = append(bounds, "p95 wait within "+format.Seconds(p.WithinS))
		}
		if p.MinAll4Right > 0 {
			bounds = append(bounds, "all 4 right at least "+format.Percent(p.MinAll4Right))
		}
		if p.Hold != "" {
			bounds = append(bounds, "backup never ("+p.Hold+")")
		}
		if len(bounds) == 0 {
			bounds = append(bounds, "no bound: the best quality")
		}
		head := fmt.Sprintf("class %s (%s): ", p.Class, strings.Join(bounds, ", "))
		if p.Met {
			fmt.Fprintf(w, "%s%s  (%d of %d settings meet it)\n", head, p.Flags, p.Candidates, r.Tried)
		} else {
			fmt.Fprintf(w, "%sNOT MET: %s\n", head, p.Reason)
		}
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  outage\tp95 wait (median, max)\tall 4 right\tbackup\thanded over\tpredicted first open\tpredicted worst wait")
		for _, o := range p.Outages {
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\t%s\n", o.Outage, statSecs(o.P95WaitS), statShare(o.All4Right),
				format.Count(o.ServedBackup), format.Count(o.HandedOver), rangeText(o.PredictedFirstOpenS, o.PredictedNote), rangeText(o.PredictedWorstWaitS, o.PredictedNote))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "Paste into the drill file (the default class's setting is policies:):\n\n%s", r.Snippet)
	return nil
}

func gridText(g []Axis) string {
	parts := make([]string, len(g))
	for i, a := range g {
		parts[i] = "--" + a.Flag + " " + a.Values
	}
	return strings.Join(parts, " × ")
}

func statSecs(s *scoring.Stat) string {
	if s == nil {
		return format.Dash + " (no email in the outage)"
	}
	return format.Secs(s.Median) + ", " + format.Secs(s.Max)
}

func statShare(s *scoring.Stat) string {
	if s == nil {
		return format.Dash
	}
	return format.Percent(s.Median)
}

func rangeText(r *predict.Range, note string) string {
	switch {
	case r != nil:
		return r.String()
	case note != "":
		return format.Dash + " (" + note + ")"
	}
	return "never"
}
