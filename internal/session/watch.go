package session

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/alerts"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/listen"
	"github.com/drill-dev/drill/internal/metrics"
	"github.com/drill-dev/drill/scoring"
)

// WatchConfig says where a command serves its drills' metrics and receives
// the team's alerts: --metrics-listen, --alert-listen and the drill file's
// metrics_listen and alert_listen.
type WatchConfig struct {
	// MetricsListen serves Prometheus metrics on /metrics ("" for none).
	MetricsListen string
	// AlertListen receives Alertmanager webhook notifications ("" for none).
	AlertListen string
	// Clock is the drills' clock: the virtual clock is refused.
	Clock string
	// Hypotheses are served live as drill_hypothesis_passing.
	Hypotheses []scoring.Expr
}

// Watch serves the figures of the drills a command runs as Prometheus
// metrics and logs the team's alerts into them, for the length of the
// command: every run followed is one more set of metrics (its outage and
// policy, and the labels given, tell them apart) and one more run the
// alerts reach. A nil *Watch (neither address given) does nothing.
type Watch struct {
	hyps     []scoring.Expr
	receiver *alerts.Receiver
	servers  []*listen.Server
	out      io.Writer

	set       metrics.Set // every followed run's exporter
	mu        sync.Mutex
	followers sync.WaitGroup
	errs      []error
}

// StartWatch starts listening on the addresses cfg gives and says so on
// out. With neither it returns nil (no watch). A virtual clock, or an
// address that cannot be listened on, is a usage error (exit 2).
func StartWatch(cfg WatchConfig, out io.Writer) (*Watch, error) {
	if cfg.MetricsListen == "" && cfg.AlertListen == "" {
		return nil, nil
	}
	if cfg.MetricsListen != "" {
		if err := metrics.CheckClock(cfg.Clock); err != nil {
			return nil, err
		}
	}
	if cfg.AlertListen != "" {
		if err := alerts.CheckClock(cfg.Clock); err != nil {
			return nil, err
		}
	}
	w := &Watch{hyps: cfg.Hypotheses, receiver: alerts.NewReceiver(), out: out}
	if cfg.MetricsListen != "" {
		s, err := listen.Listen(cfg.MetricsListen, w.set.Handler())
		if err != nil {
			return nil, exit.UsageError(fmt.Errorf("--metrics-listen: %w", err))
		}
		w.servers = append(w.servers, s)
		fmt.Fprintf(out, "drill: metrics on http://%s%s\n", s.Addr(), metrics.Path)
	}
	if cfg.AlertListen != "" {
		s, err := listen.Listen(cfg.AlertListen, w.receiver)
		if err != nil {
			return nil, errors.Join(exit.UsageError(fmt.Errorf("--alert-listen: %w", err)), w.closeServers())
		}
		w.servers = append(w.servers, s)
		fmt.Fprintf(out, "drill: receiving Alertmanager webhooks on http://%s%s\n", s.Addr(), alerts.Path)
	}
	return w, nil
}

// Follow serves log's run (of outage against policy) as metrics, labels
// added to every metric, and logs the alerts that name it into it, until
// the log closes. Alerts with an outage or policy label reach only the run
// with those values. What goes wrong is reported by Close.
func (w *Watch) Follow(ctx context.Context, log *event.Log, outage, policy string, labels metrics.Labels) {
	if w == nil {
		return
	}
	x := w.exporter(w.hyps, labels)
	names := map[string]string{}
	for k, v := range map[string]string{"outage": outage, "policy": policy} {
		if v != "" {
			names[k] = v
		}
	}
	w.receiver.AttachRun(log, names)
	follow := x.Attach(log) // attached now, before the log may release events
	w.follow(func() error { return follow(ctx) })
}

// FollowFleet serves a fleet's log as one set of metrics per replica
// (label replica, from 1; events of the fleet as a whole go to every
// replica, as scoring.FleetFold does) and logs every alert into it. The
// hypotheses are judged on the whole fleet, so no replica serves them.
// What goes wrong is reported by Close.
func (w *Watch) FollowFleet(ctx context.Context, log *event.Log, replicas int, labels metrics.Labels) {
	if w == nil {
		return
	}
	xs := make([]*metrics.Exporter, replicas)
	for r := range xs {
		l := metrics.Labels{"replica": strconv.Itoa(r + 1)}
		for k, v := range labels {
			l[k] = v
		}
		xs[r] = w.exporter(nil, l)
	}
	w.receiver.AttachRun(log, nil)
	w.follow(func() error {
		cur := log.Cursor()
		for {
			evs, err := cur.Next(ctx)
			if errors.Is(err, io.EOF) {
				return nil
			}
			if err != nil {
				return fmt.Errorf("metrics: following the fleet: %w", err)
			}
			for _, e := range evs {
				if e.Replica == 0 {
					for _, x := range xs {
						x.Add([]event.Event{e})
					}
				} else if e.Replica <= len(xs) {
					xs[e.Replica-1].Add([]event.Event{e})
				}
			}
		}
	})
}

// exporter makes a run's exporter, labels on every metric, and adds it to
// the scrape.
func (w *Watch) exporter(hyps []scoring.Expr, labels metrics.Labels) *metrics.Exporter {
	x := metrics.NewLabelled(hyps, labels)
	w.set.Add(x)
	return x
}

// follow runs a follower until its log closes, keeping its error.
func (w *Watch) follow(fn func() error) {
	w.followers.Go(func() {
		if err := fn(); err != nil && !errors.Is(err, context.Canceled) {
			w.mu.Lock()
			w.errs = append(w.errs, err)
			w.mu.Unlock()
		}
	})
}

// Close waits for the followed runs' logs to close (the caller has ended
// its runs), then stops listening. Nothing it started outlives it.
func (w *Watch) Close() error {
	if w == nil {
		return nil
	}
	w.followers.Wait()
	w.mu.Lock()
	errs := w.errs
	w.mu.Unlock()
	return errors.Join(append(errs, w.closeServers())...)
}

func (w *Watch) closeServers() error {
	var errs []error
	for _, s := range w.servers {
		errs = append(errs, s.Close())
	}
	w.servers = nil
	return errors.Join(errs...)
}
