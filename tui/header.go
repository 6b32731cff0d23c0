package tui

import (
	"fmt"
	"strconv"
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
// the policy. Each is wrapped between its segments, never inside a word;
// the policy's rung settings take a short form when it would need more
// than maxPolicyLines lines.
func renderHeader(st Styles, s *state, w int, now time.Duration, extra string) []string {
	return renderHeaderWith(st, s, w, now, extra, false)
}

// renderHeaderWith is renderHeader, with the share of emails all 4 right
// among the headline figures when quality is set: the layout that hides
// the Quality pane keeps its headline figure in view.
func renderHeaderWith(st Styles, s *state, w int, now time.Duration, extra string, quality bool) []string {
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
	head := headlineSegments(st, s)
	if quality {
		// The hidden Quality pane's headline figures, all 4 right and the
		// p95 wait in the outage: each on the first line that has room for
		// it, else the headline's.
		q := s.fold.Quality()
		for _, seg := range []string{"all 4 right " + format.PercentOf(q.All4, q.N),
			"p95 wait " + format.Seconds(s.summary.P95WaitOutageS)} {
			if withQ := wrapSegments(append(segs[:len(segs):len(segs)], seg), " · ", w); len(withQ) == len(lines) {
				segs, lines = append(segs[:len(segs):len(segs)], seg), withQ
			} else {
				head = append(head, seg)
			}
		}
	}
	lines = append(lines, wrapSegments(head, " · ", w)...)
	for i := range lines {
		lines[i] = fit(lines[i], w)
	}
	for _, l := range policyLines(st, s, w) {
		lines = append(lines, fit(l, w))
	}
	return lines
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
	var segs []string
	if s.fold.NoOutage() {
		// No outage, injected or observed: failed calls are the policy's
		// own on a healthy day, never calls to a broken model.
		segs = append(segs, st.Bold.Render(fmt.Sprintf("%d failed calls, no outage", s.fold.FailedAttempts())))
	} else {
		segs = append(segs, st.Bold.Render(fmt.Sprintf("%d calls to broken %s", s.fold.CallsToBroken(), format.Text(target)))+plain.Basis(sum))
		if b := s.baseline.headlineSegment(st); b != "" {
			segs = append(segs, b)
		}
	}
	sv := s.fold.Served()
	errs := fmt.Sprintf("errors %d", sv.Error)
	if sv.Error > 0 {
		errs = st.Alert.Render(errs)
	}
	segs = append(segs, errs, fmt.Sprintf("canned %d", sv.Canned))
	if sv.Rejected > 0 {
		// Turned away by the worker pool: not answered, not in quality.
		segs = append(segs, st.Alert.Render(fmt.Sprintf("rejected %d", sv.Rejected)))
	}
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

// maxPolicyLines is how many lines the policy may take in the header
// before its rungs' settings are written in their short form.
const maxPolicyLines = 2

// policyLines is the policy with its chain's key settings, wrapped at w
// between its settings and its rungs, never inside a word: the long form
// when it takes at most maxPolicyLines lines, else the short one.
func policyLines(st Styles, s *state, w int) []string {
	long := wrapParts(policyParts(st, s, false), w)
	if len(long) <= maxPolicyLines {
		return long
	}
	return wrapParts(policyParts(st, s, true), w)
}

// policyParts are the policy line's pieces: the policy, the breaker rules
// and chain options that differ from the defaults, the time limit's scope,
// then each rung of the chain with its model and settings (short: "limit
// per attempt", and "5 s, 2 rty, brk" for "5 s, 2 retries, breaker").
func policyParts(st Styles, s *state, short bool) []part {
	info := s.fold.Info
	parts := []part{{text: "policy " + st.Bold.Render(orDash(info.Policy))}}
	for _, o := range info.Options {
		parts = append(parts, part{sep: " · ", text: format.Text(o)})
	}
	limit, retries, breaker := "time limit per ", "retries", "breaker"
	if short {
		limit, retries, breaker = "limit per ", "rty", "brk"
	}
	if info.TimeLimitScope != "" {
		parts = append(parts, part{sep: " · ", text: limit + info.TimeLimitScope})
	}
	for i, r := range info.Rungs {
		d := format.Text(r.Name)
		if r.Name != event.ServedCanned && (r.Model != "" || r.TimeLimit != 0) {
			if r.Model != "" {
				d += " " + redact.Terminal(r.Model)
			}
			lim := "no limit"
			if r.TimeLimit > 0 {
				lim = format.Setting(r.TimeLimit)
			}
			d += fmt.Sprintf(" (%s, %d %s", lim, r.Retries, retries)
			if r.HasBreaker {
				d += ", " + breaker
			}
			d += ")"
		}
		p := part{sep: " · ", text: d}
		if i > 0 {
			// A rung that starts a line keeps its arrow.
			p = part{sep: " ", text: "→ " + d}
		}
		parts = append(parts, p)
	}
	return parts
}

func orDash(s string) string { return format.Text(s) }

// servedSegment is who served the emails, lettered as the Emails pane tags
// them: "served P/B/C/E 72/48/0/0", with H (handed over) and R (rejected
// by the worker pool) when there are any: "served P/B/C/E/R 322/20/0/0/258".
func servedSegment(s scoring.Served) string {
	var letters, counts []string
	for _, server := range plain.ServedColumnsOf(s) {
		letters = append(letters, tagFor(server))
		counts = append(counts, strconv.Itoa(plain.ServedOf(s, server)))
	}
	return "served " + strings.Join(letters, "/") + " " + strings.Join(counts, "/")
}

// summarySegments writes the run summary, the same figures `drill run
// --json` prints, as short labelled segments, formatted as everywhere else.
func summarySegments(st Styles, sum scoring.Summary) []string {
	basis := plain.Basis(sum)
	noOutage := plain.NoOutage(sum)
	segs := []string{
		st.Bold.Render(plain.Status(sum)),
		servedSegment(sum.Served),
		"all 4 right " + plain.All4(sum) + fmt.Sprintf(" of %d answered", sum.EmailsAnswered),
	}
	if !noOutage {
		segs = append(segs, "outage wait median "+format.Seconds(sum.MedianWaitOutageS)+", p95 "+format.Seconds(sum.P95WaitOutageS)+basis)
	}
	if f := sum.Followed; f.Email > 0 {
		segs = append(segs, fmt.Sprintf("#%d %s", f.Email, plain.Followed(f)))
	}
	if noOutage {
		for _, o := range sum.Observed {
			segs = append(segs, fmt.Sprintf("%s failed %d of %d calls, no outage", format.Text(o.Rung), o.FailedAttempts, o.Attempts))
		}
		segs = append(segs, fmt.Sprintf("opens %d", sum.BreakerOpens))
	} else {
		segs = append(segs,
			fmt.Sprintf("calls to broken %d", sum.CallsToBrokenOutage)+basis,
			"first open "+format.Seconds(sum.BreakerFirstOpenS),
			fmt.Sprintf("opens %d", sum.BreakerOpens),
			"primary back "+format.Seconds(sum.PrimaryBackS))
	}
	return append(segs, "wall "+format.Secs(sum.WallS))
}
