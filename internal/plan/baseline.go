package plan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/suggest"
	"github.com/drill-dev/drill/workload"
)

// The --baseline values that are not a policy preset.
const (
	// BaselineNoBreakers is the default baseline: the drill's own chain
	// and settings with every breaker taken out.
	BaselineNoBreakers = "no-breakers"
	// BaselineNone plays no baseline.
	BaselineNone = "none"
)

// BaselineNames lists --baseline's values: no-breakers, none, and every
// policy preset.
func BaselineNames() []string {
	return append([]string{BaselineNoBreakers, BaselineNone}, workload.PresetNames()...)
}

// RegisterBaseline adds --baseline, for the commands that play a baseline
// beside a live drill (drill run).
func (c *CLI) RegisterBaseline(fs *pflag.FlagSet) {
	fs.StringVar(&c.baseline, "baseline", BaselineNoBreakers, "the policy played beside the drill on the virtual clock, for live-vs-baseline figures: "+
		BaselineNoBreakers+" (the same chain without breakers), a policy preset, or none; against real models the baseline is predicted")
}

// Baseline is the baseline policy to play beside the drill: --baseline if
// given, else the drill file's baseline key, else BaselineNoBreakers. Call
// it after Plan. An unknown name is a usage error (exit 2).
func (c *CLI) Baseline(fs *pflag.FlagSet) (string, error) {
	name := c.baseline
	if !fs.Changed("baseline") && c.fileBaseline != "" {
		name = c.fileBaseline
	}
	if name == "" {
		name = BaselineNoBreakers
	}
	if names := BaselineNames(); !slices.Contains(names, name) {
		return "", exit.Usagef("unknown baseline %q (valid: %s)%s", name, strings.Join(names, ", "), suggest.DidYouMean(name, "", names))
	}
	return name, nil
}

// withoutBreakers is p with every rung's breaker taken out; p's own
// rungs are left as they are.
func withoutBreakers(p workload.Policy) workload.Policy {
	p.Primary.Breaker = nil
	if p.Backup != nil {
		backup := *p.Backup
		backup.Breaker = nil
		p.Backup = &backup
	}
	return p
}

// BaselineConfig is the drill cfg played with the baseline policy name:
// the same emails, seed, outage and endpoints. name is BaselineNoBreakers
// (the same chain and settings without breakers) or a policy preset.
func BaselineConfig(cfg workload.Config, name string) (workload.Config, error) {
	b := cfg
	switch name {
	case "", BaselineNoBreakers:
		b.Policy = withoutBreakers(cfg.Policy)
		// Every route's chain too: a routed drill's baseline is the same
		// routes without breakers.
		b.Routes = slices.Clone(cfg.Routes)
		for i := range b.Routes {
			b.Routes[i].Policy = withoutBreakers(b.Routes[i].Policy)
		}
	default:
		p, err := workload.Preset(name)
		if err != nil {
			return workload.Config{}, fmt.Errorf("baseline: %w", err)
		}
		b.Policy = p
	}
	// The baseline logs its own prediction and clock; it shares no
	// breaker state with the live run.
	b.Predicted, b.Clock, b.BreakerStore = nil, "", nil
	return b, nil
}
