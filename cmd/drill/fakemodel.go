package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"strings"

	"github.com/spf13/cobra"

	"github.com/drill-dev/drill/internal/cli"
	"github.com/drill-dev/drill/internal/edge"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/workload"
)

func newFakeModelCmd() *cobra.Command {
	var (
		listen       string
		seed         int64
		requireKey   string
		latencyScale float64
		logRequests  bool
		limits       = fakemodel.DefaultLimits
	)
	cmd := &cobra.Command{
		Use:   "fake-model",
		Short: "Serve the built-in OpenAI-compatible fake model",
		Long: `fake-model serves drill's built-in fake model over HTTP, for any
OpenAI-compatible client: POST /v1/chat/completions (streamed or not) and
GET /v1/models, with the profiles ` + strings.Join(fakemodel.Models(), " and ") + `,
and GET /health. It runs until interrupted.

It bounds what a client can cost: request bodies up to 4 MiB, a read
timeout for the whole request, an idle timeout for keep-alive connections
and a cap on open connections.`,
		Example: `  drill fake-model --listen 127.0.0.1:8089
  drill fake-model --log --require-key sk-test --latency-scale 0
  OPENAI_BASE_URL=http://127.0.0.1:8089/v1 OPENAI_API_KEY=x your-client`,
		Args: cli.UsageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := edge.Factor(latencyScale, true); err != nil {
				return exit.Usagef("--latency-scale %v", err)
			}
			if limits.ReadTimeout <= 0 || limits.IdleTimeout <= 0 || limits.MaxConns < 1 {
				return exit.Usagef("--read-timeout and --idle-timeout must be positive and --max-conns at least 1")
			}
			opts := fakemodel.Options{Seed: seed, LatencyScale: latencyScale, NoLatency: latencyScale == 0, RequireKey: requireKey}
			if logRequests {
				opts.Log = cmd.ErrOrStderr()
			}
			ln, err := net.Listen("tcp", listen)
			if err != nil {
				return exit.Usagef("--listen %s: %v", listen, err)
			}
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			return serveFakeModel(ctx, ln, opts, limits, cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.StringVar(&listen, "listen", "127.0.0.1:8089", "address to listen on")
	f.Int64Var(&seed, "seed", workload.DefaultSeed, "latency seed (the default, 1, is drill run's and drill compare's)")
	f.StringVar(&requireKey, "require-key", "", "answer 401 unless requests carry this key as a Bearer token")
	f.Float64Var(&latencyScale, "latency-scale", 1, "multiply every latency (0 = answer at once)")
	f.BoolVar(&logRequests, "log", false, "log one line per request on stderr (time, request id, method, path, model, status, tokens, duration)")
	f.DurationVar(&limits.ReadTimeout, "read-timeout", limits.ReadTimeout, "time a client has to send a whole request, body included")
	f.DurationVar(&limits.IdleTimeout, "idle-timeout", limits.IdleTimeout, "time a keep-alive connection may wait for its next request")
	f.IntVar(&limits.MaxConns, "max-conns", limits.MaxConns, "most connections served at once (those still sending their headers hold no slot); at the cap a new client takes the longest-idle one's slot, and waits only while all serve requests")
	return cmd
}

// serveFakeModel serves on ln with limits until ctx ends, then shuts down
// gracefully.
func serveFakeModel(ctx context.Context, ln net.Listener, opts fakemodel.Options, limits fakemodel.Limits, log io.Writer) error {
	key := "no key required"
	if opts.RequireKey != "" {
		key = "key required"
	}
	fmt.Fprintf(log, "drill fake-model: serving %s on http://%s/v1 (seed %d, latency scale %g, %s)\n",
		strings.Join(fakemodel.Models(), ", "), ln.Addr(), opts.Seed, opts.LatencyScale, key)
	return fakemodel.New(opts).Serve(ctx, ln, limits)
}
