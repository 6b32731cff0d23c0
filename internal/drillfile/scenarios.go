package drillfile

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/inject"
	"github.com/drill-dev/drill/workload"
)

// ErrUnsupported marks a drill-file setting this build's engine cannot play
// yet. The file is valid; `drill run` exits 2 saying which setting.
var ErrUnsupported = errors.New("not supported by this build's engine yet")

// DefaultAPIKeyEnv is the environment variable the API key is read from
// when a model gives no api_key_env.
const DefaultAPIKeyEnv = "OPENAI_API_KEY"

// Outage is one named outage: the windows played together in one run.
type Outage struct {
	Name    string
	Windows []Window
}

// Scenarios groups the timeline's windows into outages by name, in the
// order each name first appears. A file without windows has one outage,
// "none", with no windows.
func (f *File) Scenarios() []Outage {
	if len(f.Outages) == 0 {
		return []Outage{{Name: workload.OutageNone}}
	}
	var out []Outage
	index := map[string]int{}
	for _, w := range f.Outages {
		n := w.OutageName()
		i, ok := index[n]
		if !ok {
			i = len(out)
			index[n] = i
			out = append(out, Outage{Name: n})
		}
		out[i].Windows = append(out[i].Windows, w)
	}
	return out
}

// PolicyList is the file's policies, or the default preset (breaker) when
// it lists none.
func (f *File) PolicyList() []Policy {
	if len(f.Policies) == 0 {
		return []Policy{{Preset: workload.DefaultConfig().Policy.Name}}
	}
	return f.Policies
}

// InjectWindow is the adapter from a drill-file window to the injector's
// window: the fault's parameters go through the fault catalogue's own
// parser (event.Window.Set), so an unknown key or a bad value is the same
// error as on the command line.
func InjectWindow(w Window) (event.Window, error) {
	iw, err := inject.ParseFault(w.Kind, nil)
	if err != nil {
		return event.Window{}, err
	}
	for _, k := range slices.Sorted(maps.Keys(w.Params)) {
		if slices.Contains(inject.ModifierKeys(), k) {
			return event.Window{}, fmt.Errorf("params.%s: %s is a window key, written beside kind, not in params", k, k)
		}
		if err := inject.Set(&iw, k, w.Params[k]); err != nil {
			return event.Window{}, fmt.Errorf("params.%s: %w", k, err)
		}
	}
	iw.From, iw.To = w.From.D(), w.To.D()
	if w.Rate != nil {
		iw.Rate = *w.Rate
	}
	iw.Ramp = w.Ramp
	if w.Flap != nil {
		iw.Flap = &event.Flap{On: w.Flap.On.D(), Off: w.Flap.Off.D()}
	}
	iw.Models = slices.Clone(w.Models)
	iw.Replicas = slices.Clone(w.Replicas)
	for _, kv := range w.Settings {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return event.Window{}, fmt.Errorf("fault setting %q is not KEY=VALUE", kv)
		}
		if err := inject.Set(&iw, strings.TrimSpace(k), strings.TrimSpace(v)); err != nil {
			return event.Window{}, err
		}
	}
	if err := inject.Validate(iw); err != nil {
		return event.Window{}, err
	}
	return iw, nil
}

// FileWindow is InjectWindow's inverse: the drill-file window of an
// injector window (as replayed from a journal), in the outage name. Its
// parameters are the ones the window set, so InjectWindow gives the same
// window back.
func FileWindow(name string, iw event.Window) Window {
	w := Window{Name: name, Kind: iw.Kind, From: Duration(iw.From), To: Duration(iw.To), Ramp: iw.Ramp,
		Models: slices.Clone(iw.Models)}
	if iw.Rate != 0 {
		r := iw.Rate
		w.Rate = &r
	}
	if iw.Flap != nil {
		w.Flap = &Flap{On: Duration(iw.Flap.On), Off: Duration(iw.Flap.Off)}
	}
	if len(iw.Params) > 0 {
		w.Params = maps.Clone(Params(iw.Params))
	}
	return w
}
