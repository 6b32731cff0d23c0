package tui

import (
	"fmt"

	"github.com/drill-dev/drill/format"
	"github.com/drill-dev/drill/scoring"
)

// renderQuality draws the Quality pane's content: all-4-right so far with
// its 95 % interval, split by who served; per-field accuracy; the median and
// p95 wait of emails sent during the outage; served counts.
func renderQuality(st Styles, s *state, w, h int) []string {
	q := s.fold.Quality()
	var out []string
	head := "all 4 right " + format.Share(q.All4, q.N) + fmt.Sprintf(" of %d answered", q.N)
	out = append(out, st.Bold.Render(head))
	var by []string
	for _, name := range []string{"primary", "backup", "canned", "error"} {
		c := s.fold.QualityBy(name)
		if c.N == 0 {
			continue
		}
		by = append(by, fmt.Sprintf("%s %s n=%d", name, format.Share(c.All4, c.N), c.N))
	}
	if len(by) > 0 {
		out = append(out, wrapSegments(by, " · ", w)...)
	}
	waits := "outage wait: none yet"
	if n := s.summary.WaitsOutage; n > 0 {
		waits = "outage wait: median " + format.Seconds(s.summary.MedianWaitOutageS) + ", p95 " + format.Seconds(s.summary.P95WaitOutageS) + format.Basis(s.summary)
		if n := fmt.Sprintf(" (n=%d)", n); len(waits)+len(n) <= w {
			waits += n
		}
	}
	out = append(out, waits)
	sv := s.fold.Served()
	servedSegs := []string{
		"served:",
		st.Primary.Render("█") + fmt.Sprintf(" primary %d", sv.Primary),
		st.Backup.Render("▓") + fmt.Sprintf(" backup %d", sv.Backup),
		st.Canned.Render("▒") + fmt.Sprintf(" canned %d", sv.Canned),
		st.Error.Render("×") + fmt.Sprintf(" error %d", sv.Error),
	}
	if sv.Cancelled > 0 {
		servedSegs = append(servedSegs, fmt.Sprintf("cancelled %d", sv.Cancelled))
	}
	out = append(out, wrapSegments(servedSegs, "  ", w)...)
	var fields []string
	for _, f := range scoring.FieldNames {
		if q.N == 0 {
			fields = append(fields, f+" —")
			continue
		}
		fields = append(fields, f+" "+format.Percent(float64(q.Fields[f])/float64(q.N)))
	}
	out = append(out, wrapSegments(fields, "  ", w)...)
	return out
}
