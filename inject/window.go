package inject

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/edge"
)

// Rung names a window's Models may list.
const (
	ModelPrimary = "primary"
	ModelBackup  = "backup"
)

// Modifier keys: the placement of an event.Window, accepted by Set next
// to a fault's own parameters. next to a fault's own parameters.
const (
	KeyRate    = "rate"
	KeyRamp    = "ramp"
	KeyFlap    = "flap"     // ON/OFF, e.g. 2s/3s
	KeyFlapOn  = "flap.on"  // the on period alone
	KeyFlapOff = "flap.off" // the off period alone
	KeyModels  = "models"   // primary, backup, both, or a comma list
	// KeyReplicas is the fleet replicas a window breaks: a comma list of
	// replica numbers from 1, e.g. 3 or 1,4.
	KeyReplicas = "replicas"
)

// ModifierKeys lists the window modifier keys.
func ModifierKeys() []string {
	return []string{KeyRate, KeyRamp, KeyFlap, KeyFlapOn, KeyFlapOff, KeyModels, KeyReplicas}
}

// Keys lists every key Set accepts for kind: its parameters, then the
// modifiers.
func Keys(kind string) ([]string, error) {
	ps, err := KindParams(kind)
	if err != nil {
		return nil, err
	}
	var keys []string
	for _, p := range ps {
		keys = append(keys, p.Key)
	}
	return append(keys, ModifierKeys()...), nil
}

// ParseFault builds a window of kind from KEY=VALUE settings (the
// repeatable --fault flag). An unknown kind or key, or a bad value, is an
// error listing the valid ones. From and To are left for the caller.
func ParseFault(kind string, kv []string) (event.Window, error) {
	w := event.Window{FaultSpec: event.FaultSpec{Kind: kind}}
	if _, err := Lookup(kind); err != nil {
		return event.Window{}, err
	}
	for _, s := range kv {
		k, v, ok := strings.Cut(s, "=")
		if !ok {
			keys, _ := Keys(kind)
			return event.Window{}, fmt.Errorf("fault setting %q is not KEY=VALUE (keys for %s: %s)", s, kind, strings.Join(keys, ", "))
		}
		if err := Set(&w, strings.TrimSpace(k), strings.TrimSpace(v)); err != nil {
			return event.Window{}, err
		}
	}
	return w, nil
}

// Set sets one fault parameter or window modifier of w from its text.
// w.Kind must be set first. An unknown key is an error listing the valid
// keys; a bad value says what is expected.
func Set(w *event.Window, key, value string) error {
	keys, err := Keys(w.Kind)
	if err != nil {
		return err
	}
	if err := set(w, key, value, keys); err != nil {
		if errors.Is(err, errUnknownKey) {
			return err
		}
		return fmt.Errorf("%w (valid keys for %s: %s)", err, w.Kind, strings.Join(keys, ", "))
	}
	return nil
}

func set(w *event.Window, key, value string, keys []string) error {
	bad := func(want string) error {
		return fmt.Errorf("%s: bad value %q for %s: want %s", w.Kind, value, key, want)
	}
	switch key {
	case KeyRate:
		r, err := strconv.ParseFloat(value, 64)
		if err != nil || !(r > 0 && r <= 1) {
			return bad("a share of attempts above 0 and at most 1, e.g. 0.3")
		}
		w.Rate = r
	case KeyRamp:
		b, err := strconv.ParseBool(value)
		if err != nil {
			return bad("true or false")
		}
		w.Ramp = b
	case KeyFlap:
		on, off, ok := strings.Cut(value, "/")
		f, err1 := parsePeriod(on)
		g, err2 := parsePeriod(off)
		if !ok || err1 != nil || err2 != nil {
			return bad("ON/OFF periods, e.g. 2s/3s")
		}
		w.Flap = &event.Flap{On: f, Off: g}
	case KeyFlapOn, KeyFlapOff:
		d, err := parsePeriod(value)
		if err != nil {
			return bad("a duration above 0, e.g. 2s")
		}
		if w.Flap == nil {
			w.Flap = &event.Flap{}
		}
		if key == KeyFlapOn {
			w.Flap.On = d
		} else {
			w.Flap.Off = d
		}
	case KeyModels:
		ms, err := parseModels(value)
		if err != nil {
			return bad("primary, backup or both")
		}
		w.Models = ms
	case KeyReplicas:
		rs, err := parseReplicas(value)
		if err != nil {
			return bad("replica numbers from 1, comma-separated, e.g. 3 or 1,4")
		}
		w.Replicas = rs
	default:
		f, err := NewFault(w.FaultSpec)
		if err != nil {
			return err
		}
		canon, err := setParam(f, key, value)
		if errors.Is(err, errUnknownKey) {
			return fmt.Errorf("%w %q for %s (valid: %s)", errUnknownKey, key, w.Kind, strings.Join(keys, ", "))
		}
		if err != nil {
			return fmt.Errorf("%s: %w", w.Kind, err)
		}
		if v, ok := f.(validator); ok {
			if err := v.validate(); err != nil {
				return fmt.Errorf("%s: %w", w.Kind, err)
			}
		}
		if w.Params == nil {
			w.Params = map[string]string{}
		}
		w.Params[key] = canon
	}
	return nil
}

func parsePeriod(s string) (time.Duration, error) {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil || d <= 0 {
		return 0, errors.New("want a duration above 0")
	}
	return d, nil
}

func parseModels(s string) ([]string, error) {
	if s == "both" {
		return []string{ModelPrimary, ModelBackup}, nil
	}
	var ms []string
	for _, m := range strings.Split(s, ",") {
		m = strings.TrimSpace(m)
		if m != ModelPrimary && m != ModelBackup {
			return nil, fmt.Errorf("unknown model %q", m)
		}
		if !slices.Contains(ms, m) {
			ms = append(ms, m)
		}
	}
	return ms, nil
}

func parseReplicas(s string) ([]int, error) {
	var rs []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("bad replica %q", f)
		}
		if !slices.Contains(rs, n) {
			rs = append(rs, n)
		}
	}
	return rs, nil
}

// NewFault returns a fresh instance of the fault w names, with its
// parameters set: what a window applies.
func NewFault(w event.FaultSpec) (Fault, error) {
	f, err := Lookup(w.Kind)
	if err != nil {
		return nil, err
	}
	for _, k := range slices.Sorted(maps.Keys(w.Params)) {
		if _, err := setParam(f, k, w.Params[k]); err != nil {
			if errors.Is(err, errUnknownKey) {
				keys, _ := Keys(w.Kind)
				return nil, fmt.Errorf("unknown key %q for %s (valid: %s)", k, w.Kind, strings.Join(keys, ", "))
			}
			return nil, fmt.Errorf("%s: %w", w.Kind, err)
		}
	}
	if v, ok := f.(validator); ok {
		if err := v.validate(); err != nil {
			return nil, fmt.Errorf("%s: %w", w.Kind, err)
		}
	}
	return f, nil
}

// Validate checks a window: a known kind, valid parameters, and
// modifiers that make sense together.
func Validate(w event.Window) error {
	var errs []error
	if _, err := NewFault(w.FaultSpec); err != nil {
		errs = append(errs, err)
	}
	if w.From < 0 {
		errs = append(errs, fmt.Errorf("outage window %s: it must start at or after 0s, got %s", w.Kind, w.From))
	}
	if w.To >= 0 && w.To <= w.From {
		errs = append(errs, fmt.Errorf("outage window %s %s–%s: the end must come after the start", w.Kind, w.From, w.To))
	}
	for _, end := range []struct {
		name string
		d    time.Duration
	}{{"start", w.From}, {"end", w.To}} {
		if err := edge.Duration(end.d); err != nil {
			errs = append(errs, fmt.Errorf("outage window %s: its %s %w", w.Kind, end.name, err))
		}
	}
	if !(w.Rate >= 0 && w.Rate <= 1) {
		errs = append(errs, fmt.Errorf("outage window %s: rate must be above 0 and at most 1, got %v", w.Kind, w.Rate))
	}
	if w.Ramp && w.To < 0 {
		errs = append(errs, fmt.Errorf("outage window %s: a ramp needs a window with an end", w.Kind))
	}
	if w.Flap != nil && (w.Flap.On <= 0 || w.Flap.Off <= 0) {
		errs = append(errs, fmt.Errorf("outage window %s: flap needs on and off periods above 0, got on %s, off %s", w.Kind, w.Flap.On, w.Flap.Off))
	}
	for _, m := range w.Models {
		if m != ModelPrimary && m != ModelBackup {
			errs = append(errs, fmt.Errorf("outage window %s: unknown model %q (valid: primary, backup)", w.Kind, m))
		}
	}
	for _, r := range w.Replicas {
		if r < 1 {
			errs = append(errs, fmt.Errorf("outage window %s: replicas are numbered from 1, got %d", w.Kind, r))
		}
	}
	return errors.Join(errs...)
}

// LogParams are a window's fault parameters (defaults included) and the
// modifiers that differ from their defaults: what a fault event records.
func LogParams(w event.Window) map[string]string {
	out := map[string]string{}
	if f, err := NewFault(w.FaultSpec); err == nil {
		maps.Copy(out, paramValues(f))
	}
	if w.Rate != 0 && w.Rate != 1 {
		out[KeyRate] = strconv.FormatFloat(w.Rate, 'g', -1, 64)
	}
	if w.Ramp {
		out[KeyRamp] = "true"
	}
	if w.Flap != nil {
		out[KeyFlap] = w.Flap.On.String() + "/" + w.Flap.Off.String()
	}
	if len(w.Models) > 0 {
		out[KeyModels] = strings.Join(w.Models, ",")
	}
	if len(w.Replicas) > 0 {
		out[KeyReplicas] = joinInts(w.Replicas, ",")
	}
	return out
}

func joinInts(ns []int, sep string) string {
	ss := make([]string, len(ns))
	for k, n := range ns {
		ss[k] = strconv.Itoa(n)
	}
	return strings.Join(ss, sep)
}
