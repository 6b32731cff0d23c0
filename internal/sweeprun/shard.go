package sweeprun

import (
	"fmt"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/cli"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/plan"
	"github.com/drill-dev/drill/internal/session"
	"github.com/drill-dev/drill/internal/sweep"
	"github.com/drill-dev/drill/workload"
)

// shardArgsError is the usage error of a shard's command line that does
// not parse.
func shardArgsError(args []string, err error) error {
	return exit.UsageError(fmt.Errorf("the shard's command line %q: %w", args, err))
}

// fromArgs parses a shard's command line as drill sweep does and plans the
// sweep, checking every setting; it returns the sweep's fingerprint too.
func fromArgs(args []string, warn func(string)) (*Flags, sweepPlan, string, error) {
	sf, err := parseArgs(args)
	if err != nil {
		return nil, sweepPlan{}, "", err
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

// runShard is drill sweep --shard I/N -o FILE: the sweep planned from its
// command line as drill sweep merge plans it, the shard's drills run and
// written with the sweep's fingerprint.
func runShard(env Env, own *Flags) error {
	args := plan.CommandLine(env.Flags, &own.Sweep)
	sf, p, fp, err := fromArgs(args, func(w string) { cli.Warn(env.Err, []string{w}) })
	if err != nil {
		return err
	}
	opts := session.SweepOptions{Virtual: sf.clock.Virtual(), Record: own.record, Force: own.force, Inputs: cli.InputsOf(env.Flags),
		Parallel: own.MaxParallel, Repeat: sf.Repeat, Abort: p.abort, Progress: env.Err, Shard: own.shard.Parsed}
	ran, err := session.RunSweep(env.Ctx, p.rows, p.cfgs, opts)
	if err != nil {
		return err
	}
	return writeShard(env, shardRun{kind: sweep.KindSweep, shard: own.shard, args: args, fingerprint: fp, ran: ran, cfgs: p.cfgs})
}

// shardRun is one shard's drills, run, with what its shard file records.
type shardRun struct {
	kind        string // sweep.KindSweep or sweep.KindRecommend
	shard       cli.ShardFlags
	args        []string // the sweep's command line
	fingerprint string
	ran         session.SweepRan
	cfgs        []workload.Config // every drill of the sweep, the shard's and the others'
}

// writeShard writes the shard file of the run's drills, unless one was
// interrupted (exit 130, nothing written); the exit code is then the
// drills' as for the whole sweep.
func writeShard(env Env, r shardRun) error {
	sh := r.shard
	f := &sweep.ShardFile{Format: sweep.ShardFormat, Kind: r.kind, Version: journal.Version, Shard: sh.Parsed.I, Shards: sh.Parsed.N,
		Fingerprint: r.fingerprint, Args: r.args, Runs: len(r.cfgs), WallS: time.Since(r.ran.Start).Seconds()}
	for k, o := range r.ran.Outcomes {
		if !sh.Parsed.Has(k) {
			continue
		}
		if o.Status == event.StatusInterrupted {
			return exit.ErrInterrupted
		}
		f.Outcomes = append(f.Outcomes, sweep.ShardRun{Run: k, Journal: r.ran.Journals[k], Outcome: o})
	}
	if err := sh.Write(env.Out, f.Write); err != nil {
		return err
	}
	fmt.Fprintf(env.Err, "drill: wrote %s (shard %s, %d of the sweep's %d drills)\n", sh.Output, sh.Parsed, len(f.Outcomes), len(r.cfgs))
	return exit.Worst(session.Errs(r.cfgs, r.ran.Outcomes))
}
