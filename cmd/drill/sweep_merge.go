package main

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/plan"
	"github.com/drill-dev/drill/internal/recommend"
	"github.com/drill-dev/drill/internal/session"
	"github.com/drill-dev/drill/internal/sweep"
)

// mergeFlags are drill sweep merge's flags: where and how the result is
// written.
type mergeFlags struct {
	json, force bool
	tables      tableFormat
	output      string
}

func newSweepMergeCmd() *cobra.Command {
	mf := &mergeFlags{}
	cmd := &cobra.Command{
		Use:   "merge SHARD...",
		Short: "Merge the shard files of a sweep (or drill recommend) into its table, front and recommendation",
		Long: `Merge the N shard files that drill sweep --shard I/N -o FILE (or drill recommend
--shard) wrote into what the sweep run whole prints: the same table, front
and --json, or the same recommendation. Every shard 1..N must be given once,
all with the same fingerprint (the SHA-256 of the sweep's definition); the
sweep is planned again from the command line the shards recorded, so a drill
file or emails file it names must be there, unchanged. Refusals exit 2.
docs/sweeps.md.`,
		Example: `  drill sweep --clock virtual --primary-timeout 1s..5s..1s --shard 1/4 -o shard-1.json   # and 2/4, 3/4, 4/4
  drill sweep merge shard-*.json
  drill sweep merge shard-*.json --json -o sweep.json`,
		Args: usageArgs(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error { return mf.run(cmd, args) },
	}
	fs := cmd.Flags()
	fs.BoolVar(&mf.json, "json", false, "print the result as JSON")
	registerTableFormat(fs, &mf.tables)
	fs.StringVarP(&mf.output, "output", "o", "", "write the result to this file instead of printing it")
	fs.BoolVar(&mf.force, "force", false, "let -o overwrite a file already there")
	return cmd
}

// run is drill sweep merge.
func (mf *mergeFlags) run(cmd *cobra.Command, paths []string) error {
	if err := notInput(cmd, "-o", mf.output, paths...); err != nil {
		return err
	}
	if err := (&shardFlags{output: mf.output}).check(cmd, mf.force); err != nil {
		return err
	}
	files := make([]*sweep.ShardFile, len(paths))
	for i, p := range paths {
		f, err := sweep.ReadShard(p)
		if err != nil {
			return err
		}
		files[i] = f
	}
	m, err := sweep.MergeShards(paths, files)
	if err != nil {
		return err
	}
	ran := session.SweepRan{Outcomes: m.Outcomes, Journals: m.Journals, Start: time.Now().Add(-time.Duration(m.WallS * float64(time.Second)))}
	switch m.Kind {
	case sweep.KindSweep:
		return mf.mergeSweep(cmd, m, ran)
	case sweep.KindRecommend:
		return mf.mergeRecommend(cmd, m, ran)
	}
	return exit.Usagef("%s: shard kind %q (valid: %s, %s)", paths[0], m.Kind, sweep.KindSweep, sweep.KindRecommend)
}

// refuseFingerprint refuses shards whose sweep, planned again here, is
// not the one they ran: a drill file or emails file changed, or another
// drill.
func refuseFingerprint(m *sweep.Merged, fp string) error {
	if fp == m.Fingerprint {
		return nil
	}
	return exit.UsageError(fmt.Errorf("%w: the sweep planned again from the shards' command line has fingerprint %.12s…, the shards %.12s…: a file it reads changed, or this is another drill",
		sweep.ErrShards, fp, m.Fingerprint))
}

// mergeSweep builds and prints a sweep's result from its shards, as drill
// sweep does from its drills.
func (mf *mergeFlags) mergeSweep(cmd *cobra.Command, m *sweep.Merged, ran session.SweepRan) error {
	sf, p, fp, err := sweepFromArgs(m.Args, func(string) {})
	if err != nil {
		return err
	}
	if err := refuseFingerprint(m, fp); err != nil {
		return err
	}
	sortFig, desc, err := sf.Validate()
	if err != nil {
		return err
	}
	res, err := session.BuildSweep(cmd.Context(), p.grid, p.rows, ran, sf.Repeat, sf.clock.virtual())
	if err != nil {
		return err
	}
	sf.json, sf.tables, sf.shard = mf.json, mf.tables, shardFlags{output: mf.output}
	return firstErr(sf.print(cmd, res, sortFig, desc), exit.Worst(session.Errs(p.cfgs, ran.Outcomes)))
}

// mergeRecommend builds and prints a recommendation from its shards, as
// drill recommend does from its drills.
func (mf *mergeFlags) mergeRecommend(cmd *cobra.Command, m *sweep.Merged, ran session.SweepRan) error {
	rf, s, fp, err := recommendFromArgs(cmd, m.Args)
	if err != nil {
		return err
	}
	defer s.Close()
	if err := refuseFingerprint(m, fp); err != nil {
		return err
	}
	res, err := s.Build(cmd.Context(), ran)
	if err != nil {
		return err
	}
	rf.json, rf.shard = mf.json, shardFlags{output: mf.output}
	return rf.print(cmd, res)
}

// recommendFromArgs parses a shard's command line as drill recommend does
// and plans the search. Close the search when done.
func recommendFromArgs(cmd *cobra.Command, args []string) (*recommendFlags, *recommend.Search, string, error) {
	rf := &recommendFlags{}
	c := recommendCommand(rf)
	c.Flags().SetOutput(io.Discard)
	if err := c.Flags().Parse(args); err != nil {
		return nil, nil, "", exit.UsageError(fmt.Errorf("the shard's command line %q: %w", args, err))
	}
	c.SetErr(cmd.ErrOrStderr())
	opts, err := rf.options(c)
	if err != nil {
		return nil, nil, "", err
	}
	s, err := recommend.PlanSearch(opts)
	if err != nil {
		return nil, nil, "", err
	}
	g, rows, cfgs, o := s.Definition()
	fp, err := plan.Fingerprint(plan.Definition{Kind: sweep.KindRecommend, Args: args, Clock: string(rf.clock), Grid: g, Configs: cfgs, Options: o}, rows)
	if err != nil {
		s.Close()
		return nil, nil, "", err
	}
	return rf, s, fp, nil
}

// runRecommendShard is drill recommend --shard I/N -o FILE: the search
// planned from its command line as drill sweep merge plans it, the
// shard's drills run and written with the search's fingerprint.
func runRecommendShard(cmd *cobra.Command, own *recommendFlags) error {
	args := plan.CommandLine(cmd.Flags(), nil)
	_, s, fp, err := recommendFromArgs(cmd, args)
	if err != nil {
		return err
	}
	defer s.Close()
	ran, err := s.Run(cmd.Context(), own.shard.parsed)
	if err != nil {
		return err
	}
	_, _, cfgs, _ := s.Definition()
	return writeShard(cmd, sweep.KindRecommend, own.shard, args, fp, ran, cfgs)
}
