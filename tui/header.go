package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/format"
	"github.com/drill-dev/drill/scoring"
)

// renderHeader draws the two header lines: the drill, its outage and its
// status, elapsed time, and the policy with its key settings.
func renderHeader(st Styles, s *state, w int, now time.Duration, extra string) []string {
	info := s.fold.Info
	o := s.outage(now)
	outage := "outage " + orDash(info.Outage)
	if info.Outage != "none" && info.OutageToS > info.OutageFromS {
		outage += fmt.Sprintf(" %g–%g s", info.OutageFromS, info.OutageToS)
	}
	if n := len(s.fold.Windows); n > 0 && s.fold.Windows[n-1].ByHand {
		outage += " (by hand)"
	}
	if len(s.fold.Windows) > 0 {
		if f := s.fold.Windows[len(s.fold.Windows)-1].Fault; f != "" && f != info.Outage {
			outage += " (" + f + ")"
		}
	}
	var status string
	switch o.phase {
	case "active":
		status = st.Alert.Render("ACTIVE")
		if o.hasLeft {
			status += fmt.Sprintf(" %.0f s left", o.left.Seconds())
		} else if o.byHand {
			status += " by hand"
		}
	case "over":
		status = "over"
	case "none":
		status = "none"
	default:
		status = "before"
	}
	segs := []string{st.Bold.Render("drill"), outage, status, fmt.Sprintf("elapsed %.1f s", now.Seconds())}
	if s.fold.Paused() {
		segs = append(segs, st.Alert.Render("PAUSED"))
	}
	if s.ended() {
		segs = append(segs, st.Bold.Render("ENDED "+format.Text(s.fold.Status())+": "+format.Text(s.fold.Ended())))
	}
	if extra != "" {
		segs = append(segs, extra)
	}
	line1 := strings.Join(segs, " · ")
	var pol []string
	pol = append(pol, "policy "+st.Bold.Render(orDash(info.Policy)))
	if info.TimeLimitScope != "" {
		pol = append(pol, "time limit per "+info.TimeLimitScope)
	}
	var chain []string
	for _, r := range info.Rungs {
		if r.Name == event.ServedCanned || (r.Model == "" && r.TimeLimit == 0) {
			chain = append(chain, r.Name)
			continue
		}
		d := r.Name
		if r.Model != "" {
			d += " " + r.Model
		}
		lim := "no limit"
		if r.TimeLimit > 0 {
			lim = fmt.Sprintf("%g s", r.TimeLimit.Seconds())
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
	line2 := strings.Join(pol, " · ")
	return []string{fit(line1, w), fit(line2, w)}
}

func orDash(s string) string { return format.Text(s) }

// summarySegments writes the run summary, the same figures `drill run
// --json` prints, as short labelled segments, formatted as everywhere else.
func summarySegments(st Styles, sum scoring.Summary) []string {
	basis := format.Basis(sum)
	segs := []string{
		st.Bold.Render(format.Status(sum)),
		"served P/B/C/E " + strings.ReplaceAll(format.Served(sum.Served), " / ", "/"),
		"all 4 right " + format.All4(sum) + fmt.Sprintf(" of %d answered", sum.EmailsAnswered),
		"outage wait median " + format.Seconds(sum.MedianWaitOutageS) + ", p95 " + format.Seconds(sum.P95WaitOutageS) + basis,
	}
	if f := sum.Followed; f.Email > 0 {
		segs = append(segs, fmt.Sprintf("#%d %s", f.Email, format.Followed(f)))
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
