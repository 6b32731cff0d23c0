package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/breaker"
	"github.com/drill-dev/drill/chain"
	"github.com/drill-dev/drill/inject"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/plan"
	"github.com/drill-dev/drill/workload"
)

// usageArgs makes a cobra argument check's error a usage error.
func usageArgs(check cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error { return exit.UsageError(check(cmd, args)) }
}

// flagError is cobra's flag error function: drill's words, exit 2.
func flagError(cmd *cobra.Command, err error) error {
	return exit.FlagError(err, func(name string) string {
		if f := cmd.Flags().Lookup(name); f != nil {
			return f.Value.Type()
		}
		return ""
	})
}

// drillFlags are the flags drill run and drill compare share: the workload,
// the endpoint, the fault and the policy overrides.
type drillFlags struct {
	plan.Flags

	names    []string // the flags register added, in order
	warnings []string // things config noticed that the user should know, deduplicated

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
	before := map[string]bool{}
	fs.VisitAll(func(fl *pflag.Flag) { before[fl.Name] = true })
	defer fs.VisitAll(func(fl *pflag.Flag) {
		if !before[fl.Name] {
			f.names = append(f.names, fl.Name)
		}
	})
	d, v := workload.DefaultConfig(), &f.Flags
	fs.IntVar(&v.Emails, "emails", d.Emails, "how many emails to send (past the data set's 120 they cycle through it: email 121 is email 1 again)")
	fs.StringVar(&v.EmailsFile, "emails-file", "", "send your own emails: a JSON Lines or CSV file (id, from, subject, body, optional truth)")
	fs.Float64Var(&v.Rate, "rate", d.Rate, "emails sent per second")
	fs.DurationVar(&v.OutageFrom, "outage-from", d.OutageFrom, "when the outage starts, after the drill starts")
	fs.DurationVar(&v.OutageTo, "outage-to", d.OutageTo, "when the outage ends")
	fs.Int64Var(&v.Seed, "seed", d.Seed, "seed of the fake model's latencies (the default, 1, is drill run's and drill compare's)")
	fs.IntVar(&v.Follow, "follow", d.Follow, "the email to follow in the summary (35 is the chapter's Marcus)")
	fs.DurationVar(&v.MaxDuration, "max-duration", 0, "ceiling: cancel anything still in flight after this (default: outage end + 120s)")

	fs.StringVar(&v.BaseURL, "base-url", "", "OpenAI-compatible endpoint (default: the built-in fake model, in-process); the key comes from OPENAI_API_KEY")
	fs.StringVar(&v.PrimaryModel, "primary-model", d.PrimaryModel, "the primary model")
	fs.StringVar(&v.BackupModel, "backup-model", d.BackupModel, "the backup model")

	// Policy overrides: read back through plan.FlagOverrides, so only the
	// flags the user sets override the preset.
	fs.Duration("primary-timeout", 0, "override the primary's time limit (0: none)")
	fs.Int("primary-retries", 0, "override the primary's SDK retries")
	fs.Duration("backup-timeout", 0, "override the backup's time limit (0: none)")
	fs.Int("backup-retries", 0, "override the backup's SDK retries")
	fs.String("time-limit-scope", string(chain.ScopeAttempt), "where time limits live: attempt (http.Client, retried by the SDK) or request (SDK request timeout, not retried)")
	b := breaker.Settings{}.WithDefaults() // the defaults, from the one place
	fs.Int("trip-failures", b.Trip.Failures, "override the breaker: open after this many failed calls")
	fs.Duration("trip-window", b.Trip.Window, "override the breaker: ... within this window")
	fs.Duration("cooldown", b.Cooldown, "override the breaker: stay open this long before a probe")
	fs.StringArrayVar(&v.Faults, "fault", nil, "the outage's parameter or modifier as KEY=VALUE, repeatable: e.g. --fault retry_after=20s --fault rate=0.5 (keys per kind: docs/faults.md; modifiers: "+
		strings.Join(inject.ModifierKeys(), ", ")+")")
	fs.BoolVar(&v.Stream, "stream", false, "make every model call a streamed chat completion (with stream_options.include_usage); events record time to first token and tokens per second")
	f.replay.register(fs)
	registerPolicyFlags(fs)
	f.cost.register(fs)
}

// config builds the run configuration for one outage and policy from the
// flags alone.
func (f *drillFlags) config(fs *pflag.FlagSet, outage, policy string) (workload.Config, error) {
	cfg, err := plan.FromFlags(f.Flags, fs, outage, policy, f.noted)
	if err != nil {
		return workload.Config{}, err
	}
	if f.EmailsFile != "" {
		set, err := loadEmailSet(f.EmailsFile)
		if err != nil {
			return workload.Config{}, err
		}
		useEmailSet(&cfg, set, fs, f.noted)
	}
	cfg.Overrides = plan.Given(fs, f.names)
	if err := f.cost.endpoints(fs, f.BaseURL, &cfg); err != nil {
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

// outageHelp is the --outage flag's help: every fault kind and none.
func outageHelp() string {
	return "outage kind: " + strings.Join(workload.OutageKinds(), ", ") + " (parameters and modifiers with --fault)"
}
