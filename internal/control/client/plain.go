package client

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/drill-dev/drill/internal/control"
	"github.com/drill-dev/drill/internal/format"
)

// WriteReply writes what a start or stop did, for a person.
func WriteReply(w io.Writer, r control.Reply) {
	verb := "started"
	if r.Op == control.OpStop {
		verb = "stopped"
	}
	fmt.Fprintf(w, "%s (command %s, by %s)\n", verb, format.Text(r.ID), format.Text(r.Who))
	writeOutages(w, r.Outages)
}

// WriteStatus writes the live figures, for a person.
func WriteStatus(w io.Writer, s control.Status) {
	fmt.Fprintf(w, "%s, %s since its start\n", format.Text(s.Target), format.Dur(s.Elapsed))
	writeOutages(w, s.Outages)
	width := 0
	for _, f := range s.Figures {
		width = max(width, len(f.Key))
	}
	for _, f := range s.Figures {
		fmt.Fprintf(w, "  %-*s  %s\n", width, format.Clean(f.Key), Figure(f))
	}
}

// WriteSchedule writes the outage timeline, for a person.
func WriteSchedule(w io.Writer, s control.Schedule) {
	if len(s.Windows) == 0 {
		fmt.Fprintf(w, "%s: no outage scheduled\n", format.Text(s.Target))
	} else {
		fmt.Fprintf(w, "%s: %s scheduled\n", format.Text(s.Target), format.Plural(len(s.Windows), "outage window"))
	}
	for _, win := range s.Windows {
		fmt.Fprintf(w, "  %s  %s%s\n", format.Text(win.Kind), span(win.From, win.To), params(win.Params))
	}
	writeOutages(w, s.Outages)
}

// Figure formats one figure by its unit.
func Figure(f control.Figure) string {
	switch f.Unit {
	case control.UnitSeconds:
		return format.Secs(f.Value)
	case control.UnitShare:
		return format.Percent(f.Value)
	}
	return format.Count(f.Value)
}

func writeOutages(w io.Writer, os []control.Outage) {
	if len(os) == 0 {
		fmt.Fprintln(w, "no outage active")
		return
	}
	fmt.Fprintf(w, "%s active:\n", format.Plural(len(os), "outage"))
	for _, o := range os {
		line := "  " + format.Text(o.Kind) + "  " + span(o.From, o.To) + params(o.Params)
		if len(o.Models) > 0 {
			line += "  models " + format.Clean(strings.Join(o.Models, ","))
		}
		switch {
		case o.Command != nil:
			line += "  by " + format.Text(o.Command.Who) + " (command " + format.Text(o.Command.ID) + ")"
		case o.ByHand:
			line += "  by hand"
		}
		fmt.Fprintln(w, line)
	}
}

// span is an outage's period: "12.0–42.0 s", or "from 12.0 s" while open.
func span(from, to time.Duration) string {
	if to < 0 {
		return "from " + format.Dur(from)
	}
	return format.DurSpan(from, to)
}

func params(p map[string]string) string {
	if len(p) == 0 {
		return ""
	}
	kv := make([]string, 0, len(p))
	for k, v := range p {
		kv = append(kv, format.Clean(k+"="+v))
	}
	sort.Strings(kv)
	return "  " + strings.Join(kv, " ")
}
