package tui

import (
	"fmt"

	"github.com/drill-dev/drill/scoring"
)

// renderQuality draws the Quality pane's content: all-4-right so far with
// its 95 % interval, split by who served; per-field accuracy; the median and
// p95 wait of emails sent during the outage; served counts.
func renderQuality(st Styles, s *state, w, h int) []string {
	q := s.fold.Quality()
	var out []string
	head := "all 4 right " + pctCI(q.All4, q.N) + fmt.Sprintf(" of %d done", q.N)
	out = append(out, st.Bold.Render(head))
	var by []string
	for _, name := range []string{"primary", "backup", "canned", "error"} {
		c := s.fold.QualityBy(name)
		if c.N == 0 {
			continue
		}
		by = append(by, fmt.Sprintf("%s %s n=%d", name, pctCI(c.All4, c.N), c.N))
	}
	if len(by) > 0 {
		out = append(out, wrapSegments(by, " · ", w)...)
	}
	waits := "outage wait: none yet"
	if n := len(s.fold.WaitsOutage()); n > 0 && s.summary.MedianWaitOutageS != nil && s.summary.P95WaitOutageS != nil {
		waits = fmt.Sprintf("outage wait: median %.1f s, p95 %.1f s", *s.summary.MedianWaitOutageS, *s.summary.P95WaitOutageS)
		if n := fmt.Sprintf(" (n=%d)", n); len(waits)+len(n) <= w {
			waits += n
		}
	}
	out = append(out, waits)
	sv := s.fold.Served()
	out = append(out, wrapSegments([]string{
		"served:",
		st.Primary.Render("█") + fmt.Sprintf(" primary %d", sv.Primary),
		st.Backup.Render("▓") + fmt.Sprintf(" backup %d", sv.Backup),
		st.Canned.Render("▒") + fmt.Sprintf(" canned %d", sv.Canned),
		st.Error.Render("×") + fmt.Sprintf(" error %d", sv.Error),
	}, "  ", w)...)
	var fields []string
	for _, f := range scoring.FieldNames {
		if q.N == 0 {
			fields = append(fields, f+" —")
			continue
		}
		fields = append(fields, fmt.Sprintf("%s %d%%", f, pct(q.Fields[f], q.N)))
	}
	out = append(out, wrapSegments(fields, "  ", w)...)
	return out
}

// pctCI writes k of n as a percentage with its Wilson 95 % interval.
func pctCI(k, n int) string {
	if n == 0 {
		return "—"
	}
	lo, hi := scoring.Wilson(k, n)
	return fmt.Sprintf("%d%% (%d–%d%%)", pct(k, n), int(lo*100+0.5), int(hi*100+0.5))
}

func pct(k, n int) int {
	if n == 0 {
		return 0
	}
	return int(float64(k)*100/float64(n) + 0.5)
}
