package main

import (
	"github.com/spf13/cobra"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/cli"
	"github.com/drill-dev/drill/internal/edge"
	"github.com/drill-dev/drill/internal/eval"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/session"
	"github.com/drill-dev/drill/workload"
)

func newEvalCmd() *cobra.Command {
	var (
		models       []string
		baseURL      string
		concurrency  int
		asJSON       bool
		showMisses   bool
		seed         int64
		latencyScale float64
		emailsFile   string
		clock        cli.Clock
	)
	cmd := &cobra.Command{
		Use:   "eval",
		Short: "Measure answer quality: the 120 emails (or your own), no outage, through one or more models",
		Long: `eval sends the 120 support emails, with no outage, to a model through the
openai-go SDK and prints the quality table: all four fields right with a Wilson
95 % interval, each field's accuracy and the misses by field. A malformed
answer counts as wrong on every field and is listed.

With --emails-file it sends your own emails instead: JSON Lines or CSV with
id, from, subject, body and an optional truth (intent, order_number, product,
urgency). Emails without a truth are answered but reported as unscored.

By default it uses the built-in fake model, started in-process on a free
loopback port. With --base-url it calls that OpenAI-compatible endpoint, with
the key from OPENAI_API_KEY, and passes model names through unchecked.`,
		Example: `  drill eval
  drill eval --model all --json
  drill eval --emails-file my-emails.jsonl --model all --misses
  OPENAI_API_KEY=... drill eval --base-url https://api.openai.com/v1 --model gpt-5.4-mini`,
		Args: cli.UsageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := edge.Factor(latencyScale, true); err != nil {
				return exit.Usagef("--latency-scale %v", err)
			}
			cfg := eval.Config{
				Models: models, BaseURL: baseURL, Concurrency: concurrency, JSON: asJSON, Misses: showMisses, EmailsFile: emailsFile,
				Fake: fakemodel.Options{Seed: seed, LatencyScale: latencyScale, NoLatency: latencyScale == 0},
			}
			if clock.Virtual() {
				return session.EvalVirtual(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), cfg)
			}
			return session.Eval(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), cfg)
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&models, "model", []string{fakemodel.ModelMini}, `model to evaluate; repeatable, or "all" for every built-in profile`)
	f.StringVar(&baseURL, "base-url", "", "OpenAI-compatible endpoint (default: the built-in fake model on a free loopback port)")
	f.IntVar(&concurrency, "concurrency", 16, "calls in flight at once")
	f.BoolVar(&asJSON, "json", false, "print a JSON array, one object per model")
	f.BoolVar(&showMisses, "misses", false, `list every email answered wrong (with --json: a "misses" list per model)`)
	f.StringVar(&emailsFile, "emails-file", "", "evaluate your own emails: a JSON Lines or CSV file (id, from, subject, body, optional truth)")
	f.Int64Var(&seed, "seed", workload.DefaultSeed, "latency seed of the built-in fake model (the default, 1, is drill run's and drill compare's)")
	f.Float64Var(&latencyScale, "latency-scale", 1, "built-in fake model: multiply its latencies (0 = answer at once)")
	cli.RegisterClock(f, &clock, event.ClockReal)
	return cmd
}
