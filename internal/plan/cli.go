package plan

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/breaker"
	"github.com/drill-dev/drill/chain"
	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/inject"
	"github.com/drill-dev/drill/internal/drillfile"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/preflight"
	"github.com/drill-dev/drill/internal/price"
	"github.com/drill-dev/drill/internal/redact"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

// Expectations are a drill's hypotheses (judged at its end) and abort
// conditions (checked live).
type Expectations struct {
	Hypotheses []scoring.Expr
	Abort      []scoring.Expr
}

// CLI is the command line of a drill, as drill run, compare, fleet,
// predict and sweep take it: the workload, the endpoints, the fault, the
// policy overrides, prices and the spend guard, an outage replayed from a
// journal, and (RegisterFile) a drill file with hypotheses. Register binds
// it to a flag set; Plan turns what was given into the drills to run.
type CLI struct {
	Flags

	names    []string // the flags Register added, in order
	warnings []string // what the user should know, deduplicated

	journal, journalModel string // --outage-from-journal, --model

	primaryBaseURL, backupBaseURL string
	primaryKeyEnv, backupKeyEnv   string
	prices                        []string
	maxSpend                      float64
	skipPreflight                 bool

	file   string   // -f
	expect []string // --expect

	baseline     string // --baseline
	fileBaseline string // the drill file's baseline key, once Plan read it
}

// Names are the flags Register added, in the order it added them.
func (c *CLI) Names() []string { return c.names }

// Warnings are what building the drills noticed that the user should
// know, once each.
func (c *CLI) Warnings() []string { return c.warnings }

// note adds a warning once.
func (c *CLI) note(w string) {
	if !slices.Contains(c.warnings, w) {
		c.warnings = append(c.warnings, w)
	}
}

// OutageHelp is the --outage flag's help: every fault kind and none.
func OutageHelp() string {
	return "outage kind: " + strings.Join(workload.OutageKinds(), ", ") + " (parameters and modifiers with --fault)"
}

// Register adds the drill flags to fs. Every default comes from the one
// place it is written, and pflag shows it; only the policy flags the user
// sets become overrides (FlagOverrides).
func (c *CLI) Register(fs *pflag.FlagSet) {
	before := map[string]bool{}
	fs.VisitAll(func(fl *pflag.Flag) { before[fl.Name] = true })
	defer fs.VisitAll(func(fl *pflag.Flag) {
		if !before[fl.Name] {
			c.names = append(c.names, fl.Name)
		}
	})
	d, v := workload.DefaultConfig(), &c.Flags
	fs.IntVar(&v.Emails, "emails", d.Emails, "how many emails to send (past the data set's 120 they cycle through it: email 121 is email 1 again)")
	fs.StringVar(&v.EmailsFile, "emails-file", "", "send your own emails: a JSON Lines or CSV file (id, from, subject, body, optional truth)")
	fs.Float64Var(&v.Rate, "rate", d.Rate, "emails sent per second")
	fs.DurationVar(&v.OutageFrom, "outage-from", d.OutageFrom, "when the outage starts, after the drill starts (when the emails are all sent in under a minute, neither window flag given: a quarter of the way through the sending)")
	fs.DurationVar(&v.OutageTo, "outage-to", d.OutageTo, "when the outage ends (when the emails are all sent in under a minute, neither window flag given: two thirds of the way through)")
	fs.Int64Var(&v.Seed, "seed", d.Seed, "seed of the fake model's latencies (the default, 1, is drill run's and drill compare's)")
	fs.IntVar(&v.Follow, "follow", d.Follow, "the email to follow in the summary (35 is the chapter's Marcus)")
	fs.DurationVar(&v.MaxDuration, "max-duration", 0, "ceiling: cancel anything still in flight after this (default: outage end + 120s)")
	fs.IntVar(&v.MaxInFlight, "max-in-flight", 0, "a worker pool of this many the emails share, each held from arrival to result; an email that finds none free is rejected (0: no limit)")

	fs.StringVar(&v.BaseURL, "base-url", "", "OpenAI-compatible endpoint (default: the built-in fake model, in-process); the key comes from OPENAI_API_KEY")
	fs.StringVar(&v.PrimaryModel, "primary-model", d.PrimaryModel, "the primary model")
	fs.StringVar(&v.BackupModel, "backup-model", d.BackupModel, "the backup model")

	fs.Duration("primary-timeout", 0, "override the primary's time limit (0: none)")
	fs.Int("primary-retries", 0, "override the primary's SDK retries")
	fs.Duration("backup-timeout", 0, "override the backup's time limit (0: none)")
	fs.Int("backup-retries", 0, "override the backup's SDK retries")
	fs.String("time-limit-scope", string(chain.ScopeAttempt), "where time limits live: attempt (http.Client, retried by the SDK) or request (SDK request timeout, not retried)")
	b := breaker.Settings{}.WithDefaults()
	fs.Int("trip-failures", b.Trip.Failures, "override the breaker: open after this many failed calls")
	fs.Duration("trip-window", b.Trip.Window, "override the breaker: ... within this window")
	fs.Duration("cooldown", b.Cooldown, "override the breaker: stay open this long before a probe")
	fs.StringArrayVar(&v.Faults, "fault", nil, "the outage's parameter or modifier as KEY=VALUE, repeatable: e.g. --fault retry_after=20s --fault rate=0.5 (keys per kind: docs/faults.md; modifiers: "+
		strings.Join(inject.ModifierKeys(), ", ")+")")
	fs.BoolVar(&v.Stream, "stream", false, "make every model call a streamed chat completion (with stream_options.include_usage); events record time to first token and tokens per second")
	RegisterJournalOutage(fs, &c.journal, &c.journalModel)
	registerPolicy(fs, b)
	registerRoutes(fs, &v.Routes)

	fs.StringVar(&c.primaryBaseURL, "primary-base-url", "", "the primary's OpenAI-compatible endpoint (default: --base-url, else $OPENAI_BASE_URL, else the built-in fake model; \"fake\" for the fake model)")
	fs.StringVar(&c.backupBaseURL, "backup-base-url", "", "the backup's endpoint (default as for --primary-base-url)")
	fs.StringVar(&c.primaryKeyEnv, "primary-key-env", "", "the NAME of the environment variable holding the primary's key (default OPENAI_API_KEY)")
	fs.StringVar(&c.backupKeyEnv, "backup-key-env", "", "the NAME of the environment variable holding the backup's key (default OPENAI_API_KEY)")
	fs.StringArrayVar(&c.prices, "price", nil, "price per million input and output tokens, MODEL=IN/OUT (e.g. gpt-5.4-mini=0.25/2); repeatable")
	fs.Float64Var(&c.maxSpend, "max-spend", 0, "abort the drill (status aborted, exit 3) before a call whose estimated cost would take the spend over this amount (0: no limit)")
	fs.BoolVar(&c.skipPreflight, "skip-preflight", false, "do not send the one tiny request per real endpoint's rung before the drill (to drill an endpoint that is already down)")
}

// RegisterJournalOutage adds --outage-from-journal FILE and --model M.
func RegisterJournalOutage(fs *pflag.FlagSet, path, model *string) {
	fs.StringVar(path, "outage-from-journal", "", "replay the fault pattern a journal recorded (each attempt's class and timing) as the outage timeline")
	fs.StringVar(model, "model", "", "with --outage-from-journal: the rung or model whose attempts to replay (default: the journal's target)")
}

// registerPolicy adds the breaker rules and chain options: trip rules,
// half-open probes, stale results, Retry-After, what counts as a failure,
// breaker scope, and the chain's deadline, hedging, rules rung and SDK
// retry-delay cap. Breaker flags apply to the primary's breaker.
func registerPolicy(fs *pflag.FlagSet, d breaker.Settings) {
	t := d.Trip
	fs.StringSlice("trip", t.Rules, "trip rules of the breaker, any combination: "+strings.Join(breaker.RuleNames(), ", "))
	fs.Int("trip-min-samples", t.MinSamples, "rate, slow-rate, p99: calls that must have finished in the window first")
	fs.Float64("trip-failure-rate", t.FailureRate, "rate: open at this failure rate over the window, in (0, 1]")
	fs.Duration("trip-slow-call", t.SlowCall, "slow-rate: a call this long or longer is slow")
	fs.Float64("trip-slow-rate", t.SlowRate, "slow-rate: open at this share of slow calls over the window, in (0, 1]")
	fs.Duration("trip-p99", t.P99, "p99: open when the window's p99 call duration is above this")
	fs.Duration("in-flight-age", t.InFlightAge, "in-flight: a call unanswered this long is a failure signal at once")
	fs.Int("in-flight-calls", t.InFlightCalls, "in-flight: open when this many calls are that old")
	fs.String("probes", d.Probes.String(), "customer calls let through while half-open: a number, or all")
	fs.String("probe", string(d.Probe), "who probes a recovering model: customer (a customer's email) or synthetic (the breaker's own health call)")
	fs.Duration("probe-interval", 0, "probe synthetic: send a health call this often while open (default: the cooldown)")
	fs.Duration("probe-timeout", d.ProbeTimeout, "a probe with no result after this counts as failed")
	fs.String("stale", string(d.Stale), "results of calls from an earlier breaker state: "+strings.Join(breaker.StaleModes(), " or "))
	fs.String("retry-after", string(d.RetryAfter), strings.Join(breaker.RetryAfterModes(), " or ")+": an open breaker stays open at least as long as a Retry-After it saw")
	fs.Bool("count-429", false, "count a 429 (rate limited) as a breaker failure")
	fs.Bool("count-invalid", false, "count an answer that fails the schema as a breaker failure")
	fs.Bool("count-slow-stream", false, "count a stream cut by the rate floor (--min-tokens-per-s) as a breaker failure")
	fs.Float64("min-tokens-per-s", 0, "cut a streamed primary answer delivering fewer tokens a second than this (0: no floor)")
	fs.Duration("stream-check", 0, "when the stream-rate floor is first checked, and how often after (default 3s)")
	fs.String("breaker-scope", string(d.Scope), "rung (one breaker per rung) or endpoint (one per base URL and model, shared by rungs)")

	fs.Duration("email-deadline", 0, "one budget per email across the whole chain; on expiry the rules rung or the canned reply (0: none)")
	fs.Duration("hedge-after", 0, "if the primary has not answered after this, ask the backup too; first valid answer wins (0: no hedging)")
	fs.Bool("rules", false, "add the rules rung (keyword triage, no model call) before the canned reply")
	fs.Duration("primary-max-retry-delay", 0, "cap the primary SDK's wait before a retry, Retry-After included (openai-go WithMaxRetryDelay; 0: the SDK's 2m)")
}

// RegisterFile adds the drill-file flags: -f and --expect.
func (c *CLI) RegisterFile(fs *pflag.FlagSet) {
	c.RegisterDrillFile(fs)
	fs.StringArrayVar(&c.expect, "expect", nil, "a hypothesis, `figure op value` (e.g. 'served.error == 0'); repeatable, added to the file's")
}

// RegisterDrillFile adds -f/--file alone, for a command that reads a drill
// file's drills but judges no hypotheses (drill predict).
func (c *CLI) RegisterDrillFile(fs *pflag.FlagSet) {
	fs.StringVarP(&c.file, "file", "f", "", "read the drill from this drill file (flags given too override it)")
}

// Expect is the --expect checks given, as written.
func (c *CLI) Expect() []string { return c.expect }

// File is the drill file given with -f ("" for none).
func (c *CLI) File() string { return c.file }

// Config builds the run configuration for one outage and policy from the
// flags alone.
func (c *CLI) Config(fs *pflag.FlagSet, outage, policy string) (workload.Config, error) {
	cfg, err := FromFlags(c.Flags, fs, outage, policy, c.note)
	if err != nil {
		return workload.Config{}, err
	}
	if c.EmailsFile != "" {
		first := 0 // every email: the drill sends them all
		if fs != nil && fs.Changed("emails") {
			first = cfg.Emails // --emails N sends the first N (cycling when the file has fewer)
		}
		set, err := emails.LoadFirst(c.EmailsFile, first)
		if err != nil {
			return workload.Config{}, exit.UsageError(err) // a missing, unreadable or bad file: exit 2
		}
		useEmailSet(&cfg, set, fs, c.note)
	}
	defaultWindow(&cfg, fs, c.note)
	cfg.Overrides = Given(fs, c.names)
	if err := c.endpoints(fs, &cfg); err != nil {
		return workload.Config{}, err
	}
	if err := c.replay(fs, &cfg); err != nil {
		return workload.Config{}, err
	}
	if err := cfg.Validate(); err != nil {
		return workload.Config{}, exit.UsageError(fmt.Errorf("invalid drill settings:\n%w", err))
	}
	return cfg, nil
}

// Plan resolves the drills to run: from the drill file with the flags that
// were given laid over it, or from the flags alone; then it applies the
// prices and the spend guard (Ready). outages and policies are the
// --outage/--policy (run) or --outages/--policies (compare) values, sel's
// flag names say which. A non-nil single asks for one drill (drill run):
// the first, with a note on single when the file describes more.
func (c *CLI) Plan(fs *pflag.FlagSet, sel Selection, single io.Writer) ([]workload.Config, Expectations, error) {
	for _, name := range []string{"primary-key-env", "backup-key-env"} {
		// Checked even where the key is not read (the built-in model), so
		// that a typo never passes silently.
		if v, err := fs.GetString(name); err == nil && fs.Changed(name) && !drillfile.IsEnvName(v) {
			return nil, Expectations{}, exit.Usagef("--%s %q does not name an environment variable (letters, digits and _, not starting with a digit)", name, v)
		}
	}
	var x Expectations
	var cfgs []workload.Config
	if c.file == "" {
		for _, o := range sel.Outages {
			for _, p := range sel.Policies {
				cfg, err := c.Config(fs, strings.TrimSpace(o), strings.TrimSpace(p))
				if err != nil {
					return nil, Expectations{}, err
				}
				cfgs = append(cfgs, cfg)
			}
		}
	} else {
		df, err := drillfile.Load(c.file)
		if err != nil {
			return nil, Expectations{}, exit.UsageError(err)
		}
		c.overrideFile(df, fs)
		c.fileBaseline = df.Baseline
		runs, err := Layered(df, c.Flags, fs, sel)
		if err != nil {
			return nil, Expectations{}, err
		}
		if single != nil && len(runs) > 1 {
			verb, all := cmp.Or(sel.Verb, "running"), ", or run them all with drill compare -f"
			if verb != "running" {
				all = ""
			}
			fmt.Fprintf(single, "drill: %s describes %d drills; %s the first, outage %s with policy %s (choose with --outage and --policy%s)\n",
				c.file, len(runs), verb, runs[0].Outage.Name, runs[0].Policy.PolicyName(), all)
			runs = runs[:1]
		}
		if x.Hypotheses, x.Abort, err = Checks(df); err != nil {
			return nil, Expectations{}, exit.UsageError(err)
		}
		cfgs = Configs(runs)
	}
	more, err := scoring.ParseExprs(c.expect)
	if err != nil {
		return nil, Expectations{}, exit.Usagef("--expect: %w", err)
	}
	x.Hypotheses = append(x.Hypotheses, more...)
	return cfgs, x, nil
}

// Ready puts --price and --max-spend on every drill (a --price overrides
// the drill file's price of its model), registers every key variable the
// drills name so their values are redacted wherever drill writes, and,
// when check is set (not for --clock virtual, which refuses real endpoints
// itself) and without --skip-preflight, sends one tiny request per rung on
// a real endpoint (preflight.Check): a rung that fails it is a usage error
// (exit 2) that names the rung and why, and no drill starts.
func (c *CLI) Ready(ctx context.Context, fs *pflag.FlagSet, cfgs []workload.Config, check bool, stderr io.Writer) error {
	t, err := price.ParseAll(c.prices)
	if err != nil {
		return exit.Usagef("--price: %w", err)
	}
	if fs.Changed("max-spend") && !(c.maxSpend > 0) {
		return exit.Usagef("--max-spend must be above 0, got %v", c.maxSpend)
	}
	for i := range cfgs {
		cfg := &cfgs[i]
		if len(t) > 0 {
			merged := price.Table{}
			maps.Copy(merged, cfg.Prices)
			maps.Copy(merged, t)
			cfg.Prices = merged
		}
		if fs.Changed("max-spend") {
			cfg.MaxSpend = c.maxSpend
		}
		redact.Env(cfg.Endpoint.KeyEnv)
		for _, ep := range cfg.RungEndpoints {
			redact.Env(ep.KeyEnv)
		}
		if cfg.MaxSpend > 0 {
			for _, r := range cfg.Info().Rungs {
				if _, ok := cfg.Prices[r.Model]; r.Model != "" && !ok {
					return exit.Usagef("--max-spend needs a price for every model the drill calls; %s (%s) has none (give --price %s=IN/OUT, or prices: in the drill file)",
						r.Model, r.Name, r.Model)
				}
			}
		}
	}
	if c.skipPreflight || !check {
		return nil
	}
	return preflight.Check(ctx, cfgs, stderr)
}

// rungFlags are one rung's endpoint flags.
func (c *CLI) rungFlags(rung string) (baseURL, keyEnv, baseFlag, keyFlag string) {
	if rung == event.ServedPrimary {
		return c.primaryBaseURL, c.primaryKeyEnv, "primary-base-url", "primary-key-env"
	}
	return c.backupBaseURL, c.backupKeyEnv, "backup-base-url", "backup-key-env"
}

// endpoints sets each rung's endpoint from the flags, on a configuration
// built from flags alone: a rung's own --X-base-url and --X-key-env, else
// --base-url for both (already on cfg.Endpoint), else $OPENAI_BASE_URL as
// the SDK reads it, else the built-in fake model.
func (c *CLI) endpoints(fs *pflag.FlagSet, cfg *workload.Config) error {
	perRung := false
	for _, n := range []string{"primary-base-url", "backup-base-url", "primary-key-env", "backup-key-env"} {
		perRung = perRung || fs.Changed(n)
	}
	if !perRung {
		if c.BaseURL != "" {
			cfg.Endpoint.KeyEnv = drillfile.DefaultAPIKeyEnv
			return nil
		}
		env := drillfile.Model{}.URL() // $OPENAI_BASE_URL, as the SDK reads it
		if env == "" {
			return nil
		}
		ep, err := drillfile.ResolveEndpoint("primary and backup", env, "", false)
		if err != nil {
			return exit.Usagef("$%s: %w", drillfile.BaseURLEnv, err)
		}
		cfg.Endpoint = ep
		return nil
	}
	var eps [2]workload.Endpoint
	for i, rung := range []string{event.ServedPrimary, event.ServedBackup} {
		u, keyEnv, baseFlag, keyFlag := c.rungFlags(rung)
		if !fs.Changed(baseFlag) {
			u = c.BaseURL
			if u == "" {
				u = drillfile.Model{}.URL()
			}
		}
		if u != "" && u != drillfile.BaseURLFake && !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
			return exit.Usagef("--%s %q is not an http(s) URL (or \"fake\")", baseFlag, redact.Text(u))
		}
		ep, err := drillfile.ResolveEndpoint(rung, u, keyEnv, fs.Changed(keyFlag))
		if err != nil {
			return exit.UsageError(err)
		}
		eps[i] = ep
	}
	cfg.Endpoint = workload.Endpoint{}
	cfg.RungEndpoints = nil
	if eps[0] == eps[1] {
		cfg.Endpoint = eps[0]
	} else {
		cfg.RungEndpoints = map[string]workload.Endpoint{event.ServedPrimary: eps[0], event.ServedBackup: eps[1]}
	}
	return nil
}

// overrideFile puts the per-rung endpoint flags given on a drill file's models.
func (c *CLI) overrideFile(df *drillfile.File, fs *pflag.FlagSet) {
	for _, m := range []struct {
		rung string
		m    *drillfile.Model
	}{{event.ServedPrimary, &df.Models.Primary}, {event.ServedBackup, &df.Models.Backup}} {
		u, keyEnv, baseFlag, keyFlag := c.rungFlags(m.rung)
		if fs.Changed(baseFlag) {
			m.m.BaseURL = u
		}
		if fs.Changed(keyFlag) {
			m.m.APIKeyEnv = keyEnv
		}
	}
}

// CompareOutages is the outage list drill compare runs: with a journal,
// one entry (every policy is run once against the journal's timeline);
// --outages does not go with it.
func (c *CLI) CompareOutages(fs *pflag.FlagSet, outages []string) ([]string, error) {
	if c.journal == "" {
		return outages, nil
	}
	if fs.Changed("outages") {
		return nil, exit.Usagef("--outages and --outage-from-journal do not go together: the journal is the timeline")
	}
	return outages[:1], nil // one run per policy: replay gives each the journal's timeline
}

// replay replaces cfg's outage with the timeline the journal recorded, and
// notes each replayed window. The outage flags and --fault do not go with it.
func (c *CLI) replay(fs *pflag.FlagSet, cfg *workload.Config) error {
	if c.journal == "" {
		if fs.Changed("model") {
			return exit.Usagef("--model goes with --outage-from-journal")
		}
		return nil
	}
	if err := NoOutageFlags(fs, "--outage-from-journal", "the journal"); err != nil {
		return err
	}
	ws, notes, err := JournalOutage(c.journal, c.journalModel)
	if err != nil {
		return err
	}
	for _, n := range notes {
		c.note(n)
	}
	if len(ws) == 0 {
		cfg.Outage, cfg.Outages = workload.OutageNone, nil
		return nil
	}
	// The first window names the drill; the timeline is every window.
	cfg.Outage, cfg.OutageFrom, cfg.OutageTo = ws[0].Kind, ws[0].From, ws[len(ws)-1].To
	cfg.Outages = ws
	return nil
}

// NoOutageFlags refuses the outage flags beside a timeline that replaces
// them (flag: the flag that gives it; what: what it is).
func NoOutageFlags(fs *pflag.FlagSet, flag, what string) error {
	for _, name := range []string{"outage", "outage-from", "outage-to", "fault"} {
		if fs.Changed(name) {
			return exit.Usagef("--%s and %s do not go together: %s is the timeline", name, flag, what)
		}
	}
	return nil
}

// useEmailSet makes cfg send set: every email of it unless --emails says
// how many, and no email followed by default when the set lacks the one
// followed by default (note says so).
func useEmailSet(cfg *workload.Config, set []emails.Email, fs *pflag.FlagSet, note func(string)) {
	cfg.EmailSet = set
	if fs == nil || !fs.Changed("emails") {
		cfg.Emails = len(set)
	}
	if fs != nil && fs.Changed("follow") {
		return
	}
	if cfg.Follow != 0 && !slices.ContainsFunc(set[:min(cfg.Emails, len(set))], func(e emails.Email) bool { return e.ID == cfg.Follow }) {
		note(fmt.Sprintf("the emails sent have no email %d, the one followed by default: no email is followed (set --follow to an id in the file)", cfg.Follow))
		cfg.Follow = 0
	}
}
