package sweeprun

import (
	"io"

	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/cli"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/plan"
)

// Flags are drill sweep's flags: the sweep (plan.Sweep) and how it is
// shown and recorded.
type Flags struct {
	plan.Sweep
	dryRun, json, noTUI bool
	record              string
	force               bool
	clock               cli.Clock
	tables              cli.TableFormat
	shard               cli.ShardFlags
}

// Register adds drill sweep's flags to fs.
func (sf *Flags) Register(fs *pflag.FlagSet) {
	fs.BoolVar(&sf.dryRun, "dry-run", false, "print the grid and its size, check every setting, run nothing")
	fs.BoolVar(&sf.json, "json", false, "print the rows as JSON")
	cli.RegisterTableFormat(fs, &sf.tables)
	fs.StringVar(&sf.record, "record", "", "record every run's journal in this directory (then: drill report DIR/*.jsonl)")
	fs.BoolVar(&sf.force, "force", false, "let --record and -o overwrite journals or a file already there")
	fs.BoolVar(&sf.noTUI, "no-tui", false, "no sweep dashboard: progress on stderr, then the table (the default when stdout is no terminal)")
	cli.RegisterClock(fs, &sf.clock, event.ClockReal)
	sf.Sweep.Register(fs)
	sf.shard.Register(fs, "the table (or --json) to write instead of printing it; with --shard, the shard file to write")
}

// parseArgs parses a shard's command line (args) into fresh flags, on a
// flag set of their own with drill sweep's flags, as drill sweep parses
// its own.
func parseArgs(args []string) (*Flags, error) {
	sf := &Flags{}
	fs := pflag.NewFlagSet("sweep", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	sf.Register(fs)
	if err := fs.Parse(args); err != nil {
		return nil, shardArgsError(args, err)
	}
	return sf, nil
}

// CheckFile checks the drill file at path as drill sweep -f does before
// it runs anything (its sweep: section's axes and values, every setting's
// drills built as drill compare builds them), for drill validate: a file
// validate accepts, sweep -f does not refuse.
func CheckFile(path string) error {
	sf := &Flags{}
	fs := pflag.NewFlagSet("sweep", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	sf.Sweep.Register(fs)
	if err := fs.Set("file", path); err != nil {
		return exit.UsageError(err)
	}
	if _, _, err := sf.Validate(); err != nil {
		return err
	}
	isChat, err := sf.Chat()
	if err != nil {
		return err
	}
	if isChat {
		_, _, err := sf.planChat()
		return err
	}
	_, err = sf.plan(func(string) {})
	return err
}
