package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/drill-dev/drill/fakemodel"
)

func newFakeModelCmd() *cobra.Command {
	var (
		listen       string
		seed         int64
		requireKey   string
		latencyScale float64
	)
	cmd := &cobra.Command{
		Use:   "fake-model",
		Short: "Serve the built-in OpenAI-compatible fake model",
		Long: `fake-model serves drill's built-in fake model over HTTP, for any
OpenAI-compatible client: POST /v1/chat/completions (streamed or not) and
GET /v1/models, with the profiles ` + strings.Join(fakemodel.Models(), " and ") + `.
It runs until interrupted.`,
		Example: `  drill fake-model --listen 127.0.0.1:8089
  OPENAI_BASE_URL=http://127.0.0.1:8089/v1 OPENAI_API_KEY=x your-client`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if latencyScale < 0 {
				return usagef("--latency-scale must not be negative, got %g", latencyScale)
			}
			opts := fakemodel.Options{Seed: seed, LatencyScale: latencyScale, NoLatency: latencyScale == 0, RequireKey: requireKey}
			ln, err := net.Listen("tcp", listen)
			if err != nil {
				return usagef("--listen %s: %v", listen, err)
			}
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			return serveFakeModel(ctx, ln, opts, cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.StringVar(&listen, "listen", "127.0.0.1:8089", "address to listen on")
	f.Int64Var(&seed, "seed", fakemodel.DefaultSeed, "latency seed")
	f.StringVar(&requireKey, "require-key", "", "answer 401 unless requests carry this key as a Bearer token")
	f.Float64Var(&latencyScale, "latency-scale", 1, "multiply every latency (0 = answer at once)")
	return cmd
}

// serveFakeModel serves on ln until ctx ends, then shuts down gracefully.
func serveFakeModel(ctx context.Context, ln net.Listener, opts fakemodel.Options, log io.Writer) error {
	srv := &http.Server{Handler: fakemodel.New(opts), ReadHeaderTimeout: 10 * time.Second}
	key := "no key required"
	if opts.RequireKey != "" {
		key = "key required"
	}
	fmt.Fprintf(log, "drill fake-model: serving %s on http://%s/v1 (seed %d, latency scale %g, %s)\n",
		strings.Join(fakemodel.Models(), ", "), ln.Addr(), opts.Seed, opts.LatencyScale, key)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		err := srv.Shutdown(sctx)
		if e := <-errc; !errors.Is(e, http.ErrServerClosed) && err == nil {
			err = e
		}
		return err
	}
}
