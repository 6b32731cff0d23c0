package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

func newRunCmd() *cobra.Command {
	var (
		f              drillFlags
		outage, policy string
		jsonOut, noTUI bool
		record         string
		clock          clockValue
		speed          float64
	)
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Run one drill: an outage against one policy",
		Long: `Run one drill. With a terminal on stdout it shows the live dashboard; with
--no-tui, --json or a pipe it writes a progress line a second to stderr and the
summary to stdout (a table, or JSON with --json).`,
		Example: `  drill run --outage hang --policy fail-fast
  drill run --outage busy --policy breaker --no-tui --json
  drill run --outage hang --policy breaker --primary-timeout 3s --primary-retries 0`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := f.config(cmd.Flags(), outage, policy)
			if err != nil {
				return err
			}
			opts := runOptions{json: jsonOut, tui: !noTUI && !jsonOut && stdoutIsTerminal(), record: record}
			if clock.virtual() {
				return runVirtual(cmd, cfg, opts, speed)
			}
			return runDrill(cmd, cfg, opts)
		},
	}
	d := workload.DefaultConfig()
	fs := cmd.Flags()
	fs.StringVar(&outage, "outage", d.Outage, "outage kind: busy, hang or none")
	fs.StringVar(&policy, "policy", d.Policy.Name, "policy preset: primary-only, backup-only, fallback, breaker, fail-fast")
	fs.BoolVar(&jsonOut, "json", false, "print the summary as JSON (implies --no-tui)")
	fs.BoolVar(&noTUI, "no-tui", false, "plain progress lines and summary instead of the dashboard")
	fs.StringVar(&record, "record", "", "record the drill as a journal (JSON Lines) in this file")
	registerClock(fs, &clock)
	fs.Float64Var(&speed, "speed", 1, "with --clock virtual on a terminal: speed of the replay dashboard that shows the finished run (1: as live)")
	f.register(fs)
	return cmd
}

// runOptions say how a drill is shown.
type runOptions struct {
	json   bool
	tui    bool
	record string // journal path, or "" for none
}

// runDrill runs one drill to its end and prints its summary.
func runDrill(cmd *cobra.Command, cfg workload.Config, opts runOptions) error {
	ctx := cmd.Context()
	run, err := workload.Start(ctx, cfg)
	if err != nil {
		return usageError{err}
	}
	// The journal gets its summary line as soon as the run ends, even while
	// the dashboard stays open on the final state.
	recorded := make(chan error, 1)
	if opts.record == "" {
		recorded <- nil
	} else {
		rec, err := startRecording(opts.record, run)
		if err != nil {
			run.Stop()
			<-run.Done()
			return err
		}
		go func() {
			sum, status, _ := run.Wait()
			recorded <- finishRecording(rec, sum, status)
		}()
	}
	if opts.tui {
		if err := runDashboard(ctx, run); err != nil {
			run.Stop()
			return errors.Join(fmt.Errorf("dashboard: %w", err), <-recorded)
		}
	} else {
		writeProgress(run, cmd.ErrOrStderr())
	}
	sum, status, err := run.Wait()
	if err != nil {
		return err
	}
	if err := <-recorded; err != nil {
		return err
	}
	if err := printSummary(cmd.OutOrStdout(), sum, opts.json); err != nil {
		return err
	}
	if !opts.json {
		printFailedCalls(cmd.OutOrStdout(), run.Log().Events())
	}
	if status == event.StatusInterrupted {
		return errInterrupted
	}
	return nil
}

// writeProgress writes one line a second until the run ends: elapsed, sent,
// answered, breaker state, calls to the primary.
func writeProgress(run *workload.Run, w io.Writer) {
	cur := run.Log().Cursor()
	p := newProgress(run.Config())
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-run.Done():
			p.add(cur.Poll())
			fmt.Fprintln(w, p.line(time.Since(run.Log().Start())))
			return
		case <-tick.C:
			p.add(cur.Poll())
			fmt.Fprintln(w, p.line(time.Since(run.Log().Start())))
		}
	}
}

// progress is the progress line: the run's fold plus the primary
// breaker's current state.
type progress struct {
	emails  int
	fold    *scoring.Fold
	breaker string
}

func newProgress(cfg workload.Config) *progress {
	p := &progress{emails: cfg.Emails, fold: scoring.NewFold(), breaker: "none"}
	if cfg.Policy.Primary.Breaker != nil {
		p.breaker = "closed"
	}
	return p
}

func (p *progress) add(evs []event.Event) {
	for _, e := range evs {
		p.fold.Add(e)
		if e.Kind == event.BreakerChange && e.Breaker != nil && e.Breaker.Name == event.ServedPrimary {
			p.breaker = e.Breaker.To
		}
	}
}

func (p *progress) line(elapsed time.Duration) string {
	calls := 0
	for _, n := range p.fold.AttemptsPerSecond(event.ServedPrimary) {
		calls += n
	}
	return fmt.Sprintf("%6.1fs  sent %d/%d  answered %d  breaker %s  calls to primary %d",
		elapsed.Seconds(), p.fold.Sent(), p.emails, p.fold.Served().Total(), p.breaker, calls)
}

// printSummary prints a run summary as a table, or as JSON.
func printSummary(w io.Writer, s scoring.Summary, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(s)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	row := func(k, v string) { fmt.Fprintf(tw, "%s\t%s\n", k, v) }
	row("outage", s.Outage)
	row("policy", s.Policy)
	row("time-limit scope", s.TimeLimitScope)
	row("served (primary/backup/canned/error)", fmt.Sprintf("%d / %d / %d / %d of %d",
		s.Served.Primary, s.Served.Backup, s.Served.Canned, s.Served.Error, s.Emails))
	row("all 4 right", fmt.Sprintf("%.0f%% (%.0f–%.0f%%)", 100*s.All4Right, 100*s.All4RightCI95[0], 100*s.All4RightCI95[1]))
	row("wait during outage (median / p95)", seconds(s.MedianWaitOutageS)+" / "+seconds(s.P95WaitOutageS))
	row(fmt.Sprintf("email %d", s.Followed.Email), followed(s.Followed))
	row("calls to the broken model, outage", fmt.Sprint(s.CallsToBrokenOutage))
	row("breaker first open (after outage start)", seconds(s.BreakerFirstOpenS))
	row("breaker opens", fmt.Sprint(s.BreakerOpens))
	row("primary back (after outage end)", seconds(s.PrimaryBackS))
	row("wall time", fmt.Sprintf("%.1f s", s.WallS))
	return tw.Flush()
}

// printFailedCalls lists the calls that did not answer, by rung and outcome
// (connection errors against an unreachable endpoint show up here).
func printFailedCalls(w io.Writer, events []event.Event) {
	fold := scoring.NewFold()
	for _, e := range events {
		fold.Add(e)
	}
	writeFailedCalls(w, fold.FailedCalls())
}

// writeFailedCalls lists failed calls counted per rung and outcome.
func writeFailedCalls(w io.Writer, failed map[string]map[event.Outcome]int) {
	for _, rung := range slices.Sorted(maps.Keys(failed)) {
		var parts []string
		for _, o := range slices.Sorted(maps.Keys(failed[rung])) {
			parts = append(parts, fmt.Sprintf("%s ×%d", o, failed[rung][o]))
		}
		fmt.Fprintf(w, "calls to %s that did not answer: %s\n", rung, strings.Join(parts, ", "))
	}
}

func seconds(v *float64) string {
	if v == nil {
		return "–"
	}
	return fmt.Sprintf("%.1f s", *v)
}

func followed(f scoring.Followed) string {
	switch {
	case f.SentS == nil:
		return "not sent"
	case f.WaitS == nil:
		return fmt.Sprintf("sent at %.1f s, never answered", *f.SentS)
	case f.ServedBy == event.ServedError:
		return fmt.Sprintf("error, %.1f s (sent at %.1f s)", *f.WaitS, *f.SentS)
	}
	return fmt.Sprintf("%s, %.1f s (sent at %.1f s)", f.ServedBy, *f.WaitS, *f.SentS)
}
