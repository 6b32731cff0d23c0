package recommend

import (
	"encoding/json"
	"fmt"
	"math"
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

// verdict is how a setting fares against a class's bounds: whether it
// meets them, by how much it misses (0 when it meets them), and the
// figures candidates are ranked by.
type verdict struct {
	meets     bool
	miss      float64 // the largest relative shortfall over the bounds
	worstP95  float64 // the largest p95 wait over the outages and repeats; 0 when unmeasured
	worstAll4 float64 // the smallest median all-4-right over the outages; -1 when unmeasured
	why       string  // the first bound missed, in words
}

func judge(c class, figs []OutageFigures, floor float64) verdict {
	v := verdict{meets: true, worstAll4: math.Inf(1)}
	for _, f := range figs {
		if p := f.P95WaitS; p != nil {
			v.worstP95 = max(v.worstP95, p.Max)
			if c.within > 0 && p.Max > c.within.Seconds() {
				miss := p.Max/c.within.Seconds() - 1
				if miss > v.miss {
					v.miss = miss
					v.why = fmt.Sprintf("waits %s at p95 during %s (bound %s)", format.Secs(p.Max), f.Outage, format.Dur(c.within))
				}
				v.meets = false
			}
		}
		if a := f.All4Right; a != nil {
			v.worstAll4 = min(v.worstAll4, a.Median)
			if floor > 0 && a.Median < floor {
				if miss := (floor - a.Median) / floor; miss > v.miss {
					v.miss = miss
					v.why = fmt.Sprintf("has %s all 4 right during %s (floor %s)", format.Percent(a.Median), f.Outage, format.Percent(floor))
				}
				v.meets = false
			}
		}
	}
	if math.IsInf(v.worstAll4, 1) {
		v.worstAll4 = -1
	}
	return v
}

// pick recommends a setting for class c: of those that meet its bounds,
// the one with the best quality in its worst outage, then the shortest
// p95 wait (so it is on the front of wait against quality); when none
// meets them, the one that misses them least.
func pick(c class, settings []*setting, opts Options) Pick {
	p := Pick{Class: c.name, Hold: c.hold, MinAll4Right: opts.MinAll4Right}
	if c.within > 0 {
		w := c.within.Seconds()
		p.WithinS = &w
	}
	var best, closest *setting
	var bestV, closestV verdict
	for _, s := range settings {
		// The prediction is worked out for the chosen setting alone, below.
		v := judge(c, measured(c, s, opts.Outages), opts.MinAll4Right)
		if v.meets {
			p.Candidates++
			if best == nil || v.worstAll4 > bestV.worstAll4 || (v.worstAll4 == bestV.worstAll4 && v.worstP95 < bestV.worstP95) {
				best, bestV = s, v
			}
		} else if closest == nil || v.miss < closestV.miss {
			closest, closestV = s, v
		}
	}
	chosen := best
	if best == nil {
		chosen = closest
		p.Reason = fmt.Sprintf("no setting of %d meets class %s's bounds in every outage (%s); the closest, %s, %s",
			len(settings), c.name, strings.Join(opts.Outages, ", "), chosen.flags, closestV.why)
	} else {
		p.Met = true
	}
	p.Flags = chosen.flags
	p.Policy = policyOf(c, chosen)
	p.Outages = figures(c, chosen, opts.Outages)
	return p
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
