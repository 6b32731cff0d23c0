package drillfile

import (
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/inject"
	"github.com/drill-dev/drill/scoring"
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

// Checks returns the file's hypotheses and abort conditions, parsed.
func (f *File) Checks() (hypotheses, abort []scoring.Expr, err error) {
	if hypotheses, err = scoring.ParseExprs(f.Hypotheses); err != nil {
		return nil, nil, fmt.Errorf("%s: hypotheses: %w", f.Path, err)
	}
	if abort, err = scoring.ParseExprs(f.Abort); err != nil {
		return nil, nil, fmt.Errorf("%s: abort: %w", f.Path, err)
	}
	return hypotheses, abort, nil
}

// Run is one drill a file describes: an outage against a policy.
type Run struct {
	Outage Outage
	Policy Policy
	Config workload.Config
}

// Plan lists every run the file describes, every outage × every policy,
// outages first. An error wrapping ErrUnsupported names a setting the
// engine cannot play yet.
func (f *File) Plan() ([]Run, error) {
	var runs []Run
	for _, o := range f.Scenarios() {
		for _, p := range f.PolicyList() {
			cfg, err := f.Config(o, p)
			if err != nil {
				return nil, err
			}
			runs = append(runs, Run{Outage: o, Policy: p, Config: cfg})
		}
	}
	return runs, nil
}

// Config builds the engine's configuration for one outage and policy,
// with `drill run`'s defaults for everything the file leaves out.
func (f *File) Config(o Outage, p Policy) (workload.Config, error) {
	cfg := workload.DefaultConfig()
	w := f.Workload
	if w.EmailsFile != nil {
		path := *w.EmailsFile
		if !filepath.IsAbs(path) {
			path = filepath.Join(filepath.Dir(f.Path), path)
		}
		set, err := emails.Load(path)
		if err != nil {
			return workload.Config{}, fmt.Errorf("%s: workload.emails_file: %w", f.Path, err)
		}
		cfg.EmailSet, cfg.Emails = set, len(set)
		if w.Follow == nil && !slices.ContainsFunc(set, func(e emails.Email) bool { return e.ID == cfg.Follow }) {
			cfg.Follow = 0 // the set lacks the email followed by default
		}
	}
	if w.Emails != nil {
		cfg.Emails = int(*w.Emails)
	}
	if w.Rate != nil {
		cfg.Rate = *w.Rate
	}
	if w.Seed != nil {
		cfg.Seed = int64(*w.Seed)
	}
	if w.Follow != nil {
		cfg.Follow = int(*w.Follow)
	} else if cfg.EmailSet == nil && cfg.Follow > cfg.Emails {
		cfg.Follow = 0 // a short drill without Marcus follows no email unless asked
	}
	if w.MaxDuration != nil {
		cfg.MaxDuration = w.MaxDuration.D()
	}
	cfg.Stream = w.Stream
	pol, err := p.Build()
	if err != nil {
		return workload.Config{}, fmt.Errorf("%s: policy %s: %w", f.Path, p.PolicyName(), err)
	}
	cfg.Policy = pol
	if !pol.HasPrimary() {
		cfg.Target = event.ServedBackup // the only model there is to break
	}
	if m := f.Models.Primary.Model; m != "" {
		cfg.PrimaryModel = m
	}
	if m := f.Models.Backup.Model; m != "" {
		cfg.BackupModel = m
	}
	if err := f.applyEndpoints(&cfg); err != nil {
		return workload.Config{}, err
	}
	if err := f.applyPrices(&cfg); err != nil {
		return workload.Config{}, err
	}
	if err := f.applyOutage(&cfg, o); err != nil {
		return workload.Config{}, err
	}
	if err := cfg.Validate(); err != nil {
		return workload.Config{}, fmt.Errorf("%s: outage %s, policy %s:\n%w", f.Path, o.Name, p.PolicyName(), err)
	}
	return cfg, nil
}

func keyEnv(m Model) string {
	if m.APIKeyEnv != "" {
		return m.APIKeyEnv
	}
	return DefaultAPIKeyEnv
}

// applyOutage puts the outage's windows on the engine's configuration:
// the timeline (Outages), and the single window that names the drill (the
// first window's kind, over the span from the earliest start to the latest
// end: the outage period of the summary's figures).
func (f *File) applyOutage(cfg *workload.Config, o Outage) error {
	if len(o.Windows) == 0 {
		cfg.Outage = workload.OutageNone
		return nil
	}
	cfg.Outages = nil
	rungs := map[string]bool{}
	for i, w := range o.Windows {
		iw, err := InjectWindow(w)
		if err != nil {
			return fmt.Errorf("%s: outage %s: %w", f.Path, o.Name, err)
		}
		cfg.Outages = append(cfg.Outages, iw)
		if i == 0 || iw.From < cfg.OutageFrom {
			cfg.OutageFrom = iw.From
		}
		if i == 0 || iw.To > cfg.OutageTo {
			cfg.OutageTo = iw.To
		}
		for _, m := range w.Models {
			rungs[m] = true
		}
		if len(w.Models) == 0 {
			rungs[cfg.Target] = true
		}
	}
	cfg.Outage = o.Windows[0].Kind
	if len(rungs) == 1 {
		for r := range rungs {
			cfg.Target = r // the one rung whose model breaks
		}
	}
	return nil
}

// InjectWindow is the adapter from a drill-file window to the injector's
// window: the fault's parameters go through the fault catalogue's own
// parser (inject.Window.Set), so an unknown key or a bad value is the same
// error as on the command line.
func InjectWindow(w Window) (inject.Window, error) {
	iw, err := inject.ParseFault(w.Kind, nil)
	if err != nil {
		return inject.Window{}, err
	}
	for _, k := range slices.Sorted(maps.Keys(w.Params)) {
		if slices.Contains(inject.ModifierKeys(), k) {
			return inject.Window{}, fmt.Errorf("params.%s: %s is a window key, written beside kind, not in params", k, k)
		}
		if err := iw.Set(k, w.Params[k]); err != nil {
			return inject.Window{}, fmt.Errorf("params.%s: %w", k, err)
		}
	}
	iw.From, iw.To = w.From.D(), w.To.D()
	if w.Rate != nil {
		iw.Rate = *w.Rate
	}
	iw.Ramp = w.Ramp
	if w.Flap != nil {
		iw.Flap = &inject.Flap{On: w.Flap.On.D(), Off: w.Flap.Off.D()}
	}
	iw.Models = slices.Clone(w.Models)
	iw.Replicas = slices.Clone(w.Replicas)
	for _, kv := range w.Settings {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return inject.Window{}, fmt.Errorf("fault setting %q is not KEY=VALUE", kv)
		}
		if err := iw.Set(strings.TrimSpace(k), strings.TrimSpace(v)); err != nil {
			return inject.Window{}, err
		}
	}
	if err := iw.Validate(); err != nil {
		return inject.Window{}, err
	}
	return iw, nil
}

// FileWindow is InjectWindow's inverse: the drill-file window of an
// injector window (as replayed from a journal), in the outage name. Its
// parameters are the ones the window set, so InjectWindow gives the same
// window back.
func FileWindow(name string, iw inject.Window) Window {
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
