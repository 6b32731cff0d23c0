package plan

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/inject"
	"github.com/drill-dev/drill/internal/drillfile"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/redact"
	"github.com/drill-dev/drill/internal/suggest"
	"github.com/drill-dev/drill/workload"
)

// Flags are a drill's settings as `drill run` and `drill compare` take them
// on the command line. cmd/drill binds each field to its flag (the names
// are in the comments); the flag set says which ones the user gave. The
// policy overrides are flags too, read through FlagOverrides.
type Flags struct {
	Emails      int           // --emails
	EmailsFile  string        // --emails-file
	Rate        float64       // --rate
	OutageFrom  time.Duration // --outage-from
	OutageTo    time.Duration // --outage-to
	Seed        int64         // --seed
	Follow      int           // --follow
	MaxDuration time.Duration // --max-duration
	MaxInFlight int           // --max-in-flight

	BaseURL      string // --base-url
	PrimaryModel string // --primary-model
	BackupModel  string // --backup-model

	Faults []string // --fault KEY=VALUE, repeatable
	Stream bool     // --stream
	Routes []string // --route CLASS=POLICY, repeatable (routes.go)
}

// FromFlags builds the engine's configuration for one outage kind and
// policy preset from the flags alone: the preset with the policy flags
// given, the workload, the endpoint of --base-url and the --fault window.
// note is told what the user should know (a follow that no email reaches).
// The caller adds what is its own (an emails file, per-rung endpoints, an
// outage replayed from a journal) and validates the result. Errors are
// usage errors (exit 2).
func FromFlags(fl Flags, fs *pflag.FlagSet, outage, policy string, note func(string)) (workload.Config, error) {
	if !slices.Contains(workload.OutageKinds(), outage) {
		return workload.Config{}, exit.Usagef("unknown outage %q (valid: %s)%s", outage, strings.Join(workload.OutageKinds(), ", "),
			suggest.DidYouMean(outage, "", workload.OutageKinds()))
	}
	p, err := workload.Preset(policy)
	if err != nil {
		return workload.Config{}, exit.UsageError(err)
	}
	if err := FlagOverrides(fs).ApplyFlags(&p); err != nil {
		return workload.Config{}, exit.UsageError(err)
	}
	cfg := workload.DefaultConfig()
	cfg.Emails, cfg.Rate = fl.Emails, fl.Rate
	cfg.Outage, cfg.OutageFrom, cfg.OutageTo = outage, fl.OutageFrom, fl.OutageTo
	cfg.Policy = p
	if !p.HasPrimary() {
		cfg.Target = event.ServedBackup // the only model there is to break
	}
	cfg.PrimaryModel, cfg.BackupModel = fl.PrimaryModel, fl.BackupModel
	cfg.Seed, cfg.Follow, cfg.MaxDuration = fl.Seed, fl.Follow, fl.MaxDuration
	cfg.MaxInFlight = fl.MaxInFlight
	if !fs.Changed("follow") && cfg.Follow > cfg.Emails {
		// A short drill without Marcus follows no email unless asked.
		note(fmt.Sprintf("--emails %d does not reach email %d, the one followed by default: no email is followed (set --follow 1..%d to follow one)",
			cfg.Emails, cfg.Follow, cfg.Emails))
		cfg.Follow = 0
	}
	if fl.BaseURL != "" {
		u, err := url.Parse(fl.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return workload.Config{}, exit.Usagef("--base-url %q is not an http(s) URL", redact.Text(fl.BaseURL))
		}
		// A key of only spaces is no key: the https check must catch it.
		key := strings.TrimSpace(os.Getenv(drillfile.DefaultAPIKeyEnv))
		if u.Scheme == "https" && key == "" {
			return workload.Config{}, exit.Usagef("--base-url %s is an https endpoint and OPENAI_API_KEY is not set (or blank): nothing was sent", redact.URL(fl.BaseURL))
		}
		cfg.Endpoint = workload.Endpoint{BaseURL: fl.BaseURL, APIKey: key}
	}
	cfg.Stream = fl.Stream
	if cfg.Routes, err = routesFromFlags(fl.Routes, fs); err != nil {
		return workload.Config{}, err
	}
	if len(fl.Faults) == 0 {
		return cfg, nil
	}
	if cfg.Outage == workload.OutageNone {
		return workload.Config{}, exit.Usagef("--fault sets the outage's parameters, and --outage is none")
	}
	w, err := inject.ParseFault(cfg.Outage, fl.Faults)
	if err != nil {
		return workload.Config{}, exit.Usagef("--fault: %v", err)
	}
	w.From, w.To = cfg.OutageFrom, cfg.OutageTo
	cfg.Outages = []event.Window{w}
	return cfg, nil
}

// defaultWindow places the outage of a drill whose window the flags do
// not give by its sending (workload.DefaultWindow), once the emails sent
// are known; note says so when that is not the chapter's 15 s to 40 s.
// With one end given, the other is the default window's when that keeps
// the window the right way round (else the chapter's), so a short drill
// given only --outage-from still gets an outage that ends in its sending.
func defaultWindow(cfg *workload.Config, fs *pflag.FlagSet, note func(string)) {
	fromSet, toSet := fs.Changed("outage-from"), fs.Changed("outage-to")
	if (fromSet && toSet) || cfg.Outage == workload.OutageNone {
		return
	}
	from, to := workload.DefaultWindow(cfg.Emails, cfg.Rate)
	where := "a quarter to two thirds of the way through the sending (--outage-from and --outage-to choose it)"
	switch {
	case fromSet:
		if to <= cfg.OutageFrom {
			return
		}
		from = cfg.OutageFrom
		where = "ending two thirds of the way through the sending (--outage-to chooses the end)"
	case toSet:
		if from >= cfg.OutageTo {
			return
		}
		to = cfg.OutageTo
		where = "starting a quarter of the way through the sending (--outage-from chooses the start)"
	}
	if from == cfg.OutageFrom && to == cfg.OutageTo {
		return
	}
	cfg.OutageFrom, cfg.OutageTo = from, to
	for i := range cfg.Outages { // the --fault window
		cfg.Outages[i].From, cfg.Outages[i].To = from, to
	}
	take := "take"
	if cfg.Emails == 1 {
		take = "takes"
	}
	note(fmt.Sprintf("%s sent at %v a second %s %s: the outage runs %s–%s, %s",
		format.Plural(cfg.Emails, "email"), cfg.Rate, take, format.GoDuration(workload.Sending(cfg.Emails, cfg.Rate)),
		format.GoDuration(from), format.GoDuration(to), where))
}

// fileSending is how many emails a drill file sends and how fast, as far
// as its workload says (the chapter's 120 at 2 a second where it does not;
// an emails file counts as 120), for the window of an outage kind the
// command line names and the file lacks.
func fileSending(df *drillfile.File) (emails int, rate float64) {
	d := workload.DefaultConfig()
	emails, rate = d.Emails, d.Rate
	if df.Workload.Emails != nil {
		emails = int(*df.Workload.Emails)
	}
	if df.Workload.Rate != nil {
		rate = *df.Workload.Rate
	}
	return emails, rate
}

// Selection is which of a drill file's outages and policies the command
// line picks: the values of the outage and policy flags (--outage and
// --policy for run, --outages and --policies for compare), used only when
// the flag was given.
type Selection struct {
	Outages, Policies         []string
	OutagesFlag, PoliciesFlag string
	// Verb says what the command does with the one drill it takes from a
	// file that describes several, for the note: "running" (the default)
	// or "predicting".
	Verb string
}

// Layered lays the flags the user gave over a drill file (a flag replaces
// the file's value), checks the result strictly and returns the runs it
// describes. An outage the selection names that the file does not have is
// a fault kind, played from --outage-from to --outage-to ("none": no
// outage); a policy it does not have is a preset. Errors are usage errors
// (exit 2).
func Layered(df *drillfile.File, fl Flags, fs *pflag.FlagSet, sel Selection) ([]Run, error) {
	layerWorkload(df, fl, fs)
	if fs.Changed(sel.OutagesFlag) {
		var err error
		if df.Outages, err = selectOutages(df, fl, fs, sel.Outages); err != nil {
			return nil, err
		}
	}
	if len(fl.Faults) > 0 && len(df.Outages) == 0 {
		return nil, exit.Usagef("--fault sets the outage's parameters, and %s plays no outage", df.Path)
	}
	if fs.Changed(sel.PoliciesFlag) {
		df.Policies = selectPolicies(df, sel.Policies)
	}
	o := FlagOverrides(fs)
	pols := df.PolicyList()
	for i := range pols {
		pols[i].Overrides = pols[i].Overrides.Merge(o)
	}
	df.Policies = pols
	if err := layerRoutes(df, fl.Routes, o); err != nil {
		return nil, exit.UsageError(err)
	}
	if err := df.Check(); err != nil {
		return nil, exit.UsageError(fmt.Errorf("with the flags given:\n%w", err))
	}
	rs, err := runs(df, fl.Faults)
	if err != nil {
		return nil, exit.UsageError(err)
	}
	return rs, nil
}

// Configs are the runs' configurations, in order.
func Configs(runs []Run) []workload.Config {
	cfgs := make([]workload.Config, len(runs))
	for i, r := range runs {
		cfgs[i] = r.Config
	}
	return cfgs
}

// layerWorkload applies the workload and model flags that were given.
func layerWorkload(df *drillfile.File, fl Flags, fs *pflag.FlagSet) {
	w := &df.Workload
	if fs.Changed("emails") {
		w.Emails = drillfile.IntOf(fl.Emails)
	}
	if fs.Changed("emails-file") {
		path, err := filepath.Abs(fl.EmailsFile) // the flag is relative to here, not to the drill file
		if err != nil {
			path = fl.EmailsFile
		}
		w.EmailsFile = &path
	}
	if fs.Changed("rate") {
		w.Rate = &fl.Rate
	}
	if fs.Changed("seed") {
		w.Seed = drillfile.IntOf(fl.Seed)
	}
	if fs.Changed("follow") {
		w.Follow = drillfile.IntOf(fl.Follow)
	}
	if fs.Changed("max-duration") {
		d := drillfile.Duration(fl.MaxDuration)
		w.MaxDuration = &d
	}
	if fs.Changed("max-in-flight") {
		w.MaxInFlight = drillfile.IntOf(fl.MaxInFlight)
	}
	if fs.Changed("primary-model") {
		df.Models.Primary.Model = fl.PrimaryModel
	}
	if fs.Changed("backup-model") {
		df.Models.Backup.Model = fl.BackupModel
	}
	if fs.Changed("base-url") {
		df.Models.Primary.BaseURL, df.Models.Backup.BaseURL = fl.BaseURL, fl.BaseURL
		df.Models.Primary.APIKeyEnv, df.Models.Backup.APIKeyEnv = "", ""
	}
	if fs.Changed("stream") {
		w.Stream = fl.Stream
	}
	for i := range df.Outages {
		if fs.Changed("outage-from") {
			df.Outages[i].From = fl.OutageFrom
		}
		if fs.Changed("outage-to") {
			df.Outages[i].To = fl.OutageTo
		}
	}
}

// selectOutages keeps the file's outages named; a name the file does not
// have is a fault kind, played from --outage-from to --outage-to ("none":
// no outage).
func selectOutages(df *drillfile.File, fl Flags, fs *pflag.FlagSet, names []string) ([]drillfile.Window, error) {
	var out []drillfile.Window
	for _, n := range names {
		n = strings.TrimSpace(n)
		found := false
		for _, w := range df.Outages {
			if w.OutageName() == n {
				out, found = append(out, w), true
			}
		}
		if found || n == workload.OutageNone {
			continue
		}
		if !slices.Contains(inject.Kinds(), n) {
			var have []string
			for _, o := range df.Scenarios() {
				have = append(have, o.Name)
			}
			return nil, exit.Usagef("%s has no outage %q (it has: %s) and %q is no fault kind (valid: %s)",
				df.Path, n, strings.Join(have, ", "), n, strings.Join(inject.Kinds(), ", "))
		}
		from, to := workload.DefaultWindow(fileSending(df))
		if fs.Changed("outage-from") {
			from = fl.OutageFrom
		}
		if fs.Changed("outage-to") {
			to = fl.OutageTo
		}
		out = append(out, drillfile.Window{Window: event.Window{FaultSpec: event.FaultSpec{Kind: n}, From: from, To: to}})
	}
	return out, nil
}

// selectPolicies keeps the file's policies named; a name the file does not
// have is a preset.
func selectPolicies(df *drillfile.File, names []string) []drillfile.Policy {
	var out []drillfile.Policy
	for _, n := range names {
		n = strings.TrimSpace(n)
		i := slices.IndexFunc(df.PolicyList(), func(p drillfile.Policy) bool { return p.PolicyName() == n })
		if i >= 0 {
			out = append(out, df.PolicyList()[i])
		} else {
			out = append(out, drillfile.Policy{Preset: n})
		}
	}
	return out
}

// FlagOverrides are the policy overrides given as flags: for every
// drill-file override key (drillfile.OverrideKeys), its flag
// (drillfile.FlagName) when the user set it. Flags and files alike are
// then applied with drillfile.Overrides, the one place policy overrides
// are checked and set.
func FlagOverrides(fs *pflag.FlagSet) drillfile.Overrides {
	var o drillfile.Overrides
	for _, key := range drillfile.OverrideKeys() {
		name := drillfile.FlagName(key)
		if !fs.Changed(name) {
			continue
		}
		if err := setFromFlag(fs, name, o.Field(key)); err != nil {
			// A flag of another type than its override: a build error
			// TestEveryOverrideIsAFlag catches.
			panic(fmt.Sprintf("flag --%s: %v", name, err))
		}
	}
	return o
}

// setFromFlag sets dst, a drill-file setting's field (a **T for an
// optional setting, *drillfile.Rules for trip), to flag name's value: the
// one reading of policy flags into the drill file's types, for the triage
// overrides and the chat policy alike. An error is a flag whose type is
// not the field's.
func setFromFlag(fs *pflag.FlagSet, name string, dst any) error {
	var err error
	switch dst := dst.(type) {
	case **drillfile.Duration:
		var d time.Duration
		d, err = fs.GetDuration(name)
		*dst = ptr(drillfile.Duration(d))
	case **drillfile.Int:
		var n int
		n, err = fs.GetInt(name)
		*dst = drillfile.IntOf(n)
	case **float64:
		var v float64
		v, err = fs.GetFloat64(name)
		*dst = &v
	case **bool:
		var v bool
		v, err = fs.GetBool(name)
		*dst = &v
	case **string:
		var v string
		v, err = fs.GetString(name)
		*dst = &v
	case **drillfile.Word:
		var v string
		v, err = fs.GetString(name)
		*dst = ptr(drillfile.Word(v))
	case *drillfile.Rules:
		*dst, err = fs.GetStringSlice(name)
	default:
		err = fmt.Errorf("no flag type for setting --%s (%T)", name, dst)
	}
	return err
}

// Given lists the flags among names that the user set, with their values
// as given (a URL's credentials redacted), so a summary says what the run
// was run with; nil when none.
func Given(fs *pflag.FlagSet, names []string) map[string]string {
	var m map[string]string
	for _, name := range names {
		if fl := fs.Lookup(name); fl != nil && fl.Changed {
			if m == nil {
				m = map[string]string{}
			}
			m[name] = redact.String(fl.Value.String())
		}
	}
	return m
}

func ptr[T any](v T) *T { return &v }
