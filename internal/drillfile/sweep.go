package drillfile

import (
	"fmt"
	"strings"

	"github.com/goccy/go-yaml/ast"
)

// SweepAxis is one entry of a drill file's sweep section: a flag of
// `drill sweep` and the values it takes, written as on the command line
// (a comma list or a range such as 0..2) or as a YAML list.
type SweepAxis struct {
	// Flag is the flag's name without dashes: primary-timeout, outages, ...
	Flag string
	// Values is the comma list or range, as `drill sweep --FLAG` takes it.
	Values string
	// Line is where the entry is in the file, for messages.
	Line int
}

// Sweep is a drill file's sweep section, in the file's order: what
// `drill sweep -f FILE` crosses into its grid. Other commands ignore it.
//
//	sweep:
//	  primary-timeout: [1s, 2s, 3s, 5s]
//	  primary-retries: 0..2
//	  trip-failures: 3,5
type Sweep []SweepAxis

// UnmarshalYAML implements yaml.NodeUnmarshaler: a map of flag names to a
// scalar or a list of scalars.
func (s *Sweep) UnmarshalYAML(n ast.Node) error {
	if _, null := n.(*ast.NullNode); null {
		*s = nil
		return nil
	}
	mn, ok := n.(ast.MapNode)
	if !ok {
		return nodeErrorf(n, "sweep must be a map of flag: values (e.g. primary-timeout: 1s,2s), got a %s", nodeKind(n))
	}
	var out Sweep
	it := mn.MapRange()
	for it.Next() {
		key := fmt.Sprint(it.Key().GetToken().Value)
		for _, a := range out {
			if a.Flag == key {
				return nodeErrorf(it.Key(), "sweep.%s is given twice", key)
			}
		}
		var vals []string
		switch v := it.Value().(type) {
		case *ast.SequenceNode:
			for _, item := range v.Values {
				sc, ok := item.(ast.ScalarNode)
				if _, null := item.(*ast.NullNode); !ok || null {
					return nodeErrorf(item, "sweep.%s: each value must be a single value, got %s", key, describe(item))
				}
				vals = append(vals, fmt.Sprint(sc.GetValue()))
			}
		case ast.ScalarNode:
			if _, null := v.(*ast.NullNode); null {
				return nodeErrorf(it.Value(), "sweep.%s has no values", key)
			}
			vals = []string{fmt.Sprint(v.GetValue())}
		default:
			return nodeErrorf(it.Value(), "sweep.%s must be a value, a comma list, a range or a list, got a %s", key, nodeKind(it.Value()))
		}
		if len(vals) == 0 {
			return nodeErrorf(it.Value(), "sweep.%s has no values", key)
		}
		out = append(out, SweepAxis{Flag: key, Values: strings.Join(vals, ","), Line: it.Key().GetToken().Position.Line})
	}
	*s = out
	return nil
}
