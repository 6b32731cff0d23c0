package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/inject"
	"github.com/drill-dev/drill/internal/drillfile"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/price"
	"github.com/drill-dev/drill/internal/proxy"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/tui/proxyview"
	"github.com/drill-dev/drill/workload"
)

// fakeUpstream is the URL the built-in fake model answers at in-process.
const fakeUpstream = "http://fake-model.drill.invalid/v1"

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

// proxyConfig is what a proxy's journal header records. The upstream is
// recorded without its user information; no header of any request is.
type proxyConfig struct {
	Listen            string          `json:"listen"`
	Upstream          string          `json:"upstream"`
	Windows           []inject.Window `json:"windows"`
	OutageFromJournal string          `json:"outage_from_journal,omitempty"`
	File              string          `json:"file,omitempty"`
	Model             string          `json:"model,omitempty"`
	OutageModels      []string        `json:"outage_models,omitempty"`
	Prices            price.Table     `json:"prices,omitempty"`
	Seed              int64           `json:"seed,omitempty"`
	LatencyScale      float64         `json:"latency_scale,omitempty"`
	MaxConns          int             `json:"max_conns"`
	MaxBodyBytes      int64           `json:"max_body_bytes"`
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
		return f.fileWindows(fs)
	}
	if fs.Changed("outage-name") {
		return nil, nil, exit.Usagef("--outage-name goes with -f")
	}
	if f.fromJournal != "" {
		for _, name := range []string{"outage", "outage-from", "outage-to", "fault"} {
			if fs.Changed(name) {
				return nil, nil, exit.Usagef("--%s and --outage-from-journal do not go together: the journal is the timeline", name)
			}
		}
		return outageFromJournal(f.fromJournal, f.journalModel)
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
	errw, outw := cmd.ErrOrStderr(), cmd.OutOrStdout()

	for _, m := range f.outageModels {
		if strings.TrimSpace(m) == "" {
			return exit.Usagef("--outage-model: empty model name")
		}
	}
	prices, err := price.ParseAll(f.prices)
	if err != nil {
		return exit.UsageError(fmt.Errorf("--price: %w", err))
	}
	opts := proxy.Options{Windows: ws, MaxBody: f.maxBody, Models: f.outageModels, Prices: prices}
	cfg := proxyConfig{Listen: f.listen, MaxConns: f.maxConns, MaxBodyBytes: f.maxBody,
		OutageFromJournal: f.fromJournal, File: f.file, Model: f.journalModel, OutageModels: f.outageModels, Prices: prices}
	var secrets []string
	if f.upstream == "" {
		u, _ := url.Parse(fakeUpstream)
		opts.Upstream, opts.UpstreamName = u, "built-in fake model"
		opts.Transport = fakemodel.New(fakemodel.Options{Seed: f.seed, LatencyScale: f.latencyScale, NoLatency: f.latencyScale == 0}).Transport()
		cfg.Upstream, cfg.Seed, cfg.LatencyScale = opts.UpstreamName, f.seed, f.latencyScale
	} else {
		u, err := checkUpstream(ctx, f.upstream, f.preflightTimeout)
		if err != nil {
			return err
		}
		opts.Upstream = u
		if pw, ok := u.User.Password(); ok {
			secrets = append(secrets, pw)
		}
		clean := *u
		clean.User = nil
		cfg.Upstream = clean.String()
	}
	cfg.Windows = ws

	ln, err := net.Listen("tcp", f.listen)
	if err != nil {
		return exit.Usagef("--listen %s: %v", f.listen, err)
	}
	opts.Start = time.Now()
	p, err := proxy.New(opts)
	if err != nil {
		ln.Close()
		return exit.UsageError(err)
	}
	var rec *journal.Writer
	if f.record != "" {
		h, err := journal.NewHeader(cfg, p.Log().Start())
		if err == nil {
			rec, err = journal.Create(f.record, h, p.Log(), journal.Options{Secrets: secrets})
		}
		if err != nil {
			p.Close("could not record")
			ln.Close()
			return exit.UsageError(fmt.Errorf("--record: %w", err))
		}
	}

	title := fmt.Sprintf("http://%s/v1 -> %s", ln.Addr(), cfg.Upstream)
	var sched []string
	for _, w := range ws {
		sched = append(sched, fmt.Sprintf("%s%s %s–%s", w.Kind, paramText(w.Params), w.From.Round(time.Millisecond), w.To.Round(time.Millisecond)))
	}
	schedule := strings.Join(sched, ", ")
	if schedule == "" {
		schedule = "no outage"
	}
	if len(ws) > 0 && len(f.outageModels) > 0 {
		schedule += " on " + strings.Join(f.outageModels, ", ") + " only"
	}
	fmt.Fprintf(errw, "drill proxy: %s, %s\n", title, schedule)
	for _, n := range notes {
		fmt.Fprintln(errw, "drill proxy:", n)
	}

	var tally *scoring.ProxyTally
	var serveErr error
	if !f.noTUI && stdoutIsTerminal() {
		sctx, stop := context.WithCancel(ctx)
		served := make(chan error, 1)
		go func() { served <- proxy.Serve(sctx, ln, p, proxy.Limits{MaxConns: f.maxConns}) }()
		derr := proxyview.Run(ctx, p.Log(), p, proxyview.Options{Title: title, Schedule: schedule, Output: os.Stdout})
		stop() // quitting the dashboard stops the proxy
		serveErr = errors.Join(<-served, derr)
		tally = scoring.NewProxyTally()
		for _, e := range p.Log().Events() {
			tally.Add(e)
		}
	} else {
		lines := make(chan *scoring.ProxyTally, 1)
		go func() {
			t, _ := proxy.WriteLines(context.Background(), p.Log(), outw) // ends when the log closes
			lines <- t
		}()
		serveErr = proxy.Serve(ctx, ln, p, proxy.Limits{MaxConns: f.maxConns})
		tally = <-lines
	}
	format.ProxySummary(outw, tally)
	if rec != nil {
		sum := scoring.Summarize(p.Log().Events())
		if err := rec.Finish(sum, "completed"); err != nil {
			return errors.Join(serveErr, fmt.Errorf("recording the journal: %w", err))
		}
		fmt.Fprintf(errw, "drill proxy: recorded %s\n", f.record)
	}
	return serveErr
}

// checkUpstream parses the upstream URL and makes sure something answers
// there: GET {upstream}/models without a key. Any HTTP answer will do (a
// 401 is expected without a key) except a 404, which means the URL is not
// the API's base; no answer at all is an error. Both exit 2.
func checkUpstream(ctx context.Context, raw string, timeout time.Duration) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, exit.Usagef("--upstream %q is not an http(s) URL with a host (e.g. https://api.openai.com/v1)", raw)
	}
	probe := *u
	probe.Path = strings.TrimSuffix(u.Path, "/") + "/models"
	if u.Path == "" || u.Path == "/" {
		probe.Path = "/v1/models" // what a client's /v1/models reaches (see proxy's path rule)
	}
	probe.User = nil
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(cctx, http.MethodGet, probe.String(), nil)
	if err != nil {
		return nil, exit.Usagef("--upstream %s: %v", probe.Redacted(), err)
	}
	t := http.DefaultTransport.(*http.Transport).Clone()
	defer t.CloseIdleConnections()
	resp, err := (&http.Client{Transport: t}).Do(req)
	if err != nil {
		return nil, exit.Usagef("--upstream %s does not answer (GET %s): %v", u.Redacted(), probe.Redacted(), err)
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	if resp.StatusCode == http.StatusNotFound {
		return nil, exit.Usagef("--upstream %s answered 404 to GET %s: is it the API's base URL, with its /v1?", u.Redacted(), probe.Redacted())
	}
	return u, nil
}

// paramText is a window's parameters as " key=value ...", sorted.
func paramText(p map[string]string) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(p)) {
		fmt.Fprintf(&b, " %s=%s", k, p[k])
	}
	return b.String()
}

// fileWindows is the outage timeline of the drill file: the windows of its
// one named outage, or of the one --outage-name picks. The outage flags do
// not go with it.
func (f proxyFlags) fileWindows(fs *pflag.FlagSet) ([]inject.Window, []string, error) {
	for _, name := range []string{"outage", "outage-from", "outage-to", "fault"} {
		if fs.Changed(name) {
			return nil, nil, exit.Usagef("--%s and -f do not go together: the drill file is the timeline", name)
		}
	}
	df, err := drillfile.Load(f.file)
	if err != nil {
		return nil, nil, exit.UsageError(fmt.Errorf("-f: %w", err))
	}
	scenarios := df.Scenarios()
	var names []string
	for _, sc := range scenarios {
		names = append(names, sc.Name)
	}
	pick := -1
	switch {
	case f.outageName != "":
		pick = slices.Index(names, f.outageName)
		if pick < 0 {
			return nil, nil, exit.Usagef("--outage-name %q: %s names the outages %s", f.outageName, f.file, strings.Join(names, ", "))
		}
	case len(scenarios) == 1:
		pick = 0
	default:
		return nil, nil, exit.Usagef("%s names %d outages (%s): pick one with --outage-name", f.file, len(names), strings.Join(names, ", "))
	}
	var ws []inject.Window
	for _, w := range scenarios[pick].Windows {
		iw, err := drillfile.InjectWindow(w)
		if err != nil {
			return nil, nil, exit.UsageError(fmt.Errorf("-f %s: %w", f.file, err))
		}
		ws = append(ws, iw)
	}
	return ws, nil, nil
}
