package sweep

import (
	"errors"
	"fmt"
	"strings"

	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/redact"
)

// MaxRuns bounds the drills one sweep runs (its settings times --repeat,
// times the drill file's runs per setting): each is a configuration built
// up front and a result kept (10,000 settings take ~140 MB to plan), and a
// sweep bigger than this is almost surely a typo in a range.
const MaxRuns = 10_000

// MaxSettings bounds the size of a grid: no more settings than a sweep may
// run drills.
const MaxSettings = MaxRuns

// Axis is one swept flag and the values it takes, in the order given.
type Axis struct {
	Name   string   `json:"name"`
	Values []string `json:"values"`
}

// Assignment is one flag set to one value.
type Assignment struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Setting is one point of the grid: a value for every axis, in axis order.
type Setting []Assignment

// Value returns the value the setting gives name, and whether it has one.
func (s Setting) Value(name string) (string, bool) {
	for _, a := range s {
		if a.Name == name {
			return a.Value, true
		}
	}
	return "", false
}

// String is the setting as flags: "--primary-timeout 1s --primary-retries 0".
func (s Setting) String() string {
	parts := make([]string, len(s))
	for i, a := range s {
		parts[i] = "--" + a.Name + " " + a.Value
	}
	return strings.Join(parts, " ")
}

// Grid is the axes of a sweep; its settings are every combination.
type Grid struct {
	Axes []Axis `json:"axes"`
}

// Add appends an axis; a name already in the grid or an axis with no
// values is an error.
func (g *Grid) Add(name string, values []string) error {
	if len(values) == 0 {
		return fmt.Errorf("--%s has no values", name)
	}
	for _, a := range g.Axes {
		if a.Name == name {
			return fmt.Errorf("--%s is swept twice", name)
		}
	}
	g.Axes = append(g.Axes, Axis{Name: name, Values: values})
	return nil
}

// ErrTooBig is returned by Size and Settings for a grid of more than
// MaxSettings settings.
var ErrTooBig = errors.New("sweep grid too big")

// Size is the number of settings: the product of the axes' lengths (1 for
// a grid with no axes: the one setting of the defaults).
func (g Grid) Size() (int, error) {
	n := 1
	for _, a := range g.Axes {
		n *= len(a.Values)
		if n > MaxSettings {
			return 0, fmt.Errorf("%w: more than %d settings (%s); sweep fewer values of %s", ErrTooBig, MaxSettings, g.shape(), g.sweptFlags())
		}
	}
	return n, nil
}

// sweptFlags names the flags of drill sweep that give more than one value:
// "--primary-timeout, --fault retry_after".
func (g Grid) sweptFlags() string {
	var flags []string
	for _, a := range g.Axes {
		if len(a.Values) < 2 {
			continue
		}
		if key, ok := strings.CutPrefix(a.Name, FaultAxis); ok {
			flags = append(flags, "--fault "+key)
		} else {
			flags = append(flags, "--"+a.Name)
		}
	}
	return strings.Join(flags, ", ")
}

// shape is "4 × 3 × 2" for messages.
func (g Grid) shape() string {
	parts := make([]string, len(g.Axes))
	for i, a := range g.Axes {
		parts[i] = fmt.Sprintf("%d %s", len(a.Values), a.Name)
	}
	return strings.Join(parts, " × ")
}

// Shape describes the grid's size for people: "4 primary-timeout × 3
// primary-retries = 12 settings".
func (g Grid) Shape() string {
	n, err := g.Size()
	if err != nil {
		return err.Error()
	}
	if len(g.Axes) == 0 {
		return "1 setting (nothing swept)"
	}
	return fmt.Sprintf("%s = %s", g.shape(), format.Plural(n, "setting"))
}

// Settings lists every combination, the first axis changing slowest (as
// nested loops over the axes in order would).
func (g Grid) Settings() ([]Setting, error) {
	n, err := g.Size()
	if err != nil {
		return nil, err
	}
	out := make([]Setting, n)
	for i := range out {
		s := make(Setting, len(g.Axes))
		rest := i
		for k := len(g.Axes) - 1; k >= 0; k-- {
			a := g.Axes[k]
			s[k] = Assignment{Name: a.Name, Value: a.Values[rest%len(a.Values)]}
			rest /= len(a.Values)
		}
		out[i] = s
	}
	return out, nil
}

// shownAxes are the axes as printed: each value with its secrets redacted
// (redact.Text), so a --base-url password never reaches a table or JSON.
func (g Grid) shownAxes() []Axis {
	out := make([]Axis, len(g.Axes))
	for i, a := range g.Axes {
		out[i] = Axis{Name: a.Name, Values: make([]string, len(a.Values))}
		for k, v := range a.Values {
			out[i].Values[k] = redact.Text(v)
		}
	}
	return out
}

// Varying are the names of the axes with more than one value: the ones
// that tell settings apart.
func (g Grid) Varying() []string {
	var out []string
	for _, a := range g.Axes {
		if len(a.Values) > 1 {
			out = append(out, a.Name)
		}
	}
	return out
}
