package cli

import (
	"context"
	"errors"
	"io"

	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/internal/drillfile"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/plan"
	"github.com/drill-dev/drill/internal/session"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

// WatchFlags are --metrics-listen and --alert-listen, which run, compare,
// fleet and proxy share: the drill's figures served to the team's
// Prometheus, the team's alerts received from its Alertmanager.
type WatchFlags struct{ metrics, alerts string }

// Register adds the two flags to fs.
func (w *WatchFlags) Register(fs *pflag.FlagSet) {
	fs.StringVar(&w.metrics, "metrics-listen", "", "serve the drill's figures as Prometheus metrics on HOST:PORT/metrics while it runs (docs/metrics.md)")
	fs.StringVar(&w.alerts, "alert-listen", "", "receive Alertmanager webhook notifications on HOST:PORT while the drill runs; hypotheses name them as alert.NAME.fired (docs/metrics.md)")
}

// Start starts serving what the flags ask for, or for a flag not given in
// fs the drill file's metrics_listen and alert_listen (file "" for none),
// saying so on stderr. The caller closes the watch (CloseWatch) once its
// drills have ended; a nil watch is none.
func (w WatchFlags) Start(fs *pflag.FlagSet, stderr io.Writer, file, clock string, hyps []scoring.Expr) (*session.Watch, error) {
	cfg := session.WatchConfig{MetricsListen: w.metrics, AlertListen: w.alerts, Clock: clock, Hypotheses: hyps}
	if file != "" {
		df, err := drillfile.Load(file)
		if err != nil {
			return nil, exit.UsageError(err)
		}
		if !fs.Changed("metrics-listen") {
			cfg.MetricsListen = df.MetricsListen
		}
		if !fs.Changed("alert-listen") {
			cfg.AlertListen = df.AlertListen
		}
	}
	return session.StartWatch(cfg, stderr)
}

// CloseWatch stops the watch once the command's drills have ended, and
// returns err, the command's own, with the watch's.
func CloseWatch(w *session.Watch, err error) error {
	return errors.Join(err, w.Close())
}

// Prepared is what drill run and drill compare have before their drills
// start: the runs, their hypotheses and abort conditions, and the watch.
type Prepared struct {
	Configs []workload.Config
	Checks  plan.Expectations
	Watch   *session.Watch
}

// Prepare is what run and compare do before their drills start: plan the
// runs the flags fs ask for (single gets run's note on one drill of a
// file), warn on stderr, check real endpoints on the real clock (the
// preflight), and start serving metrics and receiving alerts.
func Prepare(ctx context.Context, fs *pflag.FlagSet, stderr io.Writer, f *plan.CLI, sel plan.Selection, single io.Writer, clock Clock, wf WatchFlags) (Prepared, error) {
	cfgs, chk, err := f.Plan(fs, sel, single)
	if err != nil {
		return Prepared{Checks: chk}, err
	}
	Warn(stderr, f.Warnings())
	if err := f.Ready(ctx, fs, cfgs, !clock.Virtual(), stderr); err != nil {
		return Prepared{Checks: chk}, err
	}
	watch, err := wf.Start(fs, stderr, f.File(), clock.String(), chk.Hypotheses)
	return Prepared{Configs: cfgs, Checks: chk, Watch: watch}, err
}
