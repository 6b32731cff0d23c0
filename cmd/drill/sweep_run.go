package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/report"
	"github.com/drill-dev/drill/internal/session"
	"github.com/drill-dev/drill/internal/sweep"
	"github.com/drill-dev/drill/internal/vclock"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/tui"
	"github.com/drill-dev/drill/workload"
)

// sweepRecordedConfig is a sweep run's journal header config: the run's
// configuration and which setting and repeat of the sweep it is.
type sweepRecordedConfig struct {
	session.RecordedConfig
	Sweep report.SweepTag `json:"sweep"`
}

// sweepHeaders are the journal headers of the runs to record (nil for the
// others).
func sweepHeaders(rows []sweepRow, cfgs []workload.Config, paths []string, repeats int) ([]*journal.Header, error) {
	out := make([]*journal.Header, len(cfgs))
	now := time.Now()
	for i, row := range rows {
		for r, k := range row.runs {
			if paths[k] == "" {
				continue
			}
			c := cfgs[k]
			h, err := journal.NewHeader(sweepRecordedConfig{
				RecordedConfig: session.RecordedConfig{Config: c, CeilingNS: c.Ceiling()},
				Sweep:          report.SweepTag{Setting: i + 1, Settings: len(rows), Flags: row.setting.Flags(), Repeat: r + 1, Repeats: repeats},
			}, now)
			if err != nil {
				return nil, fmt.Errorf("recording %s: %w", paths[k], err)
			}
			h.Clock = event.ClockReal
			out[k] = &h
		}
	}
	return out, nil
}

// sweepReal runs the drills in real time (session.Batch), showing their
// progress on stderr and calling onStart (if not nil) with each run as it
// starts.
func sweepReal(ctx context.Context, stderr io.Writer, cfgs []workload.Config, paths []string, headers []*journal.Header, parallel int, abort []scoring.Expr, onStart func(int, *workload.Run)) []vclock.Outcome {
	jobs := make([]vclock.Job, len(cfgs))
	for i, c := range cfgs {
		jobs[i] = vclock.Job{Config: c, Journal: paths[i], Header: headers[i]}
	}
	outs, _ := session.Batch(ctx, jobs, session.BatchOptions{Parallel: parallel, Abort: abort, OnStart: onStart, Progress: stderr, Label: "sweep"})
	return outs
}

// sweepDashboard runs the drills in real time under the sweep dashboard
// (tui.Sweep) on the terminal. Quitting it while runs go stops them
// (interrupted, exit 130); once they are all done it waits for the user to
// quit, and the table is printed after.
func sweepDashboard(ctx context.Context, rows []sweepRow, cfgs []workload.Config, paths []string, headers []*journal.Header, parallel int, abort []scoring.Expr) ([]vclock.Outcome, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var mu sync.Mutex
	logs := make([]*event.Log, len(cfgs))
	var outs []vclock.Outcome
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		outs = sweepReal(ctx, io.Discard, cfgs, paths, headers, parallel, abort, func(i int, r *workload.Run) {
			mu.Lock()
			logs[i] = r.Log()
			mu.Unlock()
		})
	}()
	src := tui.SweepSource{Labels: rowLabels(rows), Logs: func(row int) []*event.Log {
		mu.Lock()
		defer mu.Unlock()
		var out []*event.Log
		for _, k := range rows[row].runs {
			if logs[k] != nil {
				out = append(out, logs[k])
			}
		}
		return out
	}}
	err := tui.Sweep(ctx, src, tui.Options{Output: os.Stdout})
	cancel() // quitting early stops the runs still going
	<-finished
	if err != nil && !errors.Is(err, context.Canceled) {
		return outs, err
	}
	return outs, nil
}

// jobPaths are the jobs' journal paths.
func jobPaths(jobs []vclock.Job) []string {
	out := make([]string, len(jobs))
	for i, j := range jobs {
		out[i] = j.Journal
	}
	return out
}

// rowLabels names each row by the axes whose values differ between rows.
func rowLabels(rows []sweepRow) []string {
	settings := make([]sweep.Setting, len(rows))
	for i, r := range rows {
		settings[i] = r.setting
	}
	return sweep.Labels(settings)
}
