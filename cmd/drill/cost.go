package main

import (
	"maps"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/drillfile"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/preflight"
	"github.com/drill-dev/drill/internal/price"
	"github.com/drill-dev/drill/workload"
)

// costFlags are the flags of real endpoints, prices and the spend guard,
// shared by drill run and drill compare.
type costFlags struct {
	primaryBaseURL string
	backupBaseURL  string
	primaryKeyEnv  string
	backupKeyEnv   string
	prices         []string
	maxSpend       float64
	skipPreflight  bool
}

func (c *costFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&c.primaryBaseURL, "primary-base-url", "", "the primary's OpenAI-compatible endpoint (default: --base-url, else $OPENAI_BASE_URL, else the built-in fake model; \"fake\" for the fake model)")
	fs.StringVar(&c.backupBaseURL, "backup-base-url", "", "the backup's endpoint (default as for --primary-base-url)")
	fs.StringVar(&c.primaryKeyEnv, "primary-key-env", "", "the NAME of the environment variable holding the primary's key (default OPENAI_API_KEY)")
	fs.StringVar(&c.backupKeyEnv, "backup-key-env", "", "the NAME of the environment variable holding the backup's key (default OPENAI_API_KEY)")
	fs.StringArrayVar(&c.prices, "price", nil, "price per million input and output tokens, MODEL=IN/OUT (e.g. gpt-5.4-mini=0.25/2); repeatable")
	fs.Float64Var(&c.maxSpend, "max-spend", 0, "abort the drill (status aborted, exit 3) before a call whose estimated cost would take the spend over this amount (0: no limit)")
	fs.BoolVar(&c.skipPreflight, "skip-preflight", false, "do not send the one tiny request per real endpoint's rung before the drill (to drill an endpoint that is already down)")
}

// rungFlags are one rung's endpoint flags.
func (c *costFlags) rungFlags(rung string) (baseURL, keyEnv, baseFlag, keyFlag string) {
	if rung == event.ServedPrimary {
		return c.primaryBaseURL, c.primaryKeyEnv, "primary-base-url", "primary-key-env"
	}
	return c.backupBaseURL, c.backupKeyEnv, "backup-base-url", "backup-key-env"
}

// endpoints sets each rung's endpoint from the flags, on a configuration
// built from flags alone: a rung's own --X-base-url and --X-key-env, else
// --base-url for both (already on cfg.Endpoint), else $OPENAI_BASE_URL as
// the SDK reads it, else the built-in fake model.
func (c *costFlags) endpoints(fs *pflag.FlagSet, baseURL string, cfg *workload.Config) error {
	perRung := false
	for _, n := range []string{"primary-base-url", "backup-base-url", "primary-key-env", "backup-key-env"} {
		perRung = perRung || fs.Changed(n)
	}
	if !perRung {
		if baseURL != "" {
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
			u = baseURL
			if u == "" {
				u = drillfile.Model{}.URL()
			}
		}
		if u != "" && u != drillfile.BaseURLFake && !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
			return exit.Usagef("--%s %q is not an http(s) URL (or \"fake\")", baseFlag, journal.RedactText(u))
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
func (c *costFlags) overrideFile(df *drillfile.File, fs *pflag.FlagSet) {
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

// apply puts --price and --max-spend on every drill (a --price overrides
// the drill file's price of its model) and registers every key variable
// the drills name, so their values are redacted wherever drill writes.
func (c *costFlags) apply(fs *pflag.FlagSet, cfgs []workload.Config) error {
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
		journal.RedactEnv(cfg.Endpoint.KeyEnv)
		for _, ep := range cfg.RungEndpoints {
			journal.RedactEnv(ep.KeyEnv)
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
	return nil
}

// ready applies the cost flags to the drills and, when check is set (not
// for --clock virtual, which refuses real endpoints itself) and without
// --skip-preflight,
// sends one tiny request per rung on a real endpoint: a rung that fails it
// is a usage error (exit 2) that names the rung and why, and no drill starts.
func (c *costFlags) ready(cmd *cobra.Command, cfgs []workload.Config, check bool) error {
	if err := c.apply(cmd.Flags(), cfgs); err != nil {
		return err
	}
	if c.skipPreflight || !check {
		return nil
	}
	return preflight.Check(cmd.Context(), cfgs, cmd.ErrOrStderr())
}
