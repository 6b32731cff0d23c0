package drillfile

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/inject"
)

// Window is one outage window of the timeline: the one outage-window type,
// event.Window, under the name of the outage it belongs to. A file writes
// it as a map of these keys:
//
//	name      groups windows into one outage: windows with the same name
//	          are played together in one run; `drill compare` runs every
//	          policy against every named outage (default: the fault kind)
//	kind      the fault: busy, hang, rate-limit, slow, trickle, stall,
//	          reset or malformed
//	from, to  offsets from the drill's start: attempts that start in
//	          [from, to) meet the fault
//	rate      the share of attempts hit, above 0 and at most 1 (default 1:
//	          all)
//	ramp      the rate grows linearly from 0 to rate across the window
//	flap      {on: D, off: D}: the fault is on for on, then off for off,
//	          from the window's start
//	models    the rungs whose model breaks: primary, backup or both
//	          (default: primary, or backup for a policy without a primary)
//	replicas  the fleet replicas (from 1) whose path to the model breaks
//	          (default: every replica); only drill fleet has replicas
//	params    the fault's own parameters (status, retry_after,
//	          tokens_per_s, ...), checked by the fault catalogue
//
// Params hold the values as written; Injected puts them through the fault
// catalogue's parser. ByHand and Index are not file keys.
type Window struct {
	Name string
	event.Window

	// rateGiven records that the file wrote rate: event.Window's zero Rate
	// means every attempt, so a written 0 is remembered to be refused.
	rateGiven bool
}

// OutageName is the name of the outage the window belongs to.
func (w Window) OutageName() string {
	if w.Name != "" {
		return w.Name
	}
	return w.Kind
}

// Injected is the window as the injector applies it: the fault kind's
// defaults with each of the window's parameters set through the fault
// catalogue's own parser (inject.Set), so an unknown key or a bad value
// is the same error as on the command line, and the window checked
// (inject.Validate).
func (w Window) Injected() (event.Window, error) {
	iw, err := w.injected()
	if err != nil {
		return event.Window{}, err
	}
	if err := inject.Validate(iw); err != nil {
		return event.Window{}, err
	}
	return iw, nil
}

// injected is Injected without the final check, for checking one
// parameter at a time.
func (w Window) injected() (event.Window, error) {
	iw := w.Window.Clone()
	spec, err := inject.ParseFault(w.Kind, nil)
	if err != nil {
		return event.Window{}, err
	}
	iw.FaultSpec = spec.FaultSpec
	for _, k := range slices.Sorted(maps.Keys(w.Params)) {
		if slices.Contains(inject.ModifierKeys(), k) {
			return event.Window{}, fmt.Errorf("params.%s: %s is a window key, written beside kind, not in params", k, k)
		}
		if err := inject.Set(&iw, k, w.Params[k]); err != nil {
			return event.Window{}, fmt.Errorf("params.%s: %w", k, err)
		}
	}
	return iw, nil
}

// UnmarshalYAML implements yaml.NodeUnmarshaler: the window's keys one by
// one, each value strictly, an unknown key an error at its line and column.
func (w *Window) UnmarshalYAML(n ast.Node) error {
	*w = Window{}
	return decodeMap(n, func(key string, v ast.Node) (bool, error) {
		switch key {
		case "name":
			return true, decodeValue(v, &w.Name)
		case "kind":
			return true, decodeValue(v, &w.Kind)
		case "from":
			return true, decodeDuration(v, &w.From)
		case "to":
			return true, decodeDuration(v, &w.To)
		case "rate":
			if _, null := v.(*ast.NullNode); null {
				w.Rate, w.rateGiven = 0, false
				return true, nil
			}
			w.rateGiven = true
			return true, decodeValue(v, &w.Rate)
		case "ramp":
			return true, decodeValue(v, &w.Ramp)
		case "flap":
			if _, null := v.(*ast.NullNode); null {
				w.Flap = nil
				return true, nil
			}
			w.Flap = &event.Flap{}
			return true, decodeFlap(v, w.Flap)
		case "models":
			return true, decodeValue(v, &w.Models)
		case "replicas":
			return true, decodeValue(v, &w.Replicas)
		case "params":
			var p Params
			if err := p.UnmarshalYAML(v); err != nil {
				return true, err
			}
			w.Params = p
			return true, nil
		}
		return false, nil
	})
}

// decodeFlap reads a flap's on and off periods.
func decodeFlap(n ast.Node, f *event.Flap) error {
	return decodeMap(n, func(key string, v ast.Node) (bool, error) {
		switch key {
		case "on":
			return true, decodeDuration(v, &f.On)
		case "off":
			return true, decodeDuration(v, &f.Off)
		}
		return false, nil
	})
}

// decodeMap calls field for each key of the map n, in the file's order;
// field reports whether it knows the key. A key it does not know is the
// strict decoder's "unknown field" at the key; a node that is no map is
// the YAML library's own error, as for every other map of the file; null
// is an empty map.
func decodeMap(n ast.Node, field func(key string, v ast.Node) (bool, error)) error {
	if _, null := n.(*ast.NullNode); null {
		return nil
	}
	mn, ok := n.(ast.MapNode)
	if !ok {
		var none struct{}
		if err := yaml.NodeToValue(n, &none, yaml.Strict()); err != nil {
			return err
		}
		return nodeErrorf(n, "want a map of key: value, got %s", describe(n))
	}
	it := mn.MapRange()
	for it.Next() {
		key := fmt.Sprint(it.Key().GetToken().Value)
		known, err := field(key, it.Value())
		if err != nil {
			return err
		}
		if !known {
			return nodeErrorf(it.Key(), "unknown field %q", key)
		}
	}
	return nil
}

// decodeValue decodes one value strictly into dst.
func decodeValue(v ast.Node, dst any) error {
	return yaml.NodeToValue(v, dst, yaml.Strict())
}

// decodeDuration decodes a Duration (15s) into a time.Duration.
func decodeDuration(v ast.Node, dst *time.Duration) error {
	var d Duration
	if err := d.UnmarshalYAML(v); err != nil {
		return err
	}
	*dst = d.D()
	return nil
}
