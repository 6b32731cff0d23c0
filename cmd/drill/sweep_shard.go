package main

import (
	"bytes"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/outfile"
	"github.com/drill-dev/drill/internal/plan"
	"github.com/drill-dev/drill/internal/session"
	"github.com/drill-dev/drill/internal/sweep"
	"github.com/drill-dev/drill/workload"
)

// shardFlags are --shard and -o of drill sweep and drill recommend.
type shardFlags struct {
	shard  string
	output string
	parsed sweep.Shard
}

func (s *shardFlags) register(fs *pflag.FlagSet, output string) {
	fs.StringVar(&s.shard, "shard", "", "run only shard I of N of the drills, I/N (e.g. 2/4; run k goes to shard k mod N + 1), and write them to -o for drill sweep merge")
	fs.StringVarP(&s.output, "output", "o", "", output)
}

// check parses --shard, requires -o with it and refuses an -o file
// outfile.Check refuses.
func (s *shardFlags) check(cmd *cobra.Command, force bool) error {
	if s.shard != "" {
		var err error
		if s.parsed, err = sweep.ParseShard(s.shard); err != nil {
			return err
		}
		if s.output == "" {
			return exit.Usagef("--shard %s needs -o FILE: the shard file drill sweep merge reads", s.shard)
		}
	}
	return outfile.Check("-o", s.output, force, inputsOf(cmd))
}

// write writes what fn writes to -o (whole or not at all), or to stdout
// without -o.
func (s *shardFlags) write(cmd *cobra.Command, fn func(io.Writer) error) error {
	if s.output == "" {
		return fn(cmd.OutOrStdout())
	}
	var b bytes.Buffer
	if err := fn(&b); err != nil {
		return err
	}
	return outfile.WriteWhole(s.output, b.Bytes())
}

// sweepFromArgs parses a shard's command line as drill sweep does and
// plans the sweep, checking every setting.
func sweepFromArgs(args []string, warn func(string)) (*sweepFlags, sweepPlan, string, error) {
	sf := &sweepFlags{}
	c := sweepCommand(sf)
	c.Flags().SetOutput(io.Discard)
	if err := c.Flags().Parse(args); err != nil {
		return nil, sweepPlan{}, "", exit.UsageError(fmt.Errorf("the shard's command line %q: %w", args, err))
	}
	if _, _, err := sf.Validate(); err != nil {
		return nil, sweepPlan{}, "", err
	}
	p, err := sf.plan(warn)
	if err != nil {
		return nil, sweepPlan{}, "", err
	}
	fp, err := plan.Fingerprint(plan.Definition{Kind: sweep.KindSweep, Args: args, Clock: string(sf.clock), Grid: p.grid, Configs: p.cfgs}, p.rows)
	return sf, p, fp, err
}

// runSweepShard is drill sweep --shard I/N -o FILE: the sweep planned from
// its command line as drill sweep merge plans it, the shard's drills run
// and written with the sweep's fingerprint.
func runSweepShard(cmd *cobra.Command, own *sweepFlags) error {
	args := plan.CommandLine(cmd.Flags(), &own.Sweep)
	sf, p, fp, err := sweepFromArgs(args, func(w string) { warn(cmd, []string{w}) })
	if err != nil {
		return err
	}
	opts := session.SweepOptions{Virtual: sf.clock.virtual(), Record: own.record, Force: own.force, Inputs: inputsOf(cmd),
		Parallel: own.MaxParallel, Repeat: sf.Repeat, Abort: p.abort, Progress: cmd.ErrOrStderr(), Shard: own.shard.parsed}
	ran, err := session.RunSweep(cmd.Context(), p.rows, p.cfgs, opts)
	if err != nil {
		return err
	}
	return writeShard(cmd, sweep.KindSweep, own.shard, args, fp, ran, p.cfgs)
}

// writeShard writes the shard file of ran's drills, unless one was
// interrupted (exit 130, nothing written); the exit code is then the
// drills' as for the whole sweep.
func writeShard(cmd *cobra.Command, kind string, sh shardFlags, args []string, fp string, ran session.SweepRan, cfgs []workload.Config) error {
	f := &sweep.ShardFile{Format: sweep.ShardFormat, Kind: kind, Version: journal.Version, Shard: sh.parsed.I, Shards: sh.parsed.N,
		Fingerprint: fp, Args: args, Runs: len(cfgs), WallS: time.Since(ran.Start).Seconds()}
	for k, o := range ran.Outcomes {
		if !sh.parsed.Has(k) {
			continue
		}
		if o.Status == event.StatusInterrupted {
			return exit.ErrInterrupted
		}
		f.Outcomes = append(f.Outcomes, sweep.ShardRun{Run: k, Journal: ran.Journals[k], Outcome: o})
	}
	if err := sh.write(cmd, f.Write); err != nil {
		return err
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "drill: wrote %s (shard %s, %d of the sweep's %d drills)\n", sh.output, sh.parsed, len(f.Outcomes), len(cfgs))
	return exit.Worst(session.Errs(cfgs, ran.Outcomes))
}
