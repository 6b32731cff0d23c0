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
// much was searched and the rule; per class its bounds, the setting (or
// why there is none) with why it was chosen, its normal-day figures, its
// measured figures per outage beside drill predict's, the settings that
// also met the bounds and why each other one was rejected; then the
// snippet.
func (r *Result) WriteText(w io.Writer) error {
	repeats := fmt.Sprintf("%d repeats each", r.Repeats)
	if r.Repeats == 1 {
		repeats = "once each"
	}
	fmt.Fprintf(w, "drill recommend: tried %d settings (%s) against %s and a day with no outage, %s, beside the primary alone with no outage: %d drills on the virtual clock in %s\n",
		r.Tried, gridText(r.Grid), strings.Join(r.Outages, " and "), repeats, r.Drills, format.Secs(r.WallS))
	fmt.Fprintf(w, "A class keeps the settings that meet its bounds in every outage and with no outage; of those it takes %s.\n\n", r.Rule)
	for _, p := range r.Classes {
		if err := p.writeText(w, r.Tried); err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "Paste into the drill file (the default class's setting is policies:):\n\n%s", r.Snippet)
	return nil
}

// writeText writes one class's recommendation.
func (p Pick) writeText(w io.Writer, tried int) error {
	if p.Met {
		fmt.Fprintf(w, "class %s: %s\n", p.Class, p.Flags)
	} else {
		fmt.Fprintf(w, "class %s: NOT MET (closest: %s)\n", p.Class, p.Flags)
	}
	fmt.Fprintf(w, "  bounds: %s\n", strings.Join(p.boundsText(), "; "))
	fmt.Fprintf(w, "  why: %s\n", p.Reason)
	n := p.NormalDay
	quality := format.Dash
	if n.All4Right != nil {
		quality = format.Percent(n.All4Right.Min)
		if a := n.PrimaryAloneAll4Right; a != nil {
			quality += " (the primary alone: " + format.Percent(a.Median)
			if ci := n.PrimaryAloneCI95; ci != nil {
				quality += ", 95 % interval " + format.Percent(ci[0]) + "–" + format.Percent(ci[1])
			}
			quality += ")"
		}
	}
	fmt.Fprintf(w, "  no outage (worst repeat): %s of its %d emails (%s) left to the backup or a person; all 4 right %s\n",
		format.Count(n.Fallback.Max*float64(n.Emails)), n.Emails, format.Percent(n.Fallback.Max), quality)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  outage\tp95 wait (median, max)\tall 4 right\tbackup\thanded over\tpredicted first open\tpredicted worst wait")
	for _, o := range p.Outages {
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\t%s\n", o.Outage, statSecs(o.P95WaitS), statShare(o.All4Right),
			format.Count(o.ServedBackup), format.Count(o.HandedOver), rangeText(o.PredictedFirstOpenS, o.PredictedNote), rangeText(o.PredictedWorstWaitS, o.PredictedNote))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "  met the bounds (%d of %d), in the rule's order:", len(p.Eligible), tried)
	if len(p.Eligible) == 0 {
		fmt.Fprint(w, " none")
	}
	fmt.Fprintln(w)
	for _, c := range p.Eligible {
		fmt.Fprintf(w, "    %s: %s all 4 right and %s p95 wait in its worst outage, %s left off the primary with no outage\n",
			c.Flags, optShare(c.WorstAll4Right), optSecs(c.WorstP95WaitS), format.Percent(c.NormalFallback))
	}
	fmt.Fprintf(w, "  rejected (%d):\n", len(p.Rejected))
	for _, x := range p.Rejected {
		fmt.Fprintf(w, "    %s: %s\n", x.Flags, missesText(x.Misses))
	}
	fmt.Fprintln(w)
	return nil
}

// boundsText are the class's bounds in words.
func (p Pick) boundsText() []string {
	var out []string
	if p.WithinS != nil {
		out = append(out, "p95 wait within "+format.Seconds(p.WithinS)+" in each outage")
	}
	if p.MinAll4Right > 0 {
		out = append(out, "all 4 right at least "+format.Percent(p.MinAll4Right)+" in each outage")
	}
	if p.Hold != "" {
		out = append(out, "backup never ("+p.Hold+")")
	}
	normal := "with no outage at most " + format.Percent(p.NormalMaxFallback) + " of its emails left to the backup or a person"
	q := p.NormalQuality
	switch {
	case q.PrimaryAlone && q.Floor > 0:
		normal += ", all 4 right at least " + format.Percent(q.Floor) + " and not below the primary alone's 95 % interval"
	case q.PrimaryAlone:
		normal += ", all 4 right not below the primary alone's 95 % interval"
	case q.Floor > 0:
		normal += ", all 4 right at least " + format.Percent(q.Floor)
	}
	return append(out, normal)
}

func optShare(v *float64) string {
	if v == nil {
		return format.Dash
	}
	return format.Percent(*v)
}

func optSecs(v *float64) string {
	if v == nil {
		return format.Dash
	}
	return format.Secs(*v)
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
