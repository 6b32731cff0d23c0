package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/internal/redact"
	"github.com/drill-dev/drill/scoring"
)

// renderHeader draws the header: the drill's outage and its state, the
// elapsed time, then the headline figures a drill is run for (calls to the
// broken model, errors, canned replies, breaker state, hypotheses), then
// the policy. The first two are wrapped segment by segment, never cut; only
// the policy line may be shortened.
func renderHeader(st Styles, s *state, w int, now time.Duration, extra string) []string {
	var segs []string
	if w >= 100 {
		segs = append(segs, st.Bold.Render("drill"))
	}
	segs = append(segs, outageText(st, s, now)...)
	if extra == "" {
		// A replay's status holds its clock; a live run shows its own.
		segs = append(segs, "elapsed "+format.Dur(now))
	}
	if s.fold.Paused() {
		segs = append(segs, st.Alert.Render("PAUSED"))
	}
	if s.ended() {
		segs = append(segs, st.Bold.Render("ENDED "+format.Text(s.fold.Status())))
	}
	if extra != "" {
		segs = append(segs, extra)
	}
	lines := wrapSegments(segs, " · ", w)
	lines = append(lines, wrapSegments(headlineSegments(st, s), " · ", w)...)
	for i := range lines {
		lines[i] = fit(lines[i], w)
	}
	return append(lines, fit(policyLine(st, s), w))
}

// outageText says what the outage is and where it stands (two segments),
// from the fold's windows as the injector applied them: an outage started
// or ended by hand shows its real window, not the scheduled one.
func outageText(st Styles, s *state, now time.Duration) []string {
	info := s.fold.Info
	ws := s.fold.Windows
	if len(ws) == 0 {
		if info.Outage == "" || info.Outage == "none" {
			return []string{"outage none"}
		}
		txt := "outage " + format.Text(info.Outage)
		if info.OutageToS > info.OutageFromS {
			txt += " " + format.Span(info.OutageFromS, info.OutageToS)
		}
		if basis, obs := s.fold.Basis(); basis == scoring.BasisObserved {
			w := obs[0]
			return []string{txt, "failures seen " + format.DurSpan(w.From, w.To)}
		}
		if s.ended() {
			return []string{txt, "never started"}
		}
		return []string{txt, st.Dim.Render("before")}
	}
	w := ws[len(ws)-1]
	kind := w.Kind
	if kind == "" {
		kind = info.Outage
	}
	txt := "outage " + format.Text(kind)
	if len(ws) > 1 {
		txt = fmt.Sprintf("outage %d of %d: %s", len(ws), len(ws), format.Text(kind))
	}
	open := w.To < 0
	switch {
	case open && !s.ended():
		txt += " from " + format.Dur(w.From)
		if w.ByHand {
			txt += " (by hand)"
		}
		status := st.Alert.Render("ACTIVE")
		if w.ScheduledEnd > now {
			status += " " + format.Dur(w.ScheduledEnd-now) + " left"
		}
		return []string{txt, status}
	case open:
		// The run ended with the outage still on: it ended with the run.
		txt += " " + format.DurSpan(w.From, s.last())
		if w.ByHand {
			txt += " (by hand)"
		}
		return []string{txt, "over with the run"}
	}
	txt += " " + format.DurSpan(w.From, w.To)
	if w.ByHand {
		txt += " (by hand)"
	}
	return []string{txt, "over"}
}

// headlineSegments are the figures a drill is run for, each short enough
// for the narrowest dashboard (60 columns).
func headlineSegments(st Styles, s *state) []string {
	sum := s.summary
	target := s.fold.Target()
	segs := []string{st.Bold.Render(fmt.Sprintf("%d calls to broken %s", s.fold.CallsToBroken(), format.Text(target))) + plain.Basis(sum)}
	sv := s.fold.Served()
	errs := fmt.Sprintf("errors %d", sv.Error)
	if sv.Error > 0 {
		errs = st.Alert.Render(errs)
	}
	segs = append(segs, errs, fmt.Sprintf("canned %d", sv.Canned))
	if sv.Cancelled > 0 {
		segs = append(segs, fmt.Sprintf("cut off %d", sv.Cancelled))
	}
	brk := s.fold.Breakers()
	for _, name := range brk {
		b := s.fold.Breaker(name)
		style := st.Dim
		if b.State == stateOpen {
			style = st.Alert
		}
		label := "breaker "
		if len(brk) > 1 {
			label += format.Text(name) + " "
		}
		segs = append(segs, label+style.Render(stateWord(b.State)))
	}
	if _, c := s.fold.Cost(); c.Known() {
		segs = append(segs, "cost "+plain.Cost(c))
	}
	if hs := s.hypotheses(); hs.total > 0 {
		seg := fmt.Sprintf("hypotheses %d pass", hs.pass)
		if hs.atRisk > 0 {
			seg += fmt.Sprintf(", %d at risk", hs.atRisk)
		}
		if hs.fail > 0 {
			seg += ", " + st.Alert.Render(fmt.Sprintf("%d FAIL", hs.fail))
		}
		segs = append(segs, seg)
	}
	return segs
}

// policyLine is the policy with its chain's key settings.
func policyLine(st Styles, s *state) string {
	info := s.fold.Info
	var pol []string
	pol = append(pol, "policy "+st.Bold.Render(orDash(info.Policy)))
	// The breaker rules and chain options that differ from the defaults
	// come first: the chain is what shortening cuts.
	for _, o := range info.Options {
		pol = append(pol, format.Text(o))
	}
	if info.TimeLimitScope != "" {
		pol = append(pol, "time limit per "+info.TimeLimitScope)
	}
	var chain []string
	for _, r := range info.Rungs {
		if r.Name == event.ServedCanned || (r.Model == "" && r.TimeLimit == 0) {
			chain = append(chain, format.Text(r.Name))
			continue
		}
		d := format.Text(r.Name)
		if r.Model != "" {
			d += " " + redact.Terminal(r.Model)
		}
		lim := "no limit"
		if r.TimeLimit > 0 {
			lim = format.Setting(r.TimeLimit)
		}
		d += fmt.Sprintf(" (%s, %d retries", lim, r.Retries)
		if r.HasBreaker {
			d += ", breaker"
		}
		chain = append(chain, d+")")
	}
	if len(chain) > 0 {
		pol = append(pol, strings.Join(chain, " → "))
	}
	return strings.Join(pol, " · ")
}

func orDash(s string) string { return format.Text(s) }

// summarySegments writes the run summary, the same figures `drill run
// --json` prints, as short labelled segments, formatted as everywhere else.
func summarySegments(st Styles, sum scoring.Summary) []string {
	basis := plain.Basis(sum)
	segs := []string{
		st.Bold.Render(plain.Status(sum)),
		"served P/B/C/E " + strings.ReplaceAll(plain.Served(sum.Served), " / ", "/"),
		"all 4 right " + plain.All4(sum) + fmt.Sprintf(" of %d answered", sum.EmailsAnswered),
		"outage wait median " + format.Seconds(sum.MedianWaitOutageS) + ", p95 " + format.Seconds(sum.P95WaitOutageS) + basis,
	}
	if f := sum.Followed; f.Email > 0 {
		segs = append(segs, fmt.Sprintf("#%d %s", f.Email, plain.Followed(f)))
	}
	segs = append(segs,
		fmt.Sprintf("calls to broken %d", sum.CallsToBrokenOutage)+basis,
		"first open "+format.Seconds(sum.BreakerFirstOpenS),
		fmt.Sprintf("opens %d", sum.BreakerOpens),
		"primary back "+format.Seconds(sum.PrimaryBackS),
		"wall "+format.Secs(sum.WallS),
	)
	return segs
}
