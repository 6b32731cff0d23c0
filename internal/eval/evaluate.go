package eval

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/redact"
)

// The built-in fake model explains its answers.
var _ Explainer = fakemodel.Explainer{}

// Config is what drill eval is asked to do. It crosses into a
// virtual-clock child as JSON.
type Config struct {
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

// Evaluation is what Evaluate measured: one Outcome per model, over Emails
// emails answered by Source (the endpoint, redacted, or the built-in fake
// model with its seed).
type Evaluation struct {
	Outcomes []Outcome
	Emails   int
	Source   string
}

// Progress shows the progress of total calls, done() of them answered so
// far, until the returned stop is called.
type Progress func(total int, done func() int) (stop func())

// Evaluate checks cfg, sends the emails (the 120, or cfg.EmailsFile's) to
// every model of cfg through openai-go, against cfg.BaseURL or the
// built-in fake model, and scores the answers (Run). progress, if not nil,
// is shown while the calls go (not in process: virtual time has no wall
// clock). Bad settings are usage errors (exit 2); an evaluation ctx ends
// is exit.ErrInterrupted.
func Evaluate(ctx context.Context, cfg Config, progress Progress) (Evaluation, error) {
	models, err := Models(cfg.Models, cfg.BaseURL == "")
	if err != nil {
		return Evaluation{}, err
	}
	if cfg.Concurrency < 1 {
		return Evaluation{}, exit.Usagef("--concurrency must be at least 1, got %d", cfg.Concurrency)
	}
	if cfg.Fake.LatencyScale < 0 {
		return Evaluation{}, exit.Usagef("--latency-scale must not be negative, got %g", cfg.Fake.LatencyScale)
	}
	var opts []option.RequestOption
	source := redact.URL(cfg.BaseURL) // the table is a log: no password or key
	switch {
	case cfg.BaseURL == "" && cfg.InProcess:
		opts = append(opts, option.WithBaseURL("http://fake-model.drill.invalid/v1/"), option.WithAPIKey("drill-built-in"),
			option.WithHTTPClient(&http.Client{Transport: fakemodel.New(cfg.Fake).Transport()}))
		source = fmt.Sprintf("the built-in fake model (seed %d, virtual clock)", cfg.Fake.Seed)
	case cfg.BaseURL == "":
		url, stop, err := startFakeModel(cfg.Fake)
		if err != nil {
			return Evaluation{}, err
		}
		defer stop()
		opts = append(opts, option.WithBaseURL(url), option.WithAPIKey("drill-built-in"))
		source = fmt.Sprintf("the built-in fake model (seed %d)", cfg.Fake.Seed)
	default:
		opts = append(opts, option.WithBaseURL(cfg.BaseURL), option.WithAPIKey(strings.TrimSpace(os.Getenv("OPENAI_API_KEY"))))
	}
	var calls atomic.Int64 // answered calls, for the progress line
	if !cfg.InProcess {
		opts = append(opts, option.WithMiddleware(countAnswers(&calls)))
	}
	client := openai.NewClient(opts...)

	all := emails.All()
	if cfg.EmailsFile != "" {
		if all, err = emails.Load(cfg.EmailsFile); err != nil {
			return Evaluation{}, exit.UsageError(err)
		}
		source += ", from " + cfg.EmailsFile
	}
	stop := func() {}
	if progress != nil && !cfg.InProcess {
		stop = progress(len(models)*len(all), func() int { return int(calls.Load()) })
	}
	var explain Explainer // only the built-in model can say why it answered as it did
	if cfg.BaseURL == "" {
		explain = fakemodel.Explainer{}
	}
	outcomes, err := Run(ctx, client, models, all, cfg.Concurrency, explain)
	stop()
	if err != nil {
		if ctx.Err() != nil {
			return Evaluation{}, exit.ErrInterrupted
		}
		return Evaluation{}, err
	}
	return Evaluation{Outcomes: outcomes, Emails: len(all), Source: source}, nil
}

// Models expands "all" (and comma lists) into model names, once each, and
// for the built-in fake model checks them.
func Models(names []string, builtIn bool) ([]string, error) {
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

// countAnswers is an openai-go middleware that counts the calls a model
// answered (any response but a 429 or 5xx, which the SDK retries), for
// the progress line.
func countAnswers(n *atomic.Int64) option.Middleware {
	return func(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		resp, err := next(req)
		if err == nil && resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode < 500 {
			n.Add(1)
		}
		return resp, err
	}
}

// OneLine is a failed call's error on one line, at most 200 characters: an
// API error as its status and message.
func OneLine(err error) string {
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
