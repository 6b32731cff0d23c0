package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/drill-dev/drill/event"
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
	if len(s.fold.Windows) > 0 {
		if f := s.fold.Windows[len(s.fold.Windows)-1].Fault; f != "" && f != info.Outage {
			outage += " (by hand: " + f + ")"
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
	if s.paused {
		segs = append(segs, st.Alert.Render("PAUSED"))
	}
	if ended := s.fold.Ended(); ended != "" || s.ended {
		segs = append(segs, st.Bold.Render("ENDED "+orDash(ended)))
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

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// summarySegments writes the run summary, the same figures `drill run
// --json` prints, as short labelled segments.
func summarySegments(st Styles, sum scoring.Summary, status string) []string {
	sv := sum.Served
	segs := []string{
		st.Bold.Render(orDash(status)),
		fmt.Sprintf("served P/B/C/E %d/%d/%d/%d", sv.Primary, sv.Backup, sv.Canned, sv.Error),
		fmt.Sprintf("all 4 right %.0f%% (%.0f–%.0f%%)", sum.All4Right*100, sum.All4RightCI95[0]*100, sum.All4RightCI95[1]*100),
		"outage wait median " + secs(sum.MedianWaitOutageS) + ", p95 " + secs(sum.P95WaitOutageS),
	}
	f := sum.Followed
	if f.Email > 0 {
		fs := fmt.Sprintf("#%d ", f.Email)
		switch {
		case f.WaitS != nil:
			fs += secs(f.WaitS) + " " + f.ServedBy
		case f.SentS != nil:
			fs += "not answered"
		default:
			fs += "not sent"
		}
		segs = append(segs, fs)
	}
	segs = append(segs,
		fmt.Sprintf("calls to broken %d", sum.CallsToBrokenOutage),
		"first open "+secs(sum.BreakerFirstOpenS),
		fmt.Sprintf("opens %d", sum.BreakerOpens),
		"primary back "+secs(sum.PrimaryBackS),
		fmt.Sprintf("wall %.1f s", sum.WallS),
	)
	return segs
}

func secs(p *float64) string {
	if p == nil {
		return "—"
	}
	return fmt.Sprintf("%.1f s", *p)
}
