package main

import (
	"encoding/json"
	"errors"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/journal"
	"github.com/drill-dev/drill/report"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

func newCompareCmd() *cobra.Command {
	var (
		f                 drillFlags
		outages, policies []string
		jsonOut           bool
		record            string
		clock             clockValue
	)
	cmd := &cobra.Command{
		Use:   "compare",
		Short: "Run every outage × policy combination at once and print the chapter's table",
		Long: `Run every combination of outage and policy concurrently, each with its own fake
model and clients, so the runs take about as long as one. Prints the table as
Markdown, or a JSON array of run summaries with --json.`,
		Example: `  drill compare
  drill compare --outages hang --policies breaker,fail-fast --primary-timeout 2s`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			var cfgs []workload.Config
			for _, o := range outages {
				for _, p := range policies {
					cfg, err := f.config(cmd.Flags(), strings.TrimSpace(o), strings.TrimSpace(p))
					if err != nil {
						return err
					}
					cfgs = append(cfgs, cfg)
				}
			}
			if clock.virtual() {
				return compareVirtual(cmd, cfgs, jsonOut, record)
			}
			return compare(cmd, cfgs, jsonOut, record)
		},
	}
	fs := cmd.Flags()
	fs.StringSliceVar(&outages, "outages", []string{"busy", "hang"}, "outage kinds to run (busy, hang, none)")
	fs.StringSliceVar(&policies, "policies", []string{"primary-only", "fallback", "breaker", "fail-fast"}, "policy presets to run")
	fs.BoolVar(&jsonOut, "json", false, "print a JSON array of run summaries")
	fs.StringVar(&record, "record", "", "record one journal per run in this directory, named after outage and policy")
	registerClock(fs, &clock)
	f.register(fs)
	return cmd
}

// compare runs the drills concurrently and prints their summaries in the
// order given; with recordDir, each run is recorded as a journal there.
func compare(cmd *cobra.Command, cfgs []workload.Config, asJSON bool, recordDir string) error {
	ctx := cmd.Context()
	if recordDir != "" {
		if err := prepareRecordDir(recordDir); err != nil {
			return err
		}
	}
	runs := make([]*workload.Run, len(cfgs))
	recs := make([]*journal.Writer, len(cfgs))
	for i, cfg := range cfgs {
		r, err := workload.Start(ctx, cfg)
		if err == nil && recordDir != "" {
			recs[i], err = startRecording(journalPath(recordDir, i, cfg.Outage, cfg.Policy.Name), r)
			if err != nil {
				r.Stop()
				<-r.Done()
			}
		}
		if err != nil {
			for j, started := range runs[:i] {
				started.Stop()
				s, status, _ := started.Wait()
				_ = finishRecording(recs[j], s, status) // the start error is the one to report
			}
			return usageError{err}
		}
		runs[i] = r
	}
	stopProgress := showCompareProgress(cmd.ErrOrStderr(), runs)
	sums := make([]scoring.Summary, len(runs))
	interrupted := false
	var recErrs []error
	var wg sync.WaitGroup
	var mu sync.Mutex
	for i, r := range runs {
		wg.Go(func() {
			s, status, _ := r.Wait()
			err := finishRecording(recs[i], s, status)
			mu.Lock()
			defer mu.Unlock()
			sums[i] = s
			interrupted = interrupted || status == event.StatusInterrupted
			if err != nil {
				recErrs = append(recErrs, err)
			}
		})
	}
	wg.Wait()
	stopProgress()
	if err := writeComparison(cmd.OutOrStdout(), sums, asJSON); err != nil {
		return err
	}
	if err := errors.Join(recErrs...); err != nil {
		return err
	}
	if interrupted {
		return errInterrupted
	}
	return nil
}

// writeComparison prints the runs' summaries as the Markdown table, or as a
// JSON array.
func writeComparison(out io.Writer, sums []scoring.Summary, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(sums)
	}
	return report.WriteSummaryTable(out, sums)
}

// showCompareProgress draws the progress bar of the runs' answered emails
// on w (when it is a terminal) until the returned stop is called.
func showCompareProgress(w io.Writer, runs []*workload.Run) (stop func()) {
	total := 0
	cursors := make([]*event.Cursor, len(runs))
	for i, r := range runs {
		total += r.Config().Emails
		cursors[i] = r.Log().Cursor()
	}
	update, stopBar := newCompareProgress(w, total)
	quit, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(200 * time.Millisecond)
		defer tick.Stop()
		done := 0
		for {
			select {
			case <-quit:
				return
			case <-tick.C:
			}
			for _, c := range cursors {
				for _, e := range c.Poll() {
					if e.Kind == event.EmailDone {
						done++
					}
				}
			}
			update(done)
		}
	}()
	return func() {
		close(quit)
		<-finished
		stopBar()
	}
}
