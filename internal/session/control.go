package session

import (
	"context"
	"fmt"
	"io"
	"net"
	"sync"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/control"
	"github.com/drill-dev/drill/internal/control/api"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/livefold"
	"github.com/drill-dev/drill/scoring"
)

// Control is the control API a long-running drill serves
// (--control-listen): drill proxy, drill run on the real clock.
type Control struct {
	// Listen is the API's address; "" serves none.
	Listen string
	// Token is the bearer token every request must carry; "" serves
	// loopback clients only, and refuses a non-loopback Listen.
	Token string
	// TokenEnv names the variable the token came from, for messages.
	TokenEnv string
}

// open listens on the API's address at once, before the drill starts: a
// non-loopback address without a token, or a bad or busy one, is a usage
// error. It returns nil for no API.
func (c *Control) open() (net.Listener, error) {
	if c == nil || c.Listen == "" {
		return nil, nil
	}
	if err := api.CheckListen(c.Listen, c.Token); err != nil {
		return nil, exit.Usagef("--control-listen %v: set a token in $%s (--control-token-env), or listen on 127.0.0.1", err, c.TokenEnv)
	}
	ln, err := net.Listen("tcp", c.Listen)
	if err != nil {
		return nil, exit.Usagef("--control-listen %s: %v", c.Listen, err)
	}
	return ln, nil
}

// serveControl serves the API on ln (nil: none) for o's target, telling
// where on log; the returned function stops it.
func (c *Control) serve(ln net.Listener, o api.Options, log io.Writer, who string) func() {
	if ln == nil {
		return func() {}
	}
	o.Token = c.Token
	if log == nil {
		log = io.Discard // the dashboard has the terminal
	}
	srv := api.Serve(ln, o)
	fmt.Fprintf(log, "%s: control API on http://%s (drill ctl --addr %s)\n", who, srv.Addr(), srv.Addr())
	return func() { _ = srv.Close() }
}

// tallyFollower folds a proxy's log into a ProxyTally as it goes, for the
// control API's live figures.
type tallyFollower struct {
	mu   sync.Mutex
	t    *scoring.ProxyTally
	done chan struct{}
}

// followTally starts folding log; it ends when the log is closed and read.
func followTally(log *event.Log) *tallyFollower {
	f := &tallyFollower{t: scoring.NewProxyTally(), done: make(chan struct{})}
	cur := log.Cursor()
	go func() {
		defer close(f.done)
		for {
			evs, err := cur.Next(context.Background()) // io.EOF once the log is closed and read
			f.mu.Lock()
			for _, e := range evs {
				f.t.Add(e)
			}
			f.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	return f
}

// figures are the proxy's live figures: requests finished and failed,
// faults applied, and each model's calls.
func (f *tallyFollower) figures() []control.Figure {
	f.mu.Lock()
	defer f.mu.Unlock()
	faults := 0
	for _, m := range f.t.Models {
		faults += m.Faults
	}
	return []control.Figure{
		{Key: "requests", Value: float64(f.t.Requests), Unit: control.UnitCount},
		{Key: "failed", Value: float64(f.t.Failed), Unit: control.UnitCount},
		{Key: "faulted", Value: float64(faults), Unit: control.UnitCount},
		{Key: "outage_windows", Value: float64(len(f.t.Windows)), Unit: control.UnitCount},
	}
}

// runFigures are a drill's live figures, from its live fold's summary (the
// summary's keys).
func runFigures(live *livefold.Fold) func() []control.Figure {
	return func() []control.Figure {
		var s scoring.Summary
		live.Read(func(f *scoring.Fold) { s = f.Summary() })
		count := func(k string, v int) control.Figure {
			return control.Figure{Key: k, Value: float64(v), Unit: control.UnitCount}
		}
		figs := []control.Figure{count("emails", s.Emails), count("emails_sent", s.EmailsSent), count("emails_answered", s.EmailsAnswered),
			count("served.primary", s.Served.Primary), count("served.backup", s.Served.Backup), count("served.canned", s.Served.Canned),
			count("served.error", s.Served.Error), count("calls_to_broken_outage", s.CallsToBrokenOutage), count("breaker_opens", s.BreakerOpens),
			{Key: "all4_right", Value: s.All4Right, Unit: control.UnitShare}}
		if s.MedianWaitOutageS != nil {
			figs = append(figs, control.Figure{Key: "median_wait_outage_s", Value: *s.MedianWaitOutageS, Unit: control.UnitSeconds})
		}
		return figs
	}
}

// closeListener closes ln, if any.
func closeListener(ln net.Listener) {
	if ln != nil {
		_ = ln.Close()
	}
}

// controlLog is where a drill says where its control API listens: its
// progress's writer, unless the dashboard has the terminal.
func controlLog(opts Options) io.Writer {
	if opts.Show != nil {
		return nil
	}
	return opts.Progress
}
