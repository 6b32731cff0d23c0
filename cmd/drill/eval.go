package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"text/tabwriter"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/spf13/cobra"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/internal/eval"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/session"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

// The built-in fake model explains its answers to drill eval.
var _ eval.Explainer = fakemodel.Explainer{}

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
		clock        clockValue
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
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg := evalConfig{
				Models: models, BaseURL: baseURL, Concurrency: concurrency, JSON: asJSON, Misses: showMisses, EmailsFile: emailsFile,
				Fake: fakemodel.Options{Seed: seed, LatencyScale: latencyScale, NoLatency: latencyScale == 0},
			}
			if clock.virtual() {
				return evalVirtual(cmd, cfg)
			}
			return runEval(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), cfg)
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
	registerClock(f, &clock)
	return cmd
}

// evalConfig is what drill eval was asked to do.
type evalConfig struct {
	Models      []string
	BaseURL     string
	Concurrency int
	JSON        bool
	Misses      bool
	EmailsFile  string
	Fake        fakemodel.Options
	// InProcess serves the built-in fake model through its in-process
	// transport instead of a loopback port (--clock virtual: no sockets).
	InProcess bool
}

func runEval(ctx context.Context, stdout, stderr io.Writer, cfg evalConfig) error {
	if ctx == nil {
		ctx = context.Background()
	}
	models, err := evalModels(cfg.Models, cfg.BaseURL == "")
	if err != nil {
		return err
	}
	if cfg.Concurrency < 1 {
		return exit.Usagef("--concurrency must be at least 1, got %d", cfg.Concurrency)
	}
	if cfg.Fake.LatencyScale < 0 {
		return exit.Usagef("--latency-scale must not be negative, got %g", cfg.Fake.LatencyScale)
	}

	var opts []option.RequestOption
	source := journal.RedactURL(cfg.BaseURL) // the table is a log: no password or key
	if cfg.BaseURL == "" && cfg.InProcess {
		opts = append(opts, option.WithBaseURL("http://fake-model.drill.invalid/v1/"), option.WithAPIKey("drill-built-in"),
			option.WithHTTPClient(&http.Client{Transport: fakemodel.New(cfg.Fake).Transport()}))
		source = fmt.Sprintf("the built-in fake model (seed %d, virtual clock)", cfg.Fake.Seed)
	} else if cfg.BaseURL == "" {
		url, stop, err := startFakeModel(cfg.Fake)
		if err != nil {
			return err
		}
		defer stop()
		opts = append(opts, option.WithBaseURL(url), option.WithAPIKey("drill-built-in"))
		source = fmt.Sprintf("the built-in fake model (seed %d)", cfg.Fake.Seed)
	} else {
		opts = append(opts, option.WithBaseURL(cfg.BaseURL), option.WithAPIKey(strings.TrimSpace(os.Getenv("OPENAI_API_KEY"))))
	}
	var calls atomic.Int64 // answered calls, for the progress line (not in virtual time: no wall clock there)
	if !cfg.InProcess {
		opts = append(opts, option.WithMiddleware(countAnswers(&calls)))
	}
	client := openai.NewClient(opts...)

	all := emails.All()
	if cfg.EmailsFile != "" {
		if all, err = emails.Load(cfg.EmailsFile); err != nil {
			return exit.UsageError(err)
		}
		source += ", from " + cfg.EmailsFile
	}
	stopProgress := func() {}
	if !cfg.InProcess {
		stopProgress = session.StartProgress(stderr, "eval", "calls", len(models)*len(all), func() int { return int(calls.Load()) })
	}
	var explain eval.Explainer // only the built-in model can say why it answered as it did
	if cfg.BaseURL == "" {
		explain = fakemodel.Explainer{}
	}
	outcomes, err := eval.Run(ctx, client, models, all, cfg.Concurrency, explain)
	stopProgress()
	if err != nil {
		if ctx.Err() != nil {
			return exit.ErrInterrupted
		}
		return err
	}

	if cfg.JSON {
		res := make([]eval.Report, len(outcomes))
		for i, o := range outcomes {
			for _, r := range o.Failed {
				fmt.Fprintf(stderr, "drill eval: %s: email %d counted wrong on every field: %s\n", o.Result.Model, r.Email.ID, oneLine(r.Err))
			}
			res[i] = o.Report(cfg.Misses)
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	return writeEvalTable(stdout, outcomes, len(all), source, cfg.Misses)
}

// evalModels expands "all" and, for the built-in fake model, checks names.
func evalModels(names []string, builtIn bool) ([]string, error) {
	var out []string
	for _, n := range names {
		for _, m := range strings.Split(n, ",") {
			m = strings.TrimSpace(m)
			switch {
			case m == "":
				continue
			case m == "all":
				out = append(out, fakemodel.Models()...)
			case builtIn && !slices.Contains(fakemodel.Models(), m):
				return nil, exit.Usagef("unknown model %q: the built-in fake model serves %s (or --model all); use --base-url for another endpoint",
					m, strings.Join(fakemodel.Models(), ", "))
			default:
				out = append(out, m)
			}
		}
	}
	if len(out) == 0 {
		return nil, exit.Usagef("no model given: use --model NAME (built-in: %s, or all)", strings.Join(fakemodel.Models(), ", "))
	}
	var uniq []string
	for _, m := range out {
		if !slices.Contains(uniq, m) {
			uniq = append(uniq, m)
		}
	}
	return uniq, nil
}

// startFakeModel serves the built-in fake model on a free loopback port and
// returns its base URL and a function that stops it.
func startFakeModel(opts fakemodel.Options) (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, fmt.Errorf("starting the built-in fake model: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		fakemodel.New(opts).Serve(ctx, ln, fakemodel.DefaultLimits)
	}()
	return "http://" + ln.Addr().String() + "/v1/", func() { cancel(); <-done }, nil
}

func writeEvalTable(w io.Writer, outcomes []eval.Outcome, n int, source string, showMisses bool) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "Answered by\tAll 4 right\t%s\n", strings.Join(scoring.FieldNames[:], "\t"))
	for _, o := range outcomes {
		r := o.Result
		row := []string{r.Model, fmt.Sprintf("%s (%s-%s)", pct(r.All4Right), pctN(r.All4RightCI95[0]), pct(r.All4RightCI95[1]))}
		for _, f := range scoring.FieldNames {
			row = append(row, pct(r.Fields[f]))
		}
		if r.Emails == 0 { // every email came without a truth
			row = []string{r.Model, "unscored", "unscored", "unscored", "unscored", "unscored"}
		}
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	fmt.Fprintln(tw)
	fmt.Fprintf(tw, "Misses by field\t%s\tinvalid\n", strings.Join(scoring.FieldNames[:], "\t"))
	for _, o := range outcomes {
		r := o.Result
		row := []string{r.Model}
		for _, f := range scoring.FieldNames {
			row = append(row, fmt.Sprint(r.MissesByField[f]))
		}
		row = append(row, fmt.Sprint(r.Invalid))
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if err := writeRuleTable(w, outcomes); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n%d emails, no outage, answered by %s; all 4 right with a Wilson 95%% interval.\n", n, source)
	if len(outcomes) > 0 && outcomes[0].Unscored > 0 {
		fmt.Fprintf(w, "%d of them came without a truth: answered, unscored (the figures cover the other %d).\n", outcomes[0].Unscored, n-outcomes[0].Unscored)
	}
	for _, o := range outcomes {
		if len(o.Failed) == 0 {
			continue
		}
		fmt.Fprintf(w, "\nInvalid answers from %s (counted wrong on every field):\n", o.Result.Model)
		for _, r := range o.Failed {
			fmt.Fprintf(w, "  email %3d: %s\n", r.Email.ID, oneLine(r.Err))
		}
	}
	if showMisses {
		for _, o := range outcomes {
			fmt.Fprintf(w, "\nMisses of %s:\n", o.Result.Model)
			for _, m := range o.Misses {
				if m.Invalid {
					fmt.Fprintf(w, "  email %3d: invalid answer\n", m.Email)
					continue
				}
				var parts []string
				for _, f := range m.Wrong {
					part := fmt.Sprintf("%s %q, right %q", f, m.Got.Field(f), m.Truth.Field(f))
					if rule, ok := m.Because[f]; ok {
						part += " (" + rule + ")"
					}
					parts = append(parts, part)
				}
				fmt.Fprintf(w, "  email %3d: %s\n", m.Email, strings.Join(parts, "; "))
			}
		}
	}
	return nil
}

// writeRuleTable prints, for each model that can say why it answered as it
// did (the built-in fake model), its wrong fields by the reading rule that
// caused each: why the backup is worse than the primary.
func writeRuleTable(w io.Writer, outcomes []eval.Outcome) error {
	explained := false
	for _, o := range outcomes {
		explained = explained || o.MissesByRule != nil
	}
	if !explained {
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw)
	fmt.Fprintln(tw, "Misses by rule\treading behaviour behind each wrong field\twrong fields")
	for _, o := range outcomes {
		if o.MissesByRule == nil {
			continue
		}
		rules := o.RulesByCount()
		if len(rules) == 0 {
			fmt.Fprintf(tw, "%s\tnone\t0\n", o.Result.Model)
		}
		for i, rc := range rules {
			name := o.Result.Model
			if i > 0 {
				name = ""
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\n", name, rc.Rule, rc.Count)
		}
	}
	return tw.Flush()
}

func pct(x float64) string  { return fmt.Sprintf("%.0f%%", x*100) }
func pctN(x float64) string { return fmt.Sprintf("%.0f", x*100) }

func oneLine(err error) string {
	if err == nil {
		return ""
	}
	var apiErr *openai.Error
	if errors.As(err, &apiErr) {
		return fmt.Sprintf("HTTP %d: %s", apiErr.StatusCode, apiErr.Message)
	}
	s := strings.Join(strings.Fields(err.Error()), " ")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
