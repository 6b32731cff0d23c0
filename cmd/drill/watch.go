package main

import (
	"errors"
	"io"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/internal/drillfile"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/plan"
	"github.com/drill-dev/drill/internal/session"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

// watchFlags are --metrics-listen and --alert-listen, which run, compare,
// fleet and proxy share: the drill's figures served to the team's
// Prometheus, the team's alerts received from its Alertmanager.
type watchFlags struct{ metrics, alerts string }

func (w *watchFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&w.metrics, "metrics-listen", "", "serve the drill's figures as Prometheus metrics on HOST:PORT/metrics while it runs (docs/metrics.md)")
	fs.StringVar(&w.alerts, "alert-listen", "", "receive Alertmanager webhook notifications on HOST:PORT while the drill runs; hypotheses name them as alert.NAME.fired (docs/metrics.md)")
}

// start starts serving what the flags ask for, or for a flag not given the
// drill file's metrics_listen and alert_listen (file "" for none). The
// caller closes the watch (closeWatch) once its drills have ended; a nil
// watch is none.
func (w watchFlags) start(cmd *cobra.Command, file, clock string, hyps []scoring.Expr) (*session.Watch, error) {
	cfg := session.WatchConfig{MetricsListen: w.metrics, AlertListen: w.alerts, Clock: clock, Hypotheses: hyps}
	if file != "" {
		df, err := drillfile.Load(file)
		if err != nil {
			return nil, exit.UsageError(err)
		}
		if !cmd.Flags().Changed("metrics-listen") {
			cfg.MetricsListen = df.MetricsListen
		}
		if !cmd.Flags().Changed("alert-listen") {
			cfg.AlertListen = df.AlertListen
		}
	}
	return session.StartWatch(cfg, cmd.ErrOrStderr())
}

// closeWatch stops the watch once the command's drills have ended, and
// returns err, the command's own, with the watch's.
func closeWatch(w *session.Watch, err error) error {
	return errors.Join(err, w.Close())
}

// prepare is what run and compare do before their drills start: plan the
// runs the flags ask for (single gets run's note on one drill of a file),
// warn, check real endpoints on the real clock (the preflight), and start
// serving metrics and receiving alerts.
func prepare(cmd *cobra.Command, f *plan.CLI, sel plan.Selection, single io.Writer, clock clockValue, wf watchFlags) ([]workload.Config, plan.Expectations, *session.Watch, error) {
	cfgs, chk, err := f.Plan(cmd.Flags(), sel, single)
	if err != nil {
		return nil, chk, nil, err
	}
	warn(cmd, f.Warnings())
	if err := f.Ready(cmd.Context(), cmd.Flags(), cfgs, !clock.virtual(), cmd.ErrOrStderr()); err != nil {
		return nil, chk, nil, err
	}
	watch, err := wf.start(cmd, f.File(), clock.String(), chk.Hypotheses)
	return cfgs, chk, watch, err
}
