package sweeprun

import (
	"fmt"
	"time"

	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/internal/cli"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/session"
	"github.com/drill-dev/drill/internal/sweep"
)

// MergeFlags are drill sweep merge's flags: where and how the result is
// written.
type MergeFlags struct {
	json, force bool
	tables      cli.TableFormat
	output      string
}

// Register adds drill sweep merge's flags to fs.
func (mf *MergeFlags) Register(fs *pflag.FlagSet) {
	fs.BoolVar(&mf.json, "json", false, "print the result as JSON")
	cli.RegisterTableFormat(fs, &mf.tables)
	fs.StringVarP(&mf.output, "output", "o", "", "write the result to this file instead of printing it")
	fs.BoolVar(&mf.force, "force", false, "let -o overwrite a file already there")
}

// Merge is drill sweep merge of the shard files at paths: the sweep or the
// search they came from planned again from their command line, and its
// result printed as the whole run prints it.
func Merge(env Env, mf *MergeFlags, paths []string) error {
	if err := cli.NotInput(env.Flags, "-o", mf.output, paths...); err != nil {
		return err
	}
	if err := (&cli.ShardFlags{Output: mf.output}).Check(cli.InputsOf(env.Flags), mf.force); err != nil {
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
		return mf.mergeSweep(env, m, ran)
	case sweep.KindRecommend:
		return mf.mergeRecommend(env, m, ran)
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
func (mf *MergeFlags) mergeSweep(env Env, m *sweep.Merged, ran session.SweepRan) error {
	sf, p, fp, err := fromArgs(m.Args, func(string) {})
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
	res, err := session.BuildSweep(env.Ctx, p.grid, p.rows, ran, sf.Repeat, sf.clock.Virtual())
	if err != nil {
		return err
	}
	sf.json, sf.tables, sf.shard = mf.json, mf.tables, cli.ShardFlags{Output: mf.output}
	return cli.FirstErr(sf.print(env.Out, res, sortFig, desc), exit.Worst(session.Errs(p.cfgs, ran.Outcomes)))
}

// mergeRecommend builds and prints a recommendation from its shards, as
// drill recommend does from its drills.
func (mf *MergeFlags) mergeRecommend(env Env, m *sweep.Merged, ran session.SweepRan) error {
	rf, s, fp, err := recommendFromArgs(env, m.Args)
	if err != nil {
		return err
	}
	defer s.Close()
	if err := refuseFingerprint(m, fp); err != nil {
		return err
	}
	res, err := s.Build(env.Ctx, ran)
	if err != nil {
		return err
	}
	rf.json, rf.shard = mf.json, cli.ShardFlags{Output: mf.output}
	return rf.print(env.Out, res)
}
