package plain

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/scoring"
)

// ProxyFleet writes a proxy fleet's table (drill watch --no-tui): one row
// per member (requests, failed, faulted, the outage it plays now, its link
// to Redis, whether it ended or was lost) and the fleet's totals, all from
// one fold.
func ProxyFleet(w io.Writer, fleet string, f *scoring.ProxyFleetFold) error {
	t := f.Totals()
	fmt.Fprintf(w, "proxy fleet %s: %d members, %d lost, %d with Redis away\n", format.Text(fleet), t.Members, t.Lost, t.LinkDown)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "member\trequests\tfailed\tfaulted\toutage now\tlink\theld/dropped\tstate\tlast event")
	for _, m := range f.Members() {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%s\t%s\t%d/%d\t%s\t%s\n", format.Text(m.ID), m.Tally.Requests, m.Tally.Failed, m.Faults(),
			outageNow(m), link(m), m.Held, m.Dropped, memberState(m), format.Dur(m.Last))
	}
	fmt.Fprintf(tw, "fleet\t%d\t%d\t%d\t\t\t-/%d\t\t\n", t.Requests, t.Failed, t.Faults, t.Dropped)
	return tw.Flush()
}

func outageNow(m *scoring.ProxyFleetMember) string {
	if a := m.Tally.Active; a.Fault != "" {
		return format.Text(a.Fault)
	}
	return "-"
}

func link(m *scoring.ProxyFleetMember) string {
	s := "up"
	if m.LinkDown {
		s = "down"
	}
	if m.LinkDowns > 0 {
		s += fmt.Sprintf(" (%d down)", m.LinkDowns)
	}
	return s
}

func memberState(m *scoring.ProxyFleetMember) string {
	switch {
	case m.Lost && m.LostBy == "":
		return "lost (marked by drill watch)"
	case m.Lost:
		return "lost (marked by " + format.Text(m.LostBy) + ")"
	case m.Tally.Closed:
		return "ended"
	}
	return "running"
}
