package recommend

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/drill-dev/drill/internal/drillfile"
	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/predict"
	"github.com/drill-dev/drill/internal/route"
	"github.com/drill-dev/drill/internal/sweep"
	"github.com/drill-dev/drill/scoring"
)

// PolicyFlag reports whether a drill flag is a policy setting a
// recommendation may search (an override of drill run, or --policies),
// and its drill-file key.
func PolicyFlag(flag string) (key string, ok bool) {
	if flag == sweep.AxisPolicies {
		return "preset", true
	}
	for _, k := range drillfile.OverrideKeys() {
		if drillfile.FlagName(k) == flag {
			return k, true
		}
	}
	return "", false
}

// figures are class c's figures for setting s in every outage, drill
// predict's arithmetic beside the measured ones.
func figures(c class, s *setting, outages []string) []OutageFigures {
	figs := measured(c, s, outages)
	for i := range figs {
		if _, ok := s.rows[figs[i].Outage]; ok {
			figs[i].PredictedFirstOpenS, figs[i].PredictedWorstWaitS, figs[i].PredictedNote = predicted(c, s, figs[i].Outage)
		}
	}
	return figs
}

// measured are class c's measured figures for setting s in every outage:
// what judge reads of every setting searched.
func measured(c class, s *setting, outages []string) []OutageFigures {
	var out []OutageFigures
	for _, o := range outages {
		f := OutageFigures{Outage: o}
		row, ok := s.rows[o]
		if !ok {
			out = append(out, f)
			continue
		}
		stat := func(key string) *scoring.Stat {
			if st, ok := row.Figures["classes."+c.name+"."+key]; ok && st.N > 0 {
				return &st
			}
			return nil
		}
		f.P95WaitS, f.All4Right = stat("p95_wait_outage_s"), stat("all4_right")
		if st := stat("served.backup"); st != nil {
			f.ServedBackup = st.Median
		}
		if st := stat("handed_over"); st != nil {
			f.HandedOver = st.Median
		}
		out = append(out, f)
	}
	return out
}

// predicted is drill predict's arithmetic for class c's chain in outage o
// under setting s: the route's policy (the primary alone when it never
// takes the backup) in the setting's drill.
func predicted(c class, s *setting, o string) (firstOpen, worstWait *predict.Range, note string) {
	cfg, ok := s.cfgs[o]
	if !ok {
		return nil, nil, "not run"
	}
	for _, r := range cfg.Routes {
		if r.Class == c.name {
			cfg.Policy = r.Held()
		}
	}
	cfg.Routes = nil
	// An outage the arithmetic does not read comes back as p.Note, not
	// an error (predict.NotPredicted).
	p, err := predict.Compute(cfg)
	if err != nil {
		return nil, nil, err.Error()
	}
	return p.FirstOpenS, p.WorstWaitS, p.Note
}

// outageStats are class c's figures for setting s in every outage, as
// the fold's rule reads them.
func outageStats(figs []OutageFigures) []scoring.OutageStats {
	out := make([]scoring.OutageStats, len(figs))
	for i, f := range figs {
		out[i] = scoring.OutageStats{Outage: f.Outage, P95WaitS: f.P95WaitS, All4Right: f.All4Right}
	}
	return out
}

// normalDay pairs class c's normal-day figures for setting s with the
// primary alone's, repeat by repeat.
func normalDay(c class, s *setting, alone []scoring.Summary) []scoring.NormalDayRun {
	runs := make([]scoring.NormalDayRun, len(s.normal))
	for i, sum := range s.normal {
		runs[i].Setting = sum.Classes[c.name]
		if i < len(alone) {
			runs[i].PrimaryAlone = alone[i].Classes[c.name]
		}
	}
	return runs
}

// pick recommends a setting for class c by the fold's rule: every setting
// judged against the class's bounds (scoring.JudgeRecommend), then the
// chosen one among those that meet them (scoring.ChooseSetting), or the
// closest when none does.
func pick(c class, settings []*setting, alone []scoring.Summary, opts Options) Pick {
	b := opts.bounds(c)
	p := Pick{Class: c.name, Hold: c.hold, MinAll4Right: b.MinAll4Right, NormalMaxFallback: b.NormalMaxFallback,
		NormalQuality: b.NormalQuality, Eligible: []Candidate{}, Rejected: []Rejected{}}
	if c.within > 0 {
		w := c.within.Seconds()
		p.WithinS = &w
	}
	verdicts := make([]scoring.RecommendVerdict, len(settings))
	for i, s := range settings {
		// The prediction is worked out for the chosen setting alone, below.
		verdicts[i] = scoring.JudgeRecommend(b, outageStats(measured(c, s, opts.Outages)), normalDay(c, s, alone))
	}
	chosen, met := scoring.ChooseSetting(verdicts)
	if chosen < 0 {
		p.Reason = "no setting was searched"
		return p
	}
	ranked := scoring.RankEligible(verdicts)
	for _, i := range ranked {
		p.Eligible = append(p.Eligible, candidate(settings[i].flags, verdicts[i]))
	}
	for i, v := range verdicts {
		if !v.Eligible() {
			p.Rejected = append(p.Rejected, Rejected{Flags: settings[i].flags, Misses: v.Misses})
		}
	}
	p.Candidates = len(p.Eligible)
	s := settings[chosen]
	p.Met = met
	if met {
		decided := ""
		if len(ranked) > 1 {
			decided = scoring.Ahead(verdicts[ranked[0]], verdicts[ranked[1]])
		}
		p.Reason = fmt.Sprintf("%d of %d settings meet the bounds; of those, %s: %s", p.Candidates, len(settings), Rule, choiceWhy(p.Eligible, decided))
	} else {
		what := "in every outage (" + strings.Join(opts.Outages, ", ") + ") and on the normal day"
		p.Reason = fmt.Sprintf("no setting of %d meets class %s's bounds %s; the closest, %s, %s",
			len(settings), c.name, what, s.flags, missText(verdicts[chosen].Worst()))
	}
	p.Flags = s.flags
	p.Policy = policyOf(c, s)
	p.NormalDay = verdicts[chosen].Normal
	p.Outages = figures(c, s, opts.Outages)
	return p
}

// candidate is an eligible setting as the output lists it.
func candidate(flags string, v scoring.RecommendVerdict) Candidate {
	c := Candidate{Flags: flags, NormalFallback: v.Normal.Fallback.Max}
	if v.WorstAll4 >= 0 {
		c.WorstAll4Right = &v.WorstAll4
	}
	if v.WorstP95S >= 0 {
		c.WorstP95WaitS = &v.WorstP95S
	}
	return c
}

// choiceWhy says what put the first eligible setting ahead of the
// second: decided is the rule's key that did (scoring.Ahead; "" for a
// single one).
func choiceWhy(eligible []Candidate, decided string) string {
	first := eligible[0]
	if len(eligible) == 1 {
		return fmt.Sprintf("the only one (%s all 4 right, %s p95 wait in its worst outage)", optShare(first.WorstAll4Right), optSecs(first.WorstP95WaitS))
	}
	next := eligible[1]
	switch decided {
	case scoring.RankQuality:
		return fmt.Sprintf("%s all 4 right in its worst outage, against %s for the next, %s",
			optShare(first.WorstAll4Right), optShare(next.WorstAll4Right), next.Flags)
	case scoring.RankWait:
		return fmt.Sprintf("%s all 4 right in its worst outage, as the next (%s), and the shorter p95 wait: %s against %s",
			optShare(first.WorstAll4Right), next.Flags, optSecs(first.WorstP95WaitS), optSecs(next.WorstP95WaitS))
	case scoring.RankFallback:
		return fmt.Sprintf("%s all 4 right and %s p95 wait in its worst outage, as the next (%s), and fewer emails left off the primary with no outage: %s against %s",
			optShare(first.WorstAll4Right), optSecs(first.WorstP95WaitS), next.Flags, format.Percent(first.NormalFallback), format.Percent(next.NormalFallback))
	}
	return fmt.Sprintf("%s all 4 right and %s p95 wait in its worst outage, tied with the next (%s) on every figure: the first searched",
		optShare(first.WorstAll4Right), optSecs(first.WorstP95WaitS), next.Flags)
}

// missText says one missed bound in words.
func missText(m scoring.BoundMiss) string {
	switch m.Bound {
	case scoring.BoundWithin:
		return fmt.Sprintf("waits %s at p95 during %s (bound %s)", format.Secs(m.Got), m.Outage, format.Secs(m.Want))
	case scoring.BoundMinAll4Right:
		return fmt.Sprintf("has %s all 4 right during %s (floor %s)", format.Percent(m.Got), m.Outage, format.Percent(m.Want))
	case scoring.BoundNormalMaxFallback:
		return fmt.Sprintf("with no outage, leaves %s of the class's emails to the backup, the canned reply or a person (bound %s)",
			format.Percent(m.Got), format.Percent(m.Want))
	case scoring.BoundNormalMinAll4Right:
		return fmt.Sprintf("has %s all 4 right with no outage (floor %s)", format.Percent(m.Got), format.Percent(m.Want))
	}
	return m.Bound
}

// missesText says every missed bound of a rejected setting.
func missesText(ms []scoring.BoundMiss) string {
	parts := make([]string, len(ms))
	for i, m := range ms {
		parts[i] = missText(m)
	}
	return strings.Join(parts, "; ")
}

// policyOf is setting s as class c's policy in a drill file: its base
// preset with the setting's values, by drill-file key.
func policyOf(c class, s *setting) map[string]string {
	pol := map[string]string{"preset": c.base}
	for flag, v := range s.values {
		if key, ok := PolicyFlag(flag); ok {
			pol[key] = v
		}
	}
	return pol
}

// flowMap writes a policy as a YAML flow map, preset first.
func flowMap(pol map[string]string) string {
	keys := make([]string, 0, len(pol))
	for k := range pol {
		if k != "preset" {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	parts := []string{"preset: " + pol["preset"]}
	for _, k := range keys {
		parts = append(parts, k+": "+pol[k])
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// snippet is the drill-file text of the recommendation: the default
// class's setting as policies:, every other class's as its route.
func snippet(classes []class, picks []Pick) string {
	var b strings.Builder
	note := func(p Pick) string {
		if p.Met {
			return ""
		}
		return "  # does not meet its bounds: see the reason"
	}
	for i, c := range classes {
		if c.name == route.DefaultClass {
			fmt.Fprintf(&b, "policies:\n  - %s%s\n", flowMap(picks[i].Policy), note(picks[i]))
		}
	}
	b.WriteString("routes:\n")
	for i, c := range classes {
		if c.name == route.DefaultClass {
			continue
		}
		m, _ := json.Marshal(c.match) // JSON is YAML's flow style
		fmt.Fprintf(&b, "  - class: %s%s\n    match: %s\n    policy: %s\n", c.name, note(picks[i]), m, flowMap(picks[i].Policy))
		if c.hold != "" {
			fmt.Fprintf(&b, "    backup: %s, %s\n", drillfile.BackupNever, c.hold)
		}
		if c.within > 0 {
			fmt.Fprintf(&b, "    within: %s\n", format.GoDuration(c.within))
		}
	}
	return b.String()
}
