package session

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/control/api"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/livefold"
	"github.com/drill-dev/drill/internal/metrics"
	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/internal/price"
	"github.com/drill-dev/drill/internal/proxy"
	"github.com/drill-dev/drill/internal/proxyfleet"
	"github.com/drill-dev/drill/internal/redact"
	"github.com/drill-dev/drill/scoring"
)

// fakeUpstream is the URL the built-in fake model answers at in-process.
const fakeUpstream = "http://fake-model.drill.invalid/v1"

// ProxyConfig is drill proxy's settings, and what its journal header
// records. The upstream is recorded without its user information; no
// header of any request is.
type ProxyConfig struct {
	Listen            string            `json:"listen"`
	Upstream          string            `json:"upstream"`
	Windows           []event.Window    `json:"windows"`
	OutageFromJournal string            `json:"outage_from_journal,omitempty"`
	File              string            `json:"file,omitempty"`
	Model             string            `json:"model,omitempty"`
	OutageModels      []string          `json:"outage_models,omitempty"`
	ModelMap          map[string]string `json:"model_map,omitempty"`
	Prices            price.Table       `json:"prices,omitempty"`
	// Seed and LatencyScale are the built-in fake model's (nil with a real
	// upstream): recorded even at 0, a scale that means no latency.
	Seed         *int64   `json:"seed,omitempty"`
	LatencyScale *float64 `json:"latency_scale,omitempty"`
	MaxConns     int      `json:"max_conns"`
	MaxBodyBytes int64    `json:"max_body_bytes"`
	// Fleet is the proxy's fleet (drill proxy --coordinate); nil alone.
	Fleet *ProxyFleet `json:"fleet,omitempty"`
}

// ProxyOptions say how Proxy runs the proxy, beyond its settings.
type ProxyOptions struct {
	// Upstream is the API's base URL ("" for the built-in fake model,
	// seeded by the config's seed), checked before the proxy starts.
	Upstream         string
	PreflightTimeout time.Duration
	// Record, if set, is the journal every request is recorded to; an
	// existing file is refused unless Force is set.
	Record string
	Force  bool
	// Notes are printed on Log after the proxy's address and timeline.
	Notes []string
	// Show, if set, shows the proxy's dashboard until the user quits,
	// which stops the proxy. Without it every request is logged as a line
	// on Out.
	Show     func(ctx context.Context, p *proxy.Proxy, title, schedule string) error
	Out, Log io.Writer
	// Watch, if set, serves the proxy's metrics (label proxy: its listen
	// address) and logs the team's alerts into its log; the caller closes
	// it.
	Watch *Watch
	// Control, if set, serves the control API (--control-listen).
	Control *Control
	// Coordinate is the fleet's Redis URL, with its password (the
	// config's Fleet has it masked); used when the config has a Fleet.
	Coordinate string
}

// upstreamOptions are the proxy's options for its upstream: the built-in
// fake model (seeded and scaled as the config says), or the upstream
// opts names once it answers, with the secrets its URL holds (kept out of
// the journal). cfg's upstream fields are set to what the journal records.
func upstreamOptions(ctx context.Context, cfg *ProxyConfig, opts ProxyOptions) (proxy.Options, []string, error) {
	popts := proxy.Options{Windows: cfg.Windows, MaxBody: cfg.MaxBodyBytes, Models: cfg.OutageModels, Prices: cfg.Prices, ModelMap: cfg.ModelMap}
	var secrets []string
	if opts.Upstream == "" {
		u, _ := url.Parse(fakeUpstream)
		popts.Upstream, popts.UpstreamName = u, "built-in fake model"
		// The fake model answers for its two models only: any other name
		// goes to its mini, so an application drills unchanged.
		popts.KnownModels, popts.DefaultModel = fakemodel.Models(), fakemodel.ModelMini
		seed, scale := int64(fakemodel.DefaultSeed), 1.0 // drill proxy's flags' defaults
		if cfg.Seed != nil {
			seed = *cfg.Seed
		}
		if cfg.LatencyScale != nil {
			scale = *cfg.LatencyScale
		}
		popts.Transport = fakemodel.New(fakemodel.Options{Seed: seed, LatencyScale: scale, NoLatency: scale == 0}).Transport()
		cfg.Upstream = popts.UpstreamName
	} else {
		u, err := proxy.CheckUpstream(ctx, opts.Upstream, opts.PreflightTimeout)
		if err != nil {
			return proxy.Options{}, nil, err
		}
		popts.Upstream = u
		if pw, ok := u.User.Password(); ok {
			secrets = append(secrets, pw)
		}
		for name, vals := range u.Query() {
			if redact.Field(name) {
				secrets = append(secrets, vals...)
			}
		}
		cfg.Upstream, cfg.Seed, cfg.LatencyScale = proxy.Name(u), nil, nil
	}
	return popts, secrets, nil
}

// recordProxy starts the journal of p's log at path (none: nil), its
// upstream's secrets kept out of it.
func recordProxy(cfg ProxyConfig, p *proxy.Proxy, path string, secrets []string) (*journal.Writer, error) {
	if path == "" {
		return nil, nil
	}
	h, err := journal.NewHeader(cfg, p.Log().Start())
	if err != nil {
		return nil, exit.UsageError(fmt.Errorf("--record: %w", err))
	}
	rec, err := journal.Create(path, h, p.Log(), journal.Options{Secrets: secrets})
	if err != nil {
		return nil, exit.UsageError(fmt.Errorf("--record: %w", err))
	}
	return rec, nil
}

// serveProxy serves ln through p until ctx ends: under the dashboard
// (opts.Show, whose quitting stops the proxy) or writing a line per
// request on opts.Out. It returns the requests' tally and the summary of
// every event. Every other reader of p's log is attached by then: without
// the dashboard, which may go back in the run, the log drops what they
// have all read, so a proxy left up for a long drill does not grow with
// the requests it has served.
func serveProxy(ctx context.Context, ln net.Listener, p *proxy.Proxy, limits proxy.Limits, opts ProxyOptions, title, schedule string) (*scoring.ProxyTally, scoring.Summary, error) {
	if opts.Show != nil {
		sctx, stop := context.WithCancel(ctx)
		served := make(chan error, 1)
		go func() { served <- proxy.Serve(sctx, ln, p, limits) }()
		derr := opts.Show(ctx, p, title, schedule)
		stop() // quitting the dashboard stops the proxy
		serveErr := errors.Join(<-served, derr)
		events := p.Log().Events()
		tally := scoring.NewProxyTally()
		for _, e := range events {
			tally.Add(e)
		}
		return tally, scoring.Summarize(events), serveErr
	}
	cur := p.Log().Cursor()
	fold := livefold.Follow(p.Log())
	p.Log().Release()
	lines := make(chan *scoring.ProxyTally, 1)
	go func() {
		t, _ := proxy.WriteLines(context.Background(), cur, opts.Out) // ends when the log closes
		lines <- t
	}()
	serveErr := proxy.Serve(ctx, ln, p, limits)
	return <-lines, fold.Wait().Summary(), serveErr
}

// Proxy runs drill proxy until ctx ends (or the dashboard quits), then
// writes the requests per model on Out and finishes the journal. Settings
// that cannot work (an upstream that does not answer, an address in use) are
// usage errors (exit 2).
func Proxy(ctx context.Context, cfg ProxyConfig, opts ProxyOptions) error {
	if err := journal.CheckRecord(opts.Record, opts.Force); err != nil {
		return err
	}
	popts, secrets, err := upstreamOptions(ctx, &cfg, opts)
	if err != nil {
		return err
	}
	ctlLn, err := opts.Control.open()
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		closeListener(ctlLn)
		return exit.Usagef("--listen %s: %v", cfg.Listen, err)
	}
	popts.Start = time.Now()
	if cfg.Fleet != nil {
		if err := agreePlan(ctx, opts.Coordinate, &cfg, &popts, opts.Log); err != nil {
			ln.Close()
			return err
		}
	}
	p, err := proxy.New(popts)
	if err != nil {
		ln.Close()
		closeListener(ctlLn)
		return exit.UsageError(err)
	}
	opts.Watch.Follow(ctx, p.Log(), "", "", metrics.Labels{"proxy": ln.Addr().String()})
	rec, err := recordProxy(cfg, p, opts.Record, secrets)
	if err != nil {
		p.Close("could not record")
		ln.Close()
		closeListener(ctlLn)
		return err
	}
	var member *proxyfleet.Member
	if cfg.Fleet != nil {
		say := opts.Log // the dashboard shows the link itself: no lines under it
		if opts.Show != nil {
			say = io.Discard
		}
		if member, err = joinFleet(ctx, opts.Coordinate, cfg.Fleet, p, say); err != nil {
			p.Close("could not join the fleet")
			ln.Close()
			if rec != nil {
				_ = rec.Abort()
			}
			return err
		}
	}
	title := fmt.Sprintf("http://%s/v1 -> %s", ln.Addr(), cfg.Upstream)
	schedule := plain.ProxySchedule(cfg.Windows, cfg.OutageModels)
	fmt.Fprintf(opts.Log, "drill proxy: %s, %s\n", title, schedule)
	for _, n := range opts.Notes {
		fmt.Fprintln(opts.Log, "drill proxy:", n)
	}
	live := followTally(p.Log())
	var target api.Target = p
	if member != nil {
		target = fleetControl{p, member} // a command to this member reaches the whole fleet
	}
	stopControl := opts.Control.serve(ctlLn, api.Options{Target: target, Name: "proxy", Windows: cfg.Windows, Start: p.Log().Start(),
		Figures: live.figures}, opts.Log, "drill proxy")
	tally, summary, serveErr := serveProxy(ctx, ln, p, proxy.Limits{MaxConns: cfg.MaxConns}, opts, title, schedule)
	stopControl()
	<-live.done // the proxy has closed its log
	serveErr = errors.Join(serveErr, leaveFleet(member, opts.Log))
	plain.ProxySummary(opts.Out, tally)
	if rec != nil {
		if err := rec.Finish(summary, "completed"); err != nil {
			return errors.Join(serveErr, fmt.Errorf("recording the journal: %w", err))
		}
		fmt.Fprintf(opts.Log, "drill proxy: recorded %s\n", opts.Record)
	}
	return serveErr
}
