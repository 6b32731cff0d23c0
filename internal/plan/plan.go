// Package plan turns a drill file into the runs the engine plays: every
// outage × every policy as a workload.Config with `drill run`'s defaults for
// everything the file leaves out, the checks parsed, and the timeline
// `drill validate` prints. It also lays the command line's flags over a
// file (flags.go). internal/drillfile reads and checks files; this package
// is where a file meets the engine.
package plan

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/inject"
	"github.com/drill-dev/drill/internal/drillfile"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

// Run is one drill a file describes: an outage against a policy.
type Run struct {
	Outage drillfile.Outage
	Policy drillfile.Policy
	Config workload.Config
}

// Runs lists every run the file describes, every outage × every policy,
// outages first. An error wrapping drillfile.ErrUnsupported names a
// setting the engine cannot play yet.
func Runs(f *drillfile.File) ([]Run, error) {
	return runs(f, nil)
}

// runs is Runs with the command line's --fault KEY=VALUE settings, applied
// to every window after the file's own.
func runs(f *drillfile.File, faults []string) ([]Run, error) {
	if err := noChatKinds(f); err != nil {
		return nil, err
	}
	var runs []Run
	for _, o := range f.Scenarios() {
		for _, p := range f.PolicyList() {
			cfg, err := config(f, o, p, faults)
			if err != nil {
				return nil, err
			}
			runs = append(runs, Run{Outage: o, Policy: p, Config: cfg})
		}
	}
	return runs, nil
}

// Checks returns the file's hypotheses and abort conditions, parsed.
func Checks(f *drillfile.File) (hypotheses, abort []scoring.Expr, err error) {
	if hypotheses, err = scoring.ParseExprs(f.Hypotheses); err != nil {
		return nil, nil, fmt.Errorf("%s: hypotheses: %w", f.Path, err)
	}
	if abort, err = scoring.ParseExprs(f.Abort); err != nil {
		return nil, nil, fmt.Errorf("%s: abort: %w", f.Path, err)
	}
	return hypotheses, abort, nil
}

// Config builds the engine's configuration for one outage and policy of
// the file, with `drill run`'s defaults for everything the file leaves out.
func Config(f *drillfile.File, o drillfile.Outage, p drillfile.Policy) (workload.Config, error) {
	return config(f, o, p, nil)
}

// config is Config with the command line's --fault settings (runs).
func config(f *drillfile.File, o drillfile.Outage, p drillfile.Policy, faults []string) (workload.Config, error) {
	cfg := workload.DefaultConfig()
	cfg.DrillFile = f.Path
	w := f.Workload
	if w.EmailsFile != nil {
		path := *w.EmailsFile
		if !filepath.IsAbs(path) {
			path = filepath.Join(filepath.Dir(f.Path), path)
		}
		first := 0 // every email: the drill sends them all
		if w.Emails != nil && *w.Emails > 0 {
			first = int(*w.Emails) // emails: N sends the first N (cycling when the file has fewer)
		}
		set, err := emails.LoadFirst(path, first)
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
	if w.MaxInFlight != nil {
		cfg.MaxInFlight = int(*w.MaxInFlight)
	}
	cfg.Stream = w.Stream
	pol, err := p.Build()
	if err != nil {
		return workload.Config{}, fmt.Errorf("%s: policy %s: %w", f.Path, p.PolicyName(), err)
	}
	cfg.Policy = pol
	if cfg.Routes, err = f.RouteList(); err != nil {
		return workload.Config{}, fmt.Errorf("%s: %w", f.Path, err)
	}
	if !pol.HasPrimary() {
		cfg.Target = event.ServedBackup // the only model there is to break
	}
	if m := f.Models.Primary.Model; m != "" {
		cfg.PrimaryModel = m
	}
	if m := f.Models.Backup.Model; m != "" {
		cfg.BackupModel = m
	}
	if err := applyEndpoints(f, &cfg); err != nil {
		return workload.Config{}, err
	}
	if err := applyPrices(f, &cfg); err != nil {
		return workload.Config{}, err
	}
	if err := applyOutage(f, &cfg, o, faults); err != nil {
		return workload.Config{}, err
	}
	if err := cfg.Validate(); err != nil {
		return workload.Config{}, fmt.Errorf("%s: outage %s, policy %s:\n%w", f.Path, o.Name, p.PolicyName(), err)
	}
	return cfg, nil
}

// applyOutage puts the outage's windows on the engine's configuration:
// the timeline (Outages), and the single window that names the drill (the
// first window's kind, over the span from the earliest start to the latest
// end: the outage period of the summary's figures). faults are the
// command line's --fault settings, applied to every window.
func applyOutage(f *drillfile.File, cfg *workload.Config, o drillfile.Outage, faults []string) error {
	if len(o.Windows) == 0 {
		cfg.Outage = workload.OutageNone
		return nil
	}
	cfg.Outages = nil
	rungs := map[string]bool{}
	for i, w := range o.Windows {
		iw, err := injectorWindow(w, faults)
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
	if o.Name != cfg.Outage {
		cfg.OutageName = o.Name
	}
	if len(rungs) == 1 {
		for r := range rungs {
			cfg.Target = r // the one rung whose model breaks
		}
	}
	return nil
}

// applyEndpoints puts each rung's endpoint on the configuration: one
// Endpoint when both rungs share it, RungEndpoints when they differ (the
// primary and backup may be different providers).
func applyEndpoints(f *drillfile.File, cfg *workload.Config) error {
	var eps [2]workload.Endpoint
	for i, m := range []struct {
		rung string
		m    drillfile.Model
	}{{event.ServedPrimary, f.Models.Primary}, {event.ServedBackup, f.Models.Backup}} {
		ep, err := drillfile.ResolveEndpoint(m.rung, m.m.URL(), m.m.APIKeyEnv, m.m.APIKeyEnv != "")
		if err != nil {
			return fmt.Errorf("%s: models: %w", f.Path, err)
		}
		eps[i] = ep
	}
	if eps[0] == eps[1] {
		cfg.Endpoint = eps[0]
		return nil
	}
	cfg.RungEndpoints = map[string]workload.Endpoint{event.ServedPrimary: eps[0], event.ServedBackup: eps[1]}
	return nil
}

// applyPrices puts the file's price table and spend limit on the configuration.
func applyPrices(f *drillfile.File, cfg *workload.Config) error {
	t, err := f.PriceTable()
	if err != nil {
		return fmt.Errorf("%s: %w", f.Path, err)
	}
	if len(t) > 0 {
		cfg.Prices = t
	}
	if f.MaxSpend != nil {
		cfg.MaxSpend = *f.MaxSpend
	}
	return nil
}

// injectorWindow is a file's window as the injector applies it, with the
// command line's --fault KEY=VALUE settings (parameters and modifiers)
// applied after the file's own, through the fault catalogue's parser.
func injectorWindow(w drillfile.Window, faults []string) (event.Window, error) {
	iw, err := w.Injected()
	if err != nil || len(faults) == 0 {
		return iw, err
	}
	for _, kv := range faults {
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

// noChatKinds refuses a triage drill whose outages name a chat fault kind:
// they break tool-calling answers, and a triage call offers no tools.
func noChatKinds(f *drillfile.File) error {
	for _, w := range f.Outages {
		if slices.Contains(inject.ChatKinds(), w.Kind) {
			return exit.Usagef("%s: outage %q is the chat fault kind %s: it breaks tool-calling answers, which a triage drill never gets; "+
				"drill proxy applies it to a client's own traffic, and a chat drill plays it with --profile-fault", f.Path, w.OutageName(), w.Kind)
		}
	}
	return nil
}
