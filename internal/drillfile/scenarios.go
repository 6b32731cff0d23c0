package drillfile

import (
	"errors"

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
