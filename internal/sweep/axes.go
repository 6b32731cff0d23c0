package sweep

import (
	"fmt"
	"slices"
	"strings"

	"github.com/drill-dev/drill/internal/redact"
)

// Axis names of a sweep besides the drill flags: the outage kinds and
// policy presets, and a --fault key's axis ("fault:retry_after").
const (
	AxisOutages  = "outages"
	AxisPolicies = "policies"
	FaultAxis    = "fault:"
)

// Defaults are the outages and policies a sweep runs when neither the
// flags nor the drill file say: both of the chapter's outages, and the
// breaker preset (the policy every time-limit, retry and breaker flag
// applies to).
var Defaults = map[string]string{AxisOutages: "busy,hang", AxisPolicies: "breaker"}

// KindOf is how the values of a flag of pflag type typ are read (which
// ranges mean): int, float64 and duration flags take ranges.
func KindOf(typ string) Kind {
	switch typ {
	case "int", "int64":
		return Int
	case "float64":
		return Float
	case "duration":
		return Duration
	}
	return String
}

// axisRank puts the outages first and the policies second, keeping the
// order of the others: rows read outage, policy, then the settings.
func axisRank(name string) int {
	switch name {
	case AxisOutages:
		return 0
	case AxisPolicies:
		return 1
	}
	return 2
}

// AddFaultAxes adds one axis per --fault key: KEY=V1,V2 sweeps V1 and V2.
func (g *Grid) AddFaultAxes(raw []string) error {
	for _, kv := range raw {
		key, vals, ok := strings.Cut(kv, "=")
		key = strings.TrimSpace(key)
		if !ok || key == "" {
			return fmt.Errorf("want KEY=VALUE or KEY=V1,V2, got %q", kv)
		}
		values, err := ParseValues(vals, String)
		if err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
		if err := g.Add(FaultAxis+key, values); err != nil {
			return err
		}
	}
	return nil
}

// Flags writes the setting as the flags of drill run: "--primary-timeout
// 1s --fault retry_after=20s --outage hang".
// Values are shown with their secrets redacted (a --base-url password or
// ?api-key=): Flags is for people and journals, never parsed back.
func (s Setting) Flags() string {
	parts := make([]string, 0, len(s))
	for _, a := range s {
		a.Value = redact.Text(a.Value)
		switch {
		case a.Name == AxisOutages:
			parts = append(parts, "--outage "+a.Value)
		case a.Name == AxisPolicies:
			parts = append(parts, "--policy "+a.Value)
		case strings.HasPrefix(a.Name, FaultAxis):
			parts = append(parts, "--fault "+strings.TrimPrefix(a.Name, FaultAxis)+"="+a.Value)
		default:
			parts = append(parts, "--"+a.Name+" "+a.Value)
		}
	}
	return strings.Join(parts, " ")
}

// FaultParams are the fault parameters the setting sets: "retry_after=20s".
func (s Setting) FaultParams() []string {
	var out []string
	for _, a := range s {
		if param, ok := strings.CutPrefix(a.Name, FaultAxis); ok {
			out = append(out, param+"="+a.Value)
		}
	}
	return out
}

// AxisHead is an axis's column head: "Outage", "Policy", "--fault
// retry_after", "--primary-timeout".
func AxisHead(name string) string {
	switch {
	case name == AxisOutages:
		return "Outage"
	case name == AxisPolicies:
		return "Policy"
	case strings.HasPrefix(name, FaultAxis):
		return "--fault " + strings.TrimPrefix(name, FaultAxis)
	}
	return "--" + name
}

// Varying are the axes whose value differs between settings, in axis
// order.
func Varying(settings []Setting) []string {
	var names []string
	vals := map[string]map[string]bool{}
	for _, s := range settings {
		for _, a := range s {
			if vals[a.Name] == nil {
				vals[a.Name] = map[string]bool{}
				names = append(names, a.Name)
			}
			vals[a.Name][a.Value] = true
		}
	}
	return slices.DeleteFunc(names, func(n string) bool { return len(vals[n]) < 2 })
}

// Labels name each setting by the axes whose values differ between them,
// as flags.
func Labels(settings []Setting) []string {
	vary := Varying(settings)
	out := make([]string, len(settings))
	for i, s := range settings {
		out[i] = slices.DeleteFunc(slices.Clone(s), func(a Assignment) bool { return !slices.Contains(vary, a.Name) }).Flags()
	}
	return out
}

// Fixed are the axes every one of settings shares, as flags ("" for no
// settings): the note under a sweep's table.
func Fixed(settings []Setting) string {
	if len(settings) == 0 {
		return ""
	}
	vary := Varying(settings)
	return slices.DeleteFunc(slices.Clone(settings[0]), func(a Assignment) bool { return slices.Contains(vary, a.Name) }).Flags()
}

// shown is the setting by axis name, each value with its secrets redacted
// (redact.Text), as a row prints it.
func (s Setting) shown() map[string]string {
	out := make(map[string]string, len(s))
	for _, a := range s {
		out[a.Name] = redact.Text(a.Value)
	}
	return out
}

// RawAxis is one swept flag as given: its name, every text given for it
// (comma lists and ranges not yet expanded), the flag's pflag type,
// whether it is a list flag, each occurrence one value (--trip), and
// where it was given, for messages ("" for the command line's --NAME; a
// drill file's "FILE:LINE: sweep.NAME").
type RawAxis struct {
	Name  string
	Type  string
	Raw   []string
	List  bool
	Where string
}

// BuildGrid reads the axes, in order, into a grid: --fault's KEY=V1,V2 into
// one axis per key, a list flag's occurrences as its values, any other
// flag's comma lists and ranges expanded by its type. With defaults (a
// sweep without a drill file), the outages and policies not given take
// Defaults, and they lead.
func BuildGrid(axes []RawAxis, defaults bool) (Grid, error) {
	if defaults {
		axes = slices.Clone(axes)
		for _, name := range []string{AxisPolicies, AxisOutages} {
			if !slices.ContainsFunc(axes, func(a RawAxis) bool { return a.Name == name }) {
				axes = append([]RawAxis{{Name: name, Type: "string", Raw: []string{Defaults[name]}}}, axes...)
			}
		}
		slices.SortStableFunc(axes, func(a, b RawAxis) int { return axisRank(a.Name) - axisRank(b.Name) })
	}
	var g Grid
	for _, a := range axes {
		var err error
		switch {
		case a.Name == "fault":
			err = g.AddFaultAxes(a.Raw)
		case a.List:
			err = g.Add(a.Name, a.Raw)
		default:
			var vals []string
			if vals, err = ParseValues(strings.Join(a.Raw, ","), KindOf(a.Type)); err == nil {
				err = g.Add(a.Name, vals)
			}
		}
		if err != nil {
			where := a.Where
			if where == "" {
				where = "--" + a.Name
			}
			return Grid{}, fmt.Errorf("%s: %w", where, err)
		}
	}
	return g, nil
}
