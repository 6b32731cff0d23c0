package chain

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/openai/openai-go/v3"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/triage"
)

// StreamOptions make a rung's calls streamed chat completions (openai-go's
// streaming API, with stream_options.include_usage).
type StreamOptions struct {
	// OnEnd, if not nil, is called when a streamed call ends, finished or
	// broken off, with what it measured and its outcome. It runs on the
	// email's goroutine, before the rung's RungEnd hook.
	OnEnd func(ctx context.Context, r *Rung, s StreamStats, o event.Outcome)
}

// StreamStats is what one streamed call measured.
type StreamStats struct {
	// TTFT is the time from the call's start (its first attempt; the SDK's
	// retries before the headers count) to the first content delta; 0
	// when none arrived.
	TTFT time.Duration
	// Tokens is the completion tokens: from the usage chunk, or the text
	// received at four bytes a token when the stream broke off first.
	Tokens int
	// Duration is the call's whole time.
	Duration time.Duration
	// TokensPerS is the tokens after the first delta over the time from
	// the first delta to the end; 0 when either is 0.
	TokensPerS float64
}

// callStream makes one streamed call, all SDK retries included, reads the
// stream to its end and parses the answer.
func (r *Rung) callStream(ctx context.Context, e emails.Email) (emails.Answer, event.Outcome, error) {
	params := triage.Params(r.cfg.Model, e)
	params.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
	start := time.Now()
	stream := r.client.Chat.Completions.NewStreaming(ctx, params)
	var (
		text      strings.Builder
		first     time.Time
		usageToks int64
		firstToks int // tokens in the first content delta
	)
	for stream.Next() {
		c := stream.Current()
		for _, ch := range c.Choices {
			if ch.Delta.Content == "" {
				continue
			}
			if first.IsZero() {
				first = time.Now()
				firstToks = (len(ch.Delta.Content) + 3) / 4
			}
			text.WriteString(ch.Delta.Content)
		}
		if c.Usage.CompletionTokens > 0 {
			usageToks = c.Usage.CompletionTokens
		}
	}
	err := stream.Err()
	stream.Close()
	end := time.Now()

	st := StreamStats{Duration: end.Sub(start), Tokens: int(usageToks)}
	if st.Tokens == 0 {
		st.Tokens = (text.Len() + 3) / 4
	}
	if !first.IsZero() {
		st.TTFT = first.Sub(start)
		if d := end.Sub(first); d > 0 && st.Tokens > firstToks {
			st.TokensPerS = float64(st.Tokens-firstToks) / d.Seconds()
		}
	}
	answer, outcome, err := r.parseStreamed(ctx, text.String(), err)
	if r.cfg.Stream.OnEnd != nil {
		r.cfg.Stream.OnEnd(ctx, r, st, outcome)
	}
	return answer, outcome, err
}

// parseStreamed classifies a stream's error, or parses its text.
func (r *Rung) parseStreamed(ctx context.Context, text string, err error) (emails.Answer, event.Outcome, error) {
	if err != nil {
		return emails.Answer{}, Classify(ctx, err), fmt.Errorf("%s (%s), streamed: %w", r.cfg.Name, r.cfg.Model, err)
	}
	a, err := triage.Parse(text)
	if err != nil {
		return emails.Answer{}, event.Invalid, fmt.Errorf("%s (%s), streamed: %w", r.cfg.Name, r.cfg.Model, err)
	}
	return a, event.OK, nil
}
