package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/drill-dev/drill/internal/drills"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/session"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

func newCompareCmd() *cobra.Command {
	var (
		f                 drillFlags
		df                fileFlags
		outages, policies []string
		jsonOut, force    bool
		record            string
		clock             clockValue
	)
	cmd := &cobra.Command{
		Use:   "compare",
		Short: "Run every outage × policy combination at once and print the chapter's table",
		Long: `Run every combination of outage and policy concurrently, each with its own fake
model and clients, so the runs take about as long as one. Prints the table as
Markdown, or a JSON array of run summaries with --json (each with the
overrides it ran with). --record DIR refuses to overwrite journals already
there unless --force is given.`,
		Example: `  drill compare
  drill compare --outages hang --policies breaker,fail-fast --primary-timeout 2s
  drill compare -f examples/chapter.yaml`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			outages, err := f.replay.outages(cmd.Flags(), outages)
			if err != nil {
				return err
			}
			cfgs, chk, err := df.plan(cmd.Flags(), &f, outages, policies, "outages", "policies", nil)
			if err != nil {
				return err
			}
			f.warn(cmd.ErrOrStderr())
			if err := f.cost.ready(cmd, cfgs, !clock.virtual()); err != nil {
				return err
			}
			if clock.virtual() {
				return compareVirtual(cmd, cfgs, chk, jsonOut, record)
			}
			return compare(cmd, cfgs, chk, jsonOut, record, force)
		},
	}
	fs := cmd.Flags()
	fs.StringSliceVar(&outages, "outages", []string{"busy", "hang"}, "outage kinds to run: "+strings.Join(workload.OutageKinds(), ", "))
	fs.StringSliceVar(&policies, "policies", []string{"primary-only", "fallback", "breaker", "fail-fast"}, "policy presets to run")
	fs.BoolVar(&jsonOut, "json", false, "print a JSON array of run summaries")
	fs.StringVar(&record, "record", "", "record one journal per run in this directory, named after outage and policy")
	fs.BoolVar(&force, "force", false, "let --record overwrite journals already in the directory")
	registerClock(fs, &clock)
	f.register(fs)
	df.register(fs)
	return cmd
}

// compare runs the drills concurrently and prints their summaries in the
// order given; with recordDir, each run is recorded as a journal there.
func compare(cmd *cobra.Command, cfgs []workload.Config, chk checks, asJSON bool, recordDir string, force bool) error {
	if recordDir != "" {
		if err := journal.PrepareDir(recordDir); err != nil {
			return err
		}
		if !force {
			for i, cfg := range cfgs {
				if err := journal.RefuseOverwrite(journal.RunPath(recordDir, i, cfg.Outage, cfg.Policy.Name)); err != nil {
					return err
				}
			}
		}
	}
	if len(cfgs) == 0 {
		return exit.Usagef("nothing to compare: --outages and --policies must each name at least one")
	}
	for _, w := range cfgs[0].Warnings() {
		fmt.Fprintln(cmd.ErrOrStderr(), "drill: warning:", w)
	}
	runs := make([]*workload.Run, len(cfgs))
	recs := make([]*journal.Writer, len(cfgs))
	for i, cfg := range cfgs {
		r, err := session.Start(cmd.Context(), cfg)
		if err == nil && recordDir != "" {
			recs[i], err = session.Record(journal.RunPath(recordDir, i, cfg.Outage, cfg.Policy.Name), r)
			if err != nil {
				r.Stop()
				<-r.Done()
			}
		}
		if err != nil {
			for j, started := range runs[:i] {
				started.Stop()
				status := started.Wait()
				_ = session.Finish(recs[j], session.Summarize(started), status, nil) // the start error is the one to report
			}
			return exit.UsageError(err)
		}
		runs[i] = r
	}
	for _, r := range runs {
		// The guard aborts through the run's log; the fold reads the reason.
		go session.Guard(r, chk.abort, session.GuardInterval)
	}
	stopProgress := showCompareProgress(cmd.ErrOrStderr(), runs)
	sums := make([]scoring.Summary, len(runs))
	statuses := make([]string, len(runs))
	var recErrs []error
	var wg sync.WaitGroup
	var mu sync.Mutex
	for i, r := range runs {
		wg.Go(func() {
			status := r.Wait()
			s := session.Summarize(r)
			err := finishJudged(recs[i], s, status, chk)
			mu.Lock()
			defer mu.Unlock()
			sums[i], statuses[i] = s, status
			if err != nil {
				recErrs = append(recErrs, err)
			}
		})
	}
	wg.Wait()
	stopProgress()
	judgedErr := writeJudged(cmd, sums, statuses, chk, asJSON)
	if err := errors.Join(recErrs...); err != nil {
		return err
	}
	return judgedErr
}

// showCompareProgress shows the progress of the runs' answered emails on w
// (startProgress: a bar with ETA on a terminal, a line every few seconds
// otherwise) until the returned stop is called.
func showCompareProgress(w io.Writer, runs []*workload.Run) (stop func()) {
	total := 0
	progress := drills.NewProgress(len(runs))
	for i, r := range runs {
		total += r.Config().Emails
		progress.Started(i, r)
	}
	return session.StartProgress(w, "compare", "emails", total, progress.Done)
}
