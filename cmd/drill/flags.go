package main

import (
	"fmt"
	"io"
	"net/url"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/breaker"
	"github.com/drill-dev/drill/chain"
	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/workload"
)

// usageArgs makes a cobra argument check's error a usage error.
func usageArgs(check cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := check(cmd, args); err != nil {
			return exit.UsageError(err)
		}
		return nil
	}
}

// drillFlags are the flags drill run and drill compare share: the workload,
// the endpoint and the policy overrides.
type drillFlags struct {
	emails      int
	emailsFile  string
	rate        float64
	outageFrom  time.Duration
	outageTo    time.Duration
	seed        int64
	follow      int
	maxDuration time.Duration

	baseURL      string
	primaryModel string
	backupModel  string

	primaryTimeout time.Duration
	primaryRetries int
	backupTimeout  time.Duration
	backupRetries  int
	scope          string
	tripFailures   int
	tripWindow     time.Duration
	cooldown       time.Duration

	policy policyFlags // breaker rules and chain options (policyflags.go)

	names    []string // the flags register added, in order
	warnings []string // things config noticed that the user should know, deduplicated

	faults faultFlags  // --fault, --stream (faults.go)
	replay replayFlags // --outage-from-journal, --model (outagejournal.go)
	cost   costFlags   // per-rung endpoints, prices, --max-spend, preflight (cost.go)
}

// noted adds a warning once.
func (f *drillFlags) noted(w string) {
	if !slices.Contains(f.warnings, w) {
		f.warnings = append(f.warnings, w)
	}
}

// warn writes the warnings config noticed to w, once each.
func (f *drillFlags) warn(w io.Writer) {
	for _, msg := range f.warnings {
		fmt.Fprintln(w, "drill: warning:", msg)
	}
	f.warnings = nil
}

func (f *drillFlags) register(fs *pflag.FlagSet) {
	defer func(before map[string]bool) {
		fs.VisitAll(func(fl *pflag.Flag) {
			if !before[fl.Name] {
				f.names = append(f.names, fl.Name)
			}
		})
	}(flagNames(fs))
	d := workload.DefaultConfig()
	fs.IntVar(&f.emails, "emails", d.Emails, "how many emails to send (past the data set's 120 they cycle through it: email 121 is email 1 again)")
	fs.StringVar(&f.emailsFile, "emails-file", "", "send your own emails: a JSON Lines or CSV file (id, from, subject, body, optional truth)")
	fs.Float64Var(&f.rate, "rate", d.Rate, "emails sent per second")
	fs.DurationVar(&f.outageFrom, "outage-from", d.OutageFrom, "when the outage starts, after the drill starts")
	fs.DurationVar(&f.outageTo, "outage-to", d.OutageTo, "when the outage ends")
	fs.Int64Var(&f.seed, "seed", d.Seed, "seed of the fake model's latencies (the default, 1, is drill run's and drill compare's)")
	fs.IntVar(&f.follow, "follow", d.Follow, "the email to follow in the summary (35 is the chapter's Marcus)")
	fs.DurationVar(&f.maxDuration, "max-duration", 0, "ceiling: cancel anything still in flight after this (default: outage end + 120s)")

	fs.StringVar(&f.baseURL, "base-url", "", "OpenAI-compatible endpoint (default: the built-in fake model, in-process); the key comes from OPENAI_API_KEY")
	fs.StringVar(&f.primaryModel, "primary-model", d.PrimaryModel, "the primary model")
	fs.StringVar(&f.backupModel, "backup-model", d.BackupModel, "the backup model")

	fs.DurationVar(&f.primaryTimeout, "primary-timeout", 0, "override the primary's time limit (0: none)")
	fs.IntVar(&f.primaryRetries, "primary-retries", 0, "override the primary's SDK retries")
	fs.DurationVar(&f.backupTimeout, "backup-timeout", 0, "override the backup's time limit (0: none)")
	fs.IntVar(&f.backupRetries, "backup-retries", 0, "override the backup's SDK retries")
	fs.StringVar(&f.scope, "time-limit-scope", string(chain.ScopeAttempt), "where time limits live: attempt (http.Client, retried by the SDK) or request (SDK request timeout, not retried)")
	b := breaker.Settings{}.WithDefaults() // the defaults, from the one place; only flags set are overrides
	fs.IntVar(&f.tripFailures, "trip-failures", b.Trip.Failures, "override the breaker: open after this many failed calls")
	fs.DurationVar(&f.tripWindow, "trip-window", b.Trip.Window, "override the breaker: ... within this window")
	fs.DurationVar(&f.cooldown, "cooldown", b.Cooldown, "override the breaker: stay open this long before a probe")
	f.faults.register(fs)
	f.replay.register(fs)
	f.policy.register(fs)
	f.cost.register(fs)
}

// config builds the run configuration for one outage and policy, applying
// the overrides the user set.
func (f *drillFlags) config(fs *pflag.FlagSet, outage, policy string) (workload.Config, error) {
	if !slices.Contains(workload.OutageKinds(), outage) {
		return workload.Config{}, exit.Usagef("unknown outage %q (valid: %s)", outage, strings.Join(workload.OutageKinds(), ", "))
	}
	p, err := workload.Preset(policy)
	if err != nil {
		return workload.Config{}, exit.UsageError(err)
	}
	if err := flagOverrides(fs).ApplyFlags(&p); err != nil {
		return workload.Config{}, exit.UsageError(err)
	}
	cfg := workload.DefaultConfig()
	cfg.Emails, cfg.Rate = f.emails, f.rate
	cfg.Outage, cfg.OutageFrom, cfg.OutageTo = outage, f.outageFrom, f.outageTo
	cfg.Policy = p
	if !p.HasPrimary() {
		cfg.Target = event.ServedBackup // the only model there is to break
	}
	cfg.PrimaryModel, cfg.BackupModel = f.primaryModel, f.backupModel
	cfg.Seed, cfg.Follow, cfg.MaxDuration = f.seed, f.follow, f.maxDuration
	if !fs.Changed("follow") && cfg.Follow > cfg.Emails {
		// A short drill without Marcus follows no email unless asked.
		f.noted(fmt.Sprintf("--emails %d does not reach email %d, the one followed by default: no email is followed (set --follow 1..%d to follow one)",
			cfg.Emails, cfg.Follow, cfg.Emails))
		cfg.Follow = 0
	}
	if f.emailsFile != "" {
		set, err := loadEmailSet(f.emailsFile)
		if err != nil {
			return workload.Config{}, err
		}
		useEmailSet(&cfg, set, fs, f.noted)
	}
	cfg.Overrides = f.overrides(fs)
	if f.baseURL != "" {
		u, err := url.Parse(f.baseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return workload.Config{}, exit.Usagef("--base-url %q is not an http(s) URL", journal.RedactText(f.baseURL))
		}
		// A key of only spaces is no key: the https check must catch it.
		key := strings.TrimSpace(os.Getenv("OPENAI_API_KEY"))
		if u.Scheme == "https" && key == "" {
			return workload.Config{}, exit.Usagef("--base-url %s is an https endpoint and OPENAI_API_KEY is not set (or blank): nothing was sent", journal.RedactURL(f.baseURL))
		}
		cfg.Endpoint = workload.Endpoint{BaseURL: f.baseURL, APIKey: key}
	}
	if err := f.cost.endpoints(fs, f.baseURL, &cfg); err != nil {
		return workload.Config{}, err
	}
	if err := f.faults.apply(&cfg); err != nil {
		return workload.Config{}, err
	}
	if err := f.replay.apply(fs, &cfg, f.noted); err != nil {
		return workload.Config{}, err
	}
	if err := cfg.Validate(); err != nil {
		return workload.Config{}, exit.UsageError(fmt.Errorf("invalid drill settings:\n%w", err))
	}
	return cfg, nil
}

func flagNames(fs *pflag.FlagSet) map[string]bool {
	m := map[string]bool{}
	fs.VisitAll(func(fl *pflag.Flag) { m[fl.Name] = true })
	return m
}

// overrides lists the drill flags the user set, with their values as
// given, so a summary says what the run was run with; nil when none.
func (f *drillFlags) overrides(fs *pflag.FlagSet) map[string]string {
	var m map[string]string
	for _, name := range f.names {
		if fl := fs.Lookup(name); fl != nil && fl.Changed {
			if m == nil {
				m = map[string]string{}
			}
			// Values are recorded and printed: a URL's credentials never are.
			m[name] = journal.RedactSecrets(fl.Value.String())
		}
	}
	return m
}
