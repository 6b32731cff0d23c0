package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/cli"
	"github.com/drill-dev/drill/internal/edge"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/listen"
	"github.com/drill-dev/drill/internal/plan"
	"github.com/drill-dev/drill/internal/price"
	"github.com/drill-dev/drill/internal/proxy"
	"github.com/drill-dev/drill/internal/proxyfleet"
	"github.com/drill-dev/drill/internal/redact"
	"github.com/drill-dev/drill/internal/session"
	"github.com/drill-dev/drill/tui/proxyview"
)

// proxyFlags are drill proxy's flags.
type proxyFlags struct {
	listen, upstream string
	outage           plan.ProxyOutage
	outageModels     []string
	modelMap         []string
	prices           []string
	record           string
	force            bool
	noTUI            bool
	seed             int64
	latencyScale     float64
	maxConns         int
	maxBody          int64
	preflightTimeout time.Duration
	watch            cli.WatchFlags
	control          cli.ControlFlags
	// coordinate, fleet and member make the proxy a member of a fleet.
	coordinate, fleet, member string
}

func newProxyCmd() *cobra.Command {
	var f proxyFlags
	cmd := &cobra.Command{
		Use:   "proxy",
		Short: "A fault-injecting OpenAI-compatible proxy for any client",
		Long: `proxy stands between your own application and its OpenAI-compatible API and
applies an outage timeline to its requests: point the client's base URL at
http://LISTEN/v1. Chat completions (streamed or not), models and any other path
pass through to --upstream (default: the built-in fake model); streams pass
chunk by chunk. Offsets of the outage count from the proxy's start.

With a terminal on stdout it shows a live dashboard (requests, per-model
calls and failures, the outage timeline; o starts or ends an outage by
hand). With --no-tui, or without a terminal, each request is logged as one
line (its arrival, the SDK's retry count, status, outcome, the fault applied,
wait, time to first token, tokens). With --record every request is an
attempt in a journal that replay and report read; --record FILE refuses to
overwrite an existing file unless --force is given.
Authorization headers pass through untouched and are never recorded. It runs
until interrupted (Ctrl-C, SIGTERM), then prints requests per model.`,
		Example: `  drill proxy --outage busy --outage-from 10s --outage-to 30s --record p.jsonl
  drill proxy --upstream https://api.openai.com/v1 --outage hang --outage-from 0s --outage-to 60s
  drill proxy --outage-from-journal incident.jsonl --model primary
  OPENAI_BASE_URL=http://127.0.0.1:8089/v1 your-app`,
		Args: cli.UsageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error { return runProxy(cmd, f) },
	}
	fs := cmd.Flags()
	fs.StringVar(&f.listen, "listen", "127.0.0.1:8089", "address to listen on; clients use http://LISTEN/v1 as their base URL")
	fs.StringVar(&f.upstream, "upstream", "", "the API's base URL, as a client's OPENAI_BASE_URL (default: the built-in fake model, in-process)")
	f.outage.Register(fs)
	fs.StringSliceVar(&f.outageModels, "outage-model", nil, "apply the outage only to requests for these models (comma-separated or repeated; default: every request)")
	fs.StringArrayVar(&f.modelMap, "model-map", nil, "send requests for model FROM upstream as model TO, `FROM=TO` (repeat for more; with the built-in fake model, names it does not know go to "+fakemodel.ModelMini+")")
	fs.StringArrayVar(&f.prices, "price", nil, "price of a model as MODEL=IN/OUT per million input and output tokens (repeat for more models): requests show their cost")
	fs.StringVar(&f.record, "record", "", "record every request as a journal (JSON Lines) in this file")
	fs.BoolVar(&f.force, "force", false, "let --record overwrite an existing journal")
	fs.BoolVar(&f.noTUI, "no-tui", false, "log one line per request instead of showing the dashboard (the default when stdout is not a terminal)")
	fs.Int64Var(&f.seed, "seed", fakemodel.DefaultSeed, "the built-in fake model's latency seed")
	fs.Float64Var(&f.latencyScale, "latency-scale", 1, "the built-in fake model's latency multiplier (0 = answer at once)")
	fs.IntVar(&f.maxConns, "max-conns", listen.DefaultLimits.MaxConns, "most client connections served at once (those still sending their headers hold no slot); at the cap a new client takes the longest-idle one's slot")
	fs.Int64Var(&f.maxBody, "max-body", proxy.DefaultMaxBody, "largest request body accepted, in bytes (larger: 413)")
	fs.DurationVar(&f.preflightTimeout, "preflight-timeout", 5*time.Second, "how long the start-up check of --upstream waits")
	f.watch.Register(fs)
	f.control.Register(fs)
	fs.StringVar(&f.coordinate, "coordinate", "", "join a fleet of proxies through this Redis, `redis://HOST:PORT/DB` (with --fleet and --member; docs/proxy-fleet.md)")
	fs.StringVar(&f.fleet, "fleet", "", "with --coordinate: the fleet's name; every member plays the schedule its first member set")
	fs.StringVar(&f.member, "member", "", "with --coordinate: this proxy's name in the fleet, unique within it")
	return cmd
}

// runProxy checks drill proxy's flags and runs it (session.Proxy).
func runProxy(cmd *cobra.Command, f proxyFlags) error {
	if err := cli.NotInput(cmd.Flags(), "--record", f.record); err != nil {
		return err
	}
	if f.maxConns <= 0 {
		return exit.Usagef("--max-conns must be positive, got %d", f.maxConns)
	}
	if f.maxBody <= 0 {
		return exit.Usagef("--max-body must be positive, got %d", f.maxBody)
	}
	if err := edge.Factor(f.latencyScale, true); err != nil {
		return exit.Usagef("--latency-scale %v", err)
	}
	ws, notes, err := f.outage.Windows(cmd.Flags())
	if err != nil {
		return err
	}
	ctx := cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	for _, m := range f.outageModels {
		if strings.TrimSpace(m) == "" {
			return exit.Usagef("--outage-model: empty model name")
		}
	}
	modelMap, err := proxy.ParseModelMap(f.modelMap)
	if err != nil {
		return err
	}
	prices, err := price.ParseAll(f.prices)
	if err != nil {
		return exit.UsageError(fmt.Errorf("--price: %w", err))
	}
	cfg := session.ProxyConfig{Listen: f.listen, Windows: ws, MaxConns: f.maxConns, MaxBodyBytes: f.maxBody, OutageFromJournal: f.outage.Journal,
		File: f.outage.File, Model: f.outage.JournalModel, OutageModels: f.outageModels, ModelMap: modelMap, Prices: prices, Seed: &f.seed, LatencyScale: &f.latencyScale}
	opts := session.ProxyOptions{Upstream: f.upstream, PreflightTimeout: f.preflightTimeout, Record: f.record, Force: f.force, Notes: notes,
		Out: cmd.OutOrStdout(), Log: cmd.ErrOrStderr(), Coordinate: f.coordinate}
	if err := proxyfleet.CheckFlags(f.coordinate, f.fleet, f.member); err != nil {
		return exit.UsageError(err)
	}
	if f.coordinate != "" {
		cfg.Fleet = &session.ProxyFleet{Coordinate: redact.URL(f.coordinate), Name: f.fleet, Member: f.member}
	}
	if !f.noTUI && stdoutIsTerminal() {
		opts.Show = func(ctx context.Context, p *proxy.Proxy, title, schedule string) error {
			return proxyview.Run(ctx, p.Log(), p, proxyview.Options{Title: title, Schedule: schedule, Output: os.Stdout,
				Fleet: proxyview.FleetLabel(f.fleet, f.member)})
		}
	}
	if opts.Control, err = f.control.Control(""); err != nil {
		return err
	}
	if opts.Watch, err = f.watch.Start(cmd.Flags(), cmd.ErrOrStderr(), f.outage.File, event.ClockReal, nil); err != nil {
		return err
	}
	return cli.CloseWatch(opts.Watch, session.Proxy(ctx, cfg, opts))
}
