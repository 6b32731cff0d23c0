package tui

import (
	"fmt"

	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/scoring"
)

// renderQuality draws the Quality pane's content, most important first: who
// served the emails (errors and canned replies included; rejected and cut
// off apart), all-4-right so far over the emails answered with its 95 %
// interval, split by the models that answered; the
// median and p95 wait of emails sent during the outage; per-field
// accuracy. Each row has shorter forms it falls back to before anything
// is cut.
func renderQuality(st Styles, s *state, w, h int) []string {
	q := s.fold.Quality()
	sv := s.fold.Served()
	var out []string
	add := func(forms ...string) { out = append(out, pick(w, forms...)) }

	// Emails not answered, counted apart: turned away by the worker pool,
	// cut off by the run's end. Neither is in the all-4-right below.
	cut := ""
	if sv.Rejected > 0 {
		cut += fmt.Sprintf("  rejected %d", sv.Rejected)
	}
	if sv.Cancelled > 0 {
		cut += fmt.Sprintf("  cut off %d", sv.Cancelled)
	}
	errs := fmt.Sprint(sv.Error)
	if sv.Error > 0 {
		errs = st.Alert.Render(errs)
	}
	add(
		fmt.Sprintf("served: %s primary %d  %s backup %d  %s canned %d  %s error %s%s",
			st.Primary.Render("█"), sv.Primary, st.Backup.Render("▓"), sv.Backup, st.Canned.Render("▒"), sv.Canned, st.Error.Render("×"), errs, cut),
		fmt.Sprintf("primary %d  backup %d  canned %d  error %s%s", sv.Primary, sv.Backup, sv.Canned, errs, cut),
		fmt.Sprintf("P %d  B %d  C %d  E %s%s", sv.Primary, sv.Backup, sv.Canned, errs, cut),
	)
	all4 := plain.Share(q.All4, q.N)
	add(st.Bold.Render("all 4 right "+all4+fmt.Sprintf(" of %d answered", q.N)),
		st.Bold.Render("all 4 right "+all4), st.Bold.Render("all4 "+all4))
	// Only model answers can be right: canned replies and errors are
	// counted above, not given a 0 % share here.
	for _, name := range []string{"primary", "backup", "rules"} {
		c := s.fold.QualityBy(name)
		if c.N == 0 {
			continue
		}
		add(fmt.Sprintf("  by %s: %s of %d", name, plain.Share(c.All4, c.N), c.N),
			fmt.Sprintf("  %s %s n=%d", name, format.PercentOf(c.All4, c.N), c.N))
	}
	if n := s.summary.WaitsOutage; n > 0 {
		med, p95 := format.Seconds(s.summary.MedianWaitOutageS), format.Seconds(s.summary.P95WaitOutageS)
		add(fmt.Sprintf("outage wait: median %s, p95 %s%s (n=%d)", med, p95, plain.Basis(s.summary), n),
			fmt.Sprintf("outage wait median %s, p95 %s", med, p95),
			fmt.Sprintf("wait p50 %s p95 %s", med, p95))
	} else {
		add("outage wait: none yet", "wait: none yet")
	}
	var fields []string
	for _, f := range scoring.FieldNames {
		fields = append(fields, f+" "+format.PercentOf(q.Fields[f], q.N))
	}
	out = append(out, wrapSegments(fields, "  ", w)...)
	return append(out, s.baseline.qualityLines(w)...)
}

// pick returns the first of forms that fits in w cells, or the last.
func pick(w int, forms ...string) string {
	for _, f := range forms {
		if cellWidth(f) <= w {
			return f
		}
	}
	return forms[len(forms)-1]
}
