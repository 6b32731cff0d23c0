package drillfile

import (
	"errors"
	"fmt"
	"maps"
	"net"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/drill-dev/drill/breaker"
	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/inject"
	"github.com/drill-dev/drill/internal/edge"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/sdkprofile"
	"github.com/drill-dev/drill/internal/suggest"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

// Rungs a window's models may name.
var Rungs = []string{event.ServedPrimary, event.ServedBackup}

var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// Check checks what decoding cannot: ranges, names, the checks' syntax,
// and settings that contradict each other. Every problem is reported, each
// as an *Error at its line and column.
func (f *File) Check() error {
	var errs []error
	errs = append(errs, f.checkWorkload()...)
	errs = append(errs, f.checkFleet()...)
	errs = append(errs, f.checkChat()...)
	errs = append(errs, f.checkModels()...)
	errs = append(errs, f.checkLimits()...)
	for i, win := range f.Outages {
		errs = append(errs, f.checkOutage(i, win)...)
	}
	errs = append(errs, f.checkPolicies()...)
	errs = append(errs, f.checkRoutes()...)
	errs = append(errs, f.checkRecommend()...)
	errs = append(errs, f.checkExprs()...)
	return errors.Join(errs...)
}

// checkWorkload checks the workload: section's ranges, and the predict:
// section's SDK.
func (f *File) checkWorkload() []error {
	var errs []error
	add := func(path, format string, a ...any) { errs = append(errs, f.at(path, format, a...)) }
	w := f.Workload
	if n := Int(workload.MaxEmails); w.Emails != nil && (*w.Emails < 1 || *w.Emails > n) {
		add("$.workload.emails", "emails must be between 1 and %d, got %d", n, *w.Emails)
	}
	switch {
	case w.Rate != nil && !(*w.Rate > 0):
		add("$.workload.rate", "rate must be above 0 emails per second, got %v", *w.Rate)
	case w.Rate != nil && *w.Rate < edge.MinRate:
		add("$.workload.rate", "rate must be at least %g emails per second, got %v", edge.MinRate, *w.Rate)
	case w.Rate != nil && *w.Rate > workload.MaxRate:
		add("$.workload.rate", "rate must be at most %d emails per second, got %v", workload.MaxRate, *w.Rate)
	case w.Rate != nil && w.Emails != nil && *w.Emails >= 1 && float64(*w.Emails) / *w.Rate > edge.MaxDuration.Seconds():
		add("$.workload.rate", "sending %d emails at %v a second takes longer than %s, the longest drill runs", *w.Emails, *w.Rate, edge.MaxDuration)
	}
	if w.Follow != nil && *w.Follow < 0 {
		add("$.workload.follow", "follow must be an email number, or 0 for none, got %d", *w.Follow)
	}
	if w.Follow != nil && w.Emails != nil && *w.Follow > *w.Emails {
		add("$.workload.follow", "follow %d is not among the %d emails sent", *w.Follow, *w.Emails)
	}
	if w.MaxDuration != nil && *w.MaxDuration < 0 {
		add("$.workload.max_duration", "max_duration must not be negative, got %s", *w.MaxDuration)
	}

	if w.Kind == event.WorkloadTriage && f.Chat != nil {
		add("$.workload", "workload: triage with a chat: section: a chat drill says workload: chat, or leaves workload out")
	}

	if sdk := f.Predict.SDK; sdk != "" {
		if _, err := sdkprofile.Lookup(sdk); err != nil {
			add("$.predict.sdk", "predict.sdk: %v", err)
		}
	}

	return errs
}

// checkModels checks each rung's model: a URL or the fake model's name,
// and the name of its API key's variable.
func (f *File) checkModels() []error {
	var errs []error
	add := func(path, format string, a ...any) { errs = append(errs, f.at(path, format, a...)) }
	for _, m := range []struct {
		rung string
		m    Model
	}{{"primary", f.Models.Primary}, {"backup", f.Models.Backup}} {
		path := "$.models." + m.rung
		if !m.m.IsFake() {
			u, err := url.Parse(m.m.URL())
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				add(path+".base_url", "base_url must be %q (the built-in fake model) or an http(s) URL, got %q", BaseURLFake, m.m.URL())
			}
		} else if m.m.Model != "" && !slices.Contains(fakemodel.Models(), m.m.Model) {
			add(path+".model", "the fake model serves no model %q (valid: %s)", m.m.Model, strings.Join(fakemodel.Models(), ", "))
		}
		if m.m.APIKeyEnv != "" && !envName.MatchString(m.m.APIKeyEnv) {
			add(path+".api_key_env", "api_key_env must name an environment variable, got %q", m.m.APIKeyEnv)
		}
	}

	return errs
}

// checkLimits checks the prices, the spend limit and the listen
// addresses.
func (f *File) checkLimits() []error {
	var errs []error
	add := func(path, format string, a ...any) { errs = append(errs, f.at(path, format, a...)) }
	if _, err := f.PriceTable(); err != nil {
		add("$.prices", "%v", err)
	}
	if f.MaxSpend != nil && !(*f.MaxSpend > 0) {
		add("$.max_spend", "max_spend must be above 0, got %v", *f.MaxSpend)
	}
	for _, l := range [...]struct{ key, addr string }{{"metrics_listen", f.MetricsListen}, {"alert_listen", f.AlertListen}} {
		if _, _, err := net.SplitHostPort(l.addr); l.addr != "" && err != nil {
			add("$."+l.key, "%s must be HOST:PORT (e.g. 127.0.0.1:9464), got %q", l.key, l.addr)
		}
	}

	return errs
}

// checkOutage checks outage window i: its kind and each parameter through
// the fault's own parser, its span, rate, flapping, rungs and name.
func (f *File) checkOutage(i int, win Window) []error {
	var errs []error
	add := func(path, format string, a ...any) { errs = append(errs, f.at(path, format, a...)) }
	path := fmt.Sprintf("$.outages[%d]", i)
	switch {
	case win.Kind == "":
		add(path, "outage %d has no kind (valid: %s)", i+1, strings.Join(outageKinds(), ", "))
	case !slices.Contains(outageKinds(), win.Kind):
		add(path+".kind", "unknown fault kind %q%s (valid: %s)", win.Kind, suggest.DidYouMean(win.Kind, "", outageKinds()),
			strings.Join(outageKinds(), ", "))
	default:
		// Each parameter through the fault's own parser, at its key.
		for _, k := range slices.Sorted(maps.Keys(win.Params)) {
			probe := Window{Window: event.Window{FaultSpec: event.FaultSpec{Kind: win.Kind, Params: map[string]string{k: win.Params[k]}}}}
			if _, err := probe.injected(); err != nil {
				add(path+".params."+k, "%v", err)
			}
		}
	}
	if win.From < 0 || win.To <= win.From {
		add(path+".to", "the window must start at or after 0s and end after it starts (from %s, to %s)", win.From, win.To)
	}
	if (win.rateGiven || win.Rate != 0) && !(win.Rate > 0 && win.Rate <= 1) {
		add(path+".rate", "rate is the share of attempts hit, above 0 and at most 1, got %v", win.Rate)
	}
	if win.Flap != nil && (win.Flap.On <= 0 || win.Flap.Off <= 0) {
		add(path+".flap", "flap needs on and off periods above 0 (got on %s, off %s)", win.Flap.On, win.Flap.Off)
	}
	if win.Models != nil && len(win.Models) == 0 {
		add(path+".models", "models is empty: list the rungs whose model breaks (%s), or leave models out for the default", strings.Join(Rungs, ", "))
	}
	for j, m := range win.Models {
		if !slices.Contains(Rungs, m) {
			add(fmt.Sprintf("%s.models[%d]", path, j), "unknown model rung %q%s (valid: %s)", m, suggest.DidYouMean(m, "", Rungs), strings.Join(Rungs, ", "))
		} else if slices.Index(win.Models, m) != j {
			add(fmt.Sprintf("%s.models[%d]", path, j), "model rung %q is listed twice", m)
		}
	}
	if win.Name != "" && strings.ContainsAny(win.Name, " \t/\\") {
		add(path+".name", "an outage name is one word (letters, digits, - and _), got %q", win.Name)
	}
	return errs
}

// checkPolicies checks each policy: its preset or its full form, its name
// (unique), and its overrides as Build applies them.
func (f *File) checkPolicies() []error {
	var errs []error
	names := map[string]bool{}
	for i, p := range f.Policies {
		errs = append(errs, f.checkPolicy(i, p, names)...)
	}
	return errs
}

// checkPolicy checks policy i; names holds the names of those before it.
func (f *File) checkPolicy(i int, p Policy, names map[string]bool) []error {
	var errs []error
	add := func(path, format string, a ...any) { errs = append(errs, f.at(path, format, a...)) }
	path := fmt.Sprintf("$.policies[%d]", i)
	if p.Preset != "" {
		if !slices.Contains(workload.PresetNames(), p.Preset) {
			add(path+".preset", "unknown policy preset %q%s (valid: %s)", p.Preset, suggest.DidYouMean(p.Preset, "", workload.PresetNames()),
				strings.Join(workload.PresetNames(), ", "))
			return errs
		}
		for _, x := range []struct {
			key string
			set bool
		}{{"backup", p.Backup != nil}, {"breaker", p.Breaker != nil}, {"canned", p.Canned != nil}} {
			if x.set {
				add(path+"."+x.key, "%s writes a policy out in full and cannot change preset %s; drop the preset or the key", x.key, p.Preset)
			}
		}
	} else {
		switch {
		case p.Name == "":
			add(path, "a policy needs a preset (%s), or a name when written out in full", strings.Join(workload.PresetNames(), ", "))
			return errs
		case slices.Contains(workload.PresetNames(), p.Name):
			add(path+".name", "policy %q written out in full must not take a preset's name; use preset: %s, or another name", p.Name, p.Name)
			return errs
		}
	}
	if p.Preset == "backup-only" && p.Name != "" && p.Name != p.Preset {
		add(path+".name", "preset backup-only keeps its name (the engine knows the policy without a primary by it)")
	}
	if names[p.PolicyName()] {
		add(path, "two policies are named %q; give one a name", p.PolicyName())
	}
	names[p.PolicyName()] = true
	if _, err := p.Build(); err != nil {
		var errList []error
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			errList = j.Unwrap()
		} else {
			errList = []error{err}
		}
		for _, e := range errList {
			var oe *OverrideError
			if errors.As(e, &oe) {
				add(path+"."+oe.Key, "%v", oe)
			} else {
				add(path, "%v", e)
			}
		}
	}
	return errs
}

// checkExprs checks the hypotheses' and abort conditions' syntax.
func (f *File) checkExprs() []error {
	var errs []error
	add := func(path, format string, a ...any) { errs = append(errs, f.at(path, format, a...)) }
	parse := scoring.ParseExpr
	if f.Chat != nil {
		parse = scoring.ParseChatExpr // a chat drill's checks name its figures
	}
	for i, h := range f.Hypotheses {
		if _, err := parse(h); err != nil {
			add(fmt.Sprintf("$.hypotheses[%d]", i), "hypothesis: %v", err)
		}
	}
	for i, h := range f.Abort {
		if f.Chat != nil {
			add(fmt.Sprintf("$.abort[%d]", i), "abort conditions are checked on triage drills only; a chat drill runs to its end (its hypotheses judge it)")
			break
		}
		if _, err := scoring.ParseExpr(h); err != nil {
			add(fmt.Sprintf("$.abort[%d]", i), "abort condition: %v", err)
		}
	}
	return errs
}

// Build returns the workload policy: the preset, or the policy written
// out in full, with the overrides applied.
func (p Policy) Build() (workload.Policy, error) {
	var wp workload.Policy
	if p.Preset != "" {
		var err error
		if wp, err = workload.Preset(p.Preset); err != nil {
			return workload.Policy{}, err
		}
	} else {
		// Written out in full: the primary-only preset's standard rung
		// (5 s limit, 2 retries), with what the policy adds.
		var err error
		if wp, err = workload.Preset("primary-only"); err != nil {
			return workload.Policy{}, err
		}
		if p.Backup != nil && *p.Backup {
			backup := wp.Primary
			wp.Backup = &backup
		}
		if p.Breaker != nil && *p.Breaker {
			wp.Primary.Breaker = &breaker.Settings{} // drill's default breaker: the zero value
		}
		wp.Canned = p.Canned != nil && *p.Canned
	}
	wp.Name = p.PolicyName()
	if err := p.Overrides.Apply(&wp); err != nil {
		return workload.Policy{}, err
	}
	return wp, nil
}

// outageKinds are the fault kinds an outage of a drill file may name: every
// kind, the chat workload's own included (drill proxy applies them to a
// client's tool-calling traffic; a triage drill refuses them, as its calls
// offer no tools).
func outageKinds() []string { return append(inject.Kinds(), inject.ChatKinds()...) }
