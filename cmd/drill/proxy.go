package main

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/drill-dev/drill/inject"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/plan"
	"github.com/drill-dev/drill/internal/price"
	"github.com/drill-dev/drill/internal/proxy"
	"github.com/drill-dev/drill/internal/session"
	"github.com/drill-dev/drill/tui/proxyview"
	"github.com/drill-dev/drill/workload"
)

// proxyFlags are drill proxy's flags.
type proxyFlags struct {
	listen, upstream          string
	outage                    string
	outageFrom, outageTo      time.Duration
	fromJournal, journalModel string
	outageModels              []string
	faults                    []string
	file, outageName          string
	prices                    []string
	record                    string
	noTUI                     bool
	seed                      int64
	latencyScale              float64
	maxConns                  int
	maxBody                   int64
	preflightTimeout          time.Duration
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
attempt in a journal that replay and report read.
Authorization headers pass through untouched and are never recorded. It runs
until interrupted (Ctrl-C, SIGTERM), then prints requests per model.`,
		Example: `  drill proxy --outage busy --outage-from 10s --outage-to 30s --record p.jsonl
  drill proxy --upstream https://api.openai.com/v1 --outage hang --outage-from 0s --outage-to 60s
  drill proxy --outage-from-journal incident.jsonl --model primary
  OPENAI_BASE_URL=http://127.0.0.1:8089/v1 your-app`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error { return runProxy(cmd, f) },
	}
	d := workload.DefaultConfig()
	fs := cmd.Flags()
	fs.StringVar(&f.listen, "listen", "127.0.0.1:8089", "address to listen on; clients use http://LISTEN/v1 as their base URL")
	fs.StringVar(&f.upstream, "upstream", "", "the API's base URL, as a client's OPENAI_BASE_URL (default: the built-in fake model, in-process)")
	fs.StringVar(&f.outage, "outage", workload.OutageNone, "outage kind: "+strings.Join(workload.OutageKinds(), ", ")+" (parameters and modifiers with --fault)")
	fs.DurationVar(&f.outageFrom, "outage-from", d.OutageFrom, "when the outage starts, after the proxy starts")
	fs.DurationVar(&f.outageTo, "outage-to", d.OutageTo, "when the outage ends")
	fs.StringArrayVar(&f.faults, "fault", nil, "the outage's parameter or modifier as KEY=VALUE, repeatable, as for drill run: e.g. --fault retry_after=20s --fault rate=0.5 (modifiers: "+
		strings.Join(inject.ModifierKeys(), ", ")+")")
	fs.StringSliceVar(&f.outageModels, "outage-model", nil, "apply the outage only to requests for these models (comma-separated or repeated; default: every request)")
	fs.StringVarP(&f.file, "file", "f", "", "a drill file whose outage timeline to apply (one named outage: --outage-name picks it when the file has several)")
	fs.StringVar(&f.outageName, "outage-name", "", "with -f: the named outage of the drill file to apply")
	fs.StringVar(&f.fromJournal, "outage-from-journal", "", "replay the fault pattern a journal recorded as the outage timeline")
	fs.StringVar(&f.journalModel, "model", "", "with --outage-from-journal: the rung or model whose attempts to replay (default: the journal's target)")
	fs.StringArrayVar(&f.prices, "price", nil, "price of a model as MODEL=IN/OUT per million input and output tokens (repeat for more models): requests show their cost")
	fs.StringVar(&f.record, "record", "", "record every request as a journal (JSON Lines) in this file")
	fs.BoolVar(&f.noTUI, "no-tui", false, "log one line per request instead of showing the dashboard (the default when stdout is not a terminal)")
	fs.Int64Var(&f.seed, "seed", fakemodel.DefaultSeed, "the built-in fake model's latency seed")
	fs.Float64Var(&f.latencyScale, "latency-scale", 1, "the built-in fake model's latency multiplier (0 = answer at once)")
	fs.IntVar(&f.maxConns, "max-conns", 256, "most client connections open at once")
	fs.Int64Var(&f.maxBody, "max-body", proxy.DefaultMaxBody, "largest request body accepted, in bytes (larger: 413)")
	fs.DurationVar(&f.preflightTimeout, "preflight-timeout", 5*time.Second, "how long the start-up check of --upstream waits")
	return cmd
}

// proxyWindows is the outage timeline the flags ask for, with the notes
// to print about it.
func (f proxyFlags) windows(cmd *cobra.Command) ([]inject.Window, []string, error) {
	fs := cmd.Flags()
	if f.file != "" {
		if f.fromJournal != "" {
			return nil, nil, exit.Usagef("-f and --outage-from-journal do not go together: each is a timeline")
		}
		if err := plan.NoOutageFlags(fs, "-f", "the drill file"); err != nil {
			return nil, nil, err
		}
		ws, err := plan.FileOutage(f.file, f.outageName)
		return ws, nil, err
	}
	if fs.Changed("outage-name") {
		return nil, nil, exit.Usagef("--outage-name goes with -f")
	}
	if f.fromJournal != "" {
		if err := plan.NoOutageFlags(fs, "--outage-from-journal", "the journal"); err != nil {
			return nil, nil, err
		}
		return plan.JournalOutage(f.fromJournal, f.journalModel)
	}
	if fs.Changed("model") {
		return nil, nil, exit.Usagef("--model goes with --outage-from-journal")
	}
	if !slices.Contains(workload.OutageKinds(), f.outage) {
		return nil, nil, exit.Usagef("unknown outage %q (valid: %s)", f.outage, strings.Join(workload.OutageKinds(), ", "))
	}
	if f.outageFrom < 0 || f.outageTo <= f.outageFrom {
		return nil, nil, exit.Usagef("the outage must start at or after 0 and end after it starts (got %s to %s)", f.outageFrom, f.outageTo)
	}
	if f.outage == workload.OutageNone {
		if fs.Changed("outage-from") || fs.Changed("outage-to") || fs.Changed("fault") {
			return nil, nil, exit.Usagef("--outage-from, --outage-to and --fault need an --outage (valid: %s)", strings.Join(inject.Kinds(), ", "))
		}
		return nil, nil, nil
	}
	w, err := inject.ParseFault(f.outage, f.faults)
	if err != nil {
		return nil, nil, exit.Usagef("--fault: %v", err)
	}
	if len(w.Models) > 0 {
		return nil, nil, exit.Usagef("--fault models=...: the proxy has one upstream; limit the outage to some models with --outage-model")
	}
	w.From, w.To = f.outageFrom, f.outageTo
	return []inject.Window{w}, nil, nil
}

// runProxy checks drill proxy's flags and runs it (session.Proxy).
func runProxy(cmd *cobra.Command, f proxyFlags) error {
	if f.maxConns <= 0 {
		return exit.Usagef("--max-conns must be positive, got %d", f.maxConns)
	}
	if f.maxBody <= 0 {
		return exit.Usagef("--max-body must be positive, got %d", f.maxBody)
	}
	if f.latencyScale < 0 {
		return exit.Usagef("--latency-scale must not be negative, got %g", f.latencyScale)
	}
	ws, notes, err := f.windows(cmd)
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
	prices, err := price.ParseAll(f.prices)
	if err != nil {
		return exit.UsageError(fmt.Errorf("--price: %w", err))
	}
	cfg := session.ProxyConfig{Listen: f.listen, Windows: ws, MaxConns: f.maxConns, MaxBodyBytes: f.maxBody, OutageFromJournal: f.fromJournal,
		File: f.file, Model: f.journalModel, OutageModels: f.outageModels, Prices: prices, Seed: f.seed, LatencyScale: f.latencyScale}
	opts := session.ProxyOptions{Upstream: f.upstream, PreflightTimeout: f.preflightTimeout, Record: f.record, Notes: notes,
		Out: cmd.OutOrStdout(), Log: cmd.ErrOrStderr()}
	if !f.noTUI && stdoutIsTerminal() {
		opts.Show = func(ctx context.Context, p *proxy.Proxy, title, schedule string) error {
			return proxyview.Run(ctx, p.Log(), p, proxyview.Options{Title: title, Schedule: schedule, Output: os.Stdout})
		}
	}
	return session.Proxy(ctx, cfg, opts)
}
