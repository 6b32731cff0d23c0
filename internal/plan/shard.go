package plan

import (
	"slices"

	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/sweep"
	"github.com/drill-dev/drill/workload"
)

// ShardLocal are the flags a shard's recorded command line leaves out:
// where its own output goes and how it runs, not what the sweep is.
var ShardLocal = []string{"shard", "output", "force", "no-tui", "json", "format", "record", "max-parallel", "dry-run"}

// CommandLine is the command line fs parsed, as flags that parse again to
// the same values (shardLocal left out): axes first, in the order given
// (the grid's order), then the other flags changed.
func CommandLine(fs *pflag.FlagSet, axes *Sweep) []string {
	var args []string
	if axes != nil {
		args = axes.AxisArgs()
	}
	fs.Visit(func(f *pflag.Flag) {
		if slices.Contains(ShardLocal, f.Name) || (axes != nil && axes.IsAxis(f.Name)) {
			return
		}
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			for _, v := range sv.GetSlice() {
				args = append(args, "--"+f.Name+"="+v)
			}
			return
		}
		args = append(args, "--"+f.Name+"="+f.Value.String())
	})
	return args
}

// Definition is what a sweep's fingerprint covers: a shard of one sweep
// and a shard of another differ in at least one of these.
type Definition struct {
	Kind     string            `json:"kind"`
	Version  string            `json:"version"`
	Args     []string          `json:"args"`
	Clock    string            `json:"clock"`
	Grid     sweep.Grid        `json:"grid"`
	Settings []string          `json:"settings"`
	Configs  []workload.Config `json:"configs"`
	Options  any               `json:"options,omitempty"`
}

// Fingerprint is the SHA-256 of the sweep's definition.
func Fingerprint(d Definition, rows SweepRows) (string, error) {
	d.Version = journal.Version
	for _, r := range rows {
		d.Settings = append(d.Settings, r.Setting.Flags())
	}
	cfgs := slices.Clone(d.Configs)
	for i := range cfgs {
		cfgs[i].DrillFile = "" // a temporary file's name; its content is in the rest
	}
	d.Configs = cfgs
	return sweep.Fingerprint(d)
}
