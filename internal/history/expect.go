package history

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/drill-dev/drill/scoring"
)

// An expectation against history is `figure op bound`, judged on the
// latest run of each group: the figure is any figure a hypothesis may name
// (a difference too), the bound a number or a reference to the earlier
// runs of the group, optionally scaled or shifted:
//
//	calls_to_broken_outage <= previous * 1.2
//	breaker_first_open_s <= max + 2
//	all4_right >= mean - 0.05
//
// previous is the run just before the latest; first the oldest; min, max,
// mean and median are over every earlier run that measured the figure.

// References an expectation's bound may name.
var References = []string{"previous", "first", "min", "max", "mean", "median"}

// Expectation is one parsed expectation.
type Expectation struct {
	Text  string
	check scoring.Expr // the figure and operator; its value is set per group
	ref   string       // a reference, or "" for a plain number
	op    byte         // '*', '+', '-' or 0
	k     float64      // the number: the bound itself, or the scale or shift
}

// ParseExpectation parses `figure op bound`; an unknown figure, operator or
// reference is an error that lists the valid ones.
func ParseExpectation(s string) (Expectation, error) {
	s = strings.TrimSpace(s)
	i := strings.IndexAny(s, "=!<>")
	if i <= 0 {
		return Expectation{}, fmt.Errorf("%q is not `figure op bound`", s)
	}
	j := i
	for j < len(s) && strings.ContainsRune("=!<>", rune(s[j])) {
		j++
	}
	left, op, bound := strings.TrimSpace(s[:i]), s[i:j], strings.TrimSpace(s[j:])
	// The figure and operator are checked as a hypothesis's, with a
	// placeholder bound: a triage figure, or else a chat drill's.
	check, err := scoring.ParseExpr(left + " " + op + " 0")
	if chatCheck, chatErr := scoring.ParseChatExpr(left + " " + op + " 0"); err != nil && chatErr == nil {
		check, err = chatCheck, nil
	}
	if err != nil {
		return Expectation{}, fmt.Errorf("expectation %q: %w", s, err)
	}
	e := Expectation{Text: s, check: check}
	if k, err := strconv.ParseFloat(bound, 64); err == nil && !math.IsInf(k, 0) && !math.IsNaN(k) {
		e.k = k
		return e, nil
	}
	fields := strings.Fields(bound)
	if len(fields) == 0 || !slices.Contains(References, fields[0]) {
		return Expectation{}, fmt.Errorf("expectation %q: the bound %q is not a number or one of %s (times, plus or minus a number)",
			s, bound, strings.Join(References, ", "))
	}
	e.ref = fields[0]
	switch len(fields) {
	case 1:
		return e, nil
	case 3:
		if len(fields[1]) == 1 && strings.Contains("*+-", fields[1]) {
			k, err := strconv.ParseFloat(fields[2], 64)
			if err == nil && !math.IsInf(k, 0) && !math.IsNaN(k) {
				e.op, e.k = fields[1][0], k
				return e, nil
			}
		}
	}
	return Expectation{}, fmt.Errorf("expectation %q: write the bound as %s, %s * 1.2, %s + 2 or %s - 2",
		s, e.ref, e.ref, e.ref, e.ref)
}

// ParseExpectations parses several; the error names every bad one.
func ParseExpectations(ss []string) ([]Expectation, error) {
	var out []Expectation
	var errs []string
	for _, s := range ss {
		e, err := ParseExpectation(s)
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		out = append(out, e)
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	return out, nil
}

// Judgement is an expectation judged on a group's latest run.
type Judgement struct {
	Group       string
	Expectation string
	// Bound is the bound the reference came to (nil when it could not be
	// computed: no earlier run measured the figure); Value the latest
	// run's figure (nil for null).
	Bound *float64
	Value any
	// Judged is false when there was nothing to judge against (a group of
	// one run, or no earlier run measured the figure); Reason says which.
	// drill history refuses such an expectation (Trend.Err).
	Judged bool
	Reason string
	Pass   bool
}

// Judge judges every expectation on each group's latest run against the
// runs before it.
func Judge(groups []Group, exps []Expectation) []Judgement {
	var out []Judgement
	for _, g := range groups {
		for _, e := range exps {
			out = append(out, e.judge(g))
		}
	}
	return out
}

func (e Expectation) judge(g Group) Judgement {
	j := Judgement{Group: g.Key, Expectation: e.Text}
	if len(g.Runs) == 0 {
		j.Reason = "no run"
		return j
	}
	latest := g.Runs[len(g.Runs)-1]
	bound, ok := e.bound(g, latest)
	check := e.check
	check.Value = bound
	_, j.Value = check.Holds(latest.Figures)
	if !ok {
		j.Reason = e.noHistory(g)
		return j
	}
	j.Bound, j.Judged = &bound, true
	j.Pass, _ = check.Holds(latest.Figures)
	return j
}

// noHistory says why the expectation's reference has no value on the
// group: a lone run, or no earlier run (or not the previous one) that
// measured the figure.
func (e Expectation) noHistory(g Group) string {
	if len(g.Runs) == 1 {
		return fmt.Sprintf("one run: %s needs an earlier run of the same drill", e.ref)
	}
	if e.ref == "previous" {
		return "the run before the latest did not measure the figure"
	}
	return fmt.Sprintf("none of the %d earlier runs measured the figure", len(g.Runs)-1)
}

// bound is the expectation's bound for the group's latest run.
func (e Expectation) bound(g Group, latest Run) (float64, bool) {
	if e.ref == "" {
		return e.k, true
	}
	earlier := g.Runs[:len(g.Runs)-1]
	var vs []float64
	for _, r := range earlier {
		check := e.check
		if _, v := check.Holds(r.Figures); v != nil {
			if n, ok := Number(v); ok {
				vs = append(vs, n)
			}
		}
	}
	if len(vs) == 0 {
		return 0, false
	}
	var ref float64
	switch e.ref {
	case "previous":
		if _, v := e.check.Holds(earlier[len(earlier)-1].Figures); v != nil {
			n, ok := Number(v)
			if !ok {
				return 0, false
			}
			ref = n
		} else {
			return 0, false
		}
	case "first":
		ref = vs[0]
	case "min":
		ref = slices.Min(vs)
	case "max":
		ref = slices.Max(vs)
	case "mean":
		for _, v := range vs {
			ref += v
		}
		ref /= float64(len(vs))
	case "median":
		sorted := slices.Sorted(slices.Values(vs))
		ref = scoring.Quantile(sorted, 0.5)
	}
	switch e.op {
	case '*':
		ref *= e.k
	case '+':
		ref += e.k
	case '-':
		ref -= e.k
	}
	return ref, true
}

// Failed returns the judgements that were judged and did not pass.
func Failed(js []Judgement) []Judgement {
	var out []Judgement
	for _, j := range js {
		if j.Judged && !j.Pass {
			out = append(out, j)
		}
	}
	return out
}
