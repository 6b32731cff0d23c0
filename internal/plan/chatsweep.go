package plan

import (
	"fmt"
	"io"
	"slices"

	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/chat"
	"github.com/drill-dev/drill/internal/drillfile"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/sweep"
)

// chatOnlyAxes are the chat flags drill sweep takes as axes beside drill
// run's triage flags (--trip-failures, --cooldown, --min-tokens-per-s and
// --stream-check are shared: the chat policy reads them too). --seeds is
// left out: --repeat gives the seeds.
func chatOnlyAxes() []*pflag.Flag {
	tmpl := pflag.NewFlagSet("chat", pflag.ContinueOnError)
	var c ChatFlags
	c.Register(tmpl)
	var out []*pflag.Flag
	tmpl.VisitAll(func(fl *pflag.Flag) {
		if fl.Name != "workload" && fl.Name != "seeds" {
			out = append(out, fl)
		}
	})
	return out
}

// registerChat adds --workload and the chat flags' axes; add registers one
// axis.
func (s *Sweep) registerChat(fs *pflag.FlagSet, add func(name, typ, usage string, list bool) *pflag.Flag) {
	fs.StringVar(&s.Workload, "workload", event.WorkloadTriage, "the workload: triage, or chat (its policy's settings become axes: --turn-limit, --retries, --validity, --loop-guard, --budget-time, ...)")
	for _, fl := range chatOnlyAxes() {
		if fs.Lookup(fl.Name) != nil {
			continue
		}
		switch typ := fl.Value.Type(); typ {
		case "stringSlice": // --incident: a comma list of kinds
			add(fl.Name, "string", fl.Usage+"; a comma list sweeps it", false)
		case "stringArray":
			add(fl.Name, typ, fl.Usage+"; each occurrence one value of the sweep", true)
		case "bool":
			add(fl.Name, typ, fl.Usage+"; true, false or true,false", false).NoOptDefVal = "true"
		default:
			add(fl.Name, typ, fl.Usage+"; a comma list or a range sweeps it", false)
		}
	}
}

// Chat reports whether the sweep is of the chat workload (--workload
// chat); an unknown workload, or a chat axis in a triage sweep, is a usage
// error.
func (s *Sweep) Chat() (bool, error) {
	switch s.Workload {
	case event.WorkloadChat:
		return true, nil
	case event.WorkloadTriage:
	default:
		return false, unknownWorkload(s.Workload)
	}
	for _, fl := range chatOnlyAxes() {
		if slices.Contains(s.given, fl.Name) {
			return false, exit.Usagef("--%s is a chat flag: add --workload chat", fl.Name)
		}
	}
	return false, nil
}

// ChatSweepRow is one setting of a chat sweep: its values and its drills,
// one per repeat (the repeat's number added to the seed).
type ChatSweepRow struct {
	Setting sweep.Setting
	Configs []chat.Config
}

// ChatGrid is the chat sweep's axes: the policies (agent-defaults unless
// swept: the settings swept apply to it) lead, then the flags given. A
// triage axis that the chat workload does not read is a usage error.
func (s *Sweep) ChatGrid() (sweep.Grid, error) {
	if s.File != "" {
		return sweep.Grid{}, exit.Usagef("drill sweep --workload chat takes its axes from flags only, not -f (yet)")
	}
	chatFlags := map[string]bool{sweep.AxisPolicies: true, "seed": true}
	for _, fl := range chatOnlyAxes() {
		chatFlags[fl.Name] = true
	}
	for _, key := range drillfile.ChatPolicyKeys() {
		chatFlags[drillfile.FlagName(key)] = true // with the triage flags the chat policy reads
	}
	axes := []sweep.RawAxis{{Name: sweep.AxisPolicies, Type: "string", Raw: []string{chat.PresetDefaults}}}
	for _, name := range s.given {
		if !chatFlags[name] {
			return sweep.Grid{}, exit.Usagef("--%s is not a setting of the chat workload", name)
		}
		a := s.axes[name]
		ax := sweep.RawAxis{Name: name, Type: a.typ, Raw: a.raw, List: a.list}
		if name == sweep.AxisPolicies {
			axes[0] = ax
			continue
		}
		axes = append(axes, ax)
	}
	g, err := sweep.BuildGrid(axes, false)
	if err != nil {
		return sweep.Grid{}, exit.UsageError(err)
	}
	return g, nil
}

// PlanChat turns the chat grid into rows of chat drills: each setting's
// values set on a fresh set of drill run's flags and resolved as drill run
// --workload chat resolves them.
func (s *Sweep) PlanChat(g sweep.Grid) ([]ChatSweepRow, error) {
	settings, err := g.Settings()
	if err != nil {
		return nil, exit.UsageError(err)
	}
	if err := s.checkRuns(g, len(settings)); err != nil {
		return nil, err
	}
	rows := make([]ChatSweepRow, 0, len(settings))
	for _, set := range settings {
		cfg, err := chatSettingConfig(set)
		if err != nil {
			return nil, fmt.Errorf("setting %s: %w", set.Flags(), err)
		}
		row := ChatSweepRow{Setting: set}
		for r := range s.Repeat {
			c := cfg
			c.Seed += int64(r)
			row.Configs = append(row.Configs, c)
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// chatSettingConfig is one setting's chat drill.
func chatSettingConfig(set sweep.Setting) (chat.Config, error) {
	fs := pflag.NewFlagSet("sweep", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var cli CLI
	cli.Register(fs)
	var c ChatFlags
	c.Register(fs)
	var policies []string
	fs.StringSliceVar(&policies, sweep.AxisPolicies, nil, "")
	if err := fs.Set("workload", event.WorkloadChat); err != nil {
		return chat.Config{}, err
	}
	for _, a := range set {
		if err := fs.Set(a.Name, a.Value); err != nil {
			return chat.Config{}, exit.Usagef("--%s %s: %v", a.Name, a.Value, err)
		}
	}
	cfgs, err := ChatConfigs(fs, c, policies)
	if err != nil {
		return chat.Config{}, err
	}
	if len(cfgs) != 1 {
		return chat.Config{}, fmt.Errorf("a sweep setting made %d chat drills, want 1", len(cfgs))
	}
	return cfgs[0], nil
}
