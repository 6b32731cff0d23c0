// Package sweep is the grid of `drill sweep`: it expands comma lists and
// ranges into an axis of values per flag and crosses the axes into a grid
// of settings. Aggregating the settings' runs (medians, spreads, which
// settings are dominated) is the fold's: scoring.AggregateSweep.
//
// The package knows nothing about drills: values are strings as a user
// writes them on the command line. It is pure and deterministic, so every
// rule here is tested directly.
package sweep

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/drill-dev/drill/internal/edge"
)

// Kind is how an axis's values are read, which decides what a range means.
type Kind int

const (
	// String values are taken as written; ranges are not expanded.
	String Kind = iota
	// Int values are whole numbers; a..b counts up by 1, a..b..step by step.
	Int
	// Float values are decimals; a range needs a step: a..b..step.
	Float
	// Duration values are Go durations (1s, 250ms); a range needs a step:
	// 1s..5s..1s.
	Duration
)

// MaxValues bounds how many values one range may expand to.
const MaxValues = 1000

// ParseValues splits a flag's sweep value into the values of one axis:
// comma-separated items, each a single value or, for numbers and
// durations, a range a..b (integers only: step 1) or a..b..step
// (inclusive of b when the steps land on it). Items are trimmed; empty
// items, values the kind cannot read and a value given twice are errors.
func ParseValues(s string, kind Kind) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for item := range strings.SplitSeq(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			return nil, fmt.Errorf("empty value in %q", s)
		}
		vals, err := expand(item, kind)
		if err != nil {
			return nil, err
		}
		for _, v := range vals {
			if seen[v] {
				return nil, fmt.Errorf("value %s is given twice in %q", v, s)
			}
			seen[v] = true
			out = append(out, v)
		}
	}
	if len(out) > MaxValues {
		return nil, fmt.Errorf("%q expands to %d values, more than %d", s, len(out), MaxValues)
	}
	return out, nil
}

// expand reads one item: a single value or a range.
func expand(item string, kind Kind) ([]string, error) {
	parts := strings.Split(item, "..")
	if kind == String || len(parts) == 1 {
		if err := check(item, kind); err != nil {
			return nil, err
		}
		return []string{item}, nil
	}
	if len(parts) > 3 {
		return nil, fmt.Errorf("bad range %q: want from..to or from..to..step", item)
	}
	switch kind {
	case Int:
		return intRange(item, parts)
	case Float:
		return floatRange(item, parts)
	default:
		return durationRange(item, parts)
	}
}

// check makes sure a single value reads as kind.
func check(v string, kind Kind) error {
	var err error
	switch kind {
	case Int:
		_, err = strconv.ParseInt(v, 10, 64)
	case Float:
		var f float64
		if f, err = strconv.ParseFloat(v, 64); err == nil {
			err = edge.Finite(f)
		}
	case Duration:
		_, err = time.ParseDuration(v)
	}
	if err != nil {
		return fmt.Errorf("bad value %q: want %s", v, kindName(kind))
	}
	return nil
}

func kindName(k Kind) string {
	switch k {
	case Int:
		return "a whole number or a range such as 0..2"
	case Float:
		return "a number or a range such as 0.1..0.5..0.1"
	case Duration:
		return "a duration such as 2s, or a range such as 1s..5s..1s"
	}
	return "a value"
}

// count is how many values from..to by step holds, checking the bounds.
func count(item string, from, to, step float64) (int, error) {
	for _, v := range []float64{from, to, step} {
		if err := edge.Finite(v); err != nil {
			return 0, fmt.Errorf("bad range %q: %w", item, err)
		}
	}
	if step <= 0 {
		return 0, fmt.Errorf("bad range %q: the step must be positive", item)
	}
	if to < from {
		return 0, fmt.Errorf("bad range %q: it ends before it starts", item)
	}
	n := math.Floor((to-from)/step+1e-9) + 1
	if !(n <= MaxValues) { // also +Inf, when (to-from)/step overflows
		return 0, fmt.Errorf("range %q has more than %d values", item, MaxValues)
	}
	return int(n), nil
}

func intRange(item string, parts []string) ([]string, error) {
	nums := make([]int64, len(parts))
	for i, p := range parts {
		n, err := strconv.ParseInt(strings.TrimSpace(p), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("bad range %q: %q is not a whole number", item, p)
		}
		nums[i] = n
	}
	step := int64(1)
	if len(nums) == 3 {
		step = nums[2]
	}
	n, err := count(item, float64(nums[0]), float64(nums[1]), float64(step))
	if err != nil {
		return nil, err
	}
	out := make([]string, n)
	for i := range out {
		out[i] = strconv.FormatInt(nums[0]+int64(i)*step, 10)
	}
	return out, nil
}

func floatRange(item string, parts []string) ([]string, error) {
	if len(parts) != 3 {
		return nil, fmt.Errorf("bad range %q: a range of decimals needs a step, from..to..step", item)
	}
	nums := make([]float64, 3)
	for i, p := range parts {
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil {
			return nil, fmt.Errorf("bad range %q: %q is not a number", item, p)
		}
		nums[i] = f
	}
	n, err := count(item, nums[0], nums[1], nums[2])
	if err != nil {
		return nil, err
	}
	out := make([]string, n)
	for i := range out {
		// Round away the binary noise of repeated addition (0.30000000000000004).
		v := math.Round((nums[0]+float64(i)*nums[2])*1e9) / 1e9
		out[i] = strconv.FormatFloat(v, 'g', -1, 64)
	}
	return out, nil
}

func durationRange(item string, parts []string) ([]string, error) {
	if len(parts) != 3 {
		return nil, fmt.Errorf("bad range %q: a range of durations needs a step, from..to..step (e.g. 1s..5s..1s)", item)
	}
	ds := make([]time.Duration, 3)
	for i, p := range parts {
		d, err := time.ParseDuration(strings.TrimSpace(p))
		if err != nil {
			return nil, fmt.Errorf("bad range %q: %q is not a duration", item, p)
		}
		ds[i] = d
	}
	n, err := count(item, float64(ds[0]), float64(ds[1]), float64(ds[2]))
	if err != nil {
		return nil, err
	}
	out := make([]string, n)
	for i := range out {
		out[i] = (ds[0] + time.Duration(i)*ds[2]).String()
	}
	return out, nil
}
