package chain

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/drill-dev/drill/breaker"
	"github.com/drill-dev/drill/event"
)

// trickle serves a streamed chat completion of n content chunks of 12
// bytes (3 tokens) each, one every gap.
func trickle(n int, gap time.Duration) http.RoundTripper {
	return roundTrip(func(r *http.Request) (*http.Response, error) {
		pr, pw := io.Pipe()
		go func() {
			defer pw.Close()
			for i := range n {
				select {
				case <-time.After(gap):
				case <-r.Context().Done():
					return
				}
				chunk := fmt.Sprintf(`{"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"tok%02d tok%02d "}}]}`, i, i)
				if _, err := fmt.Fprintf(pw, "data: %s\n\n", chunk); err != nil {
					return
				}
			}
			fmt.Fprint(pw, "data: [DONE]\n\n")
		}()
		return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"text/event-stream"}},
			Body: pr, Request: r}, nil
	})
}

type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// stream reads a whole streamed completion through floor and returns how
// long it took and how it was classified.
func stream(t *testing.T, rt http.RoundTripper, floor StreamFloor) (time.Duration, event.Outcome, int) {
	client := openai.NewClient(option.WithBaseURL("http://fake.invalid/v1"), option.WithAPIKey("k"),
		option.WithHTTPClient(&http.Client{Transport: floor.wrap(rt)}))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel() // ends the trickling server too
	start := time.Now()
	s := client.Chat.Completions.NewStreaming(ctx, openai.ChatCompletionNewParams{Model: "m",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hi")}})
	var text strings.Builder
	for s.Next() {
		for _, c := range s.Current().Choices {
			text.WriteString(c.Delta.Content)
		}
	}
	err := s.Err()
	s.Close()
	return time.Since(start), Classify(ctx, err), text.Len()
}

func TestStreamFloorCutsATrickle(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// About 3 tokens a second against a floor of 15 at 3 s (seed
		// 000's stream-rate check): cut at 3 s with 2 chunks read.
		took, o, n := stream(t, trickle(12, 1100*time.Millisecond), StreamFloor{MinTokensPerS: 15, Check: 3 * time.Second})
		if took != 3*time.Second || o != event.SlowStream || n != 24 {
			t.Fatalf("took %s, outcome %s, %d bytes; want cut at 3s as slow_stream after 24 bytes", took, o, n)
		}
		// 30 tokens a second passes every check.
		took, o, n = stream(t, trickle(30, 100*time.Millisecond), StreamFloor{MinTokensPerS: 15, Check: 1050 * time.Millisecond})
		if o != event.OK || n != 360 || took != 3*time.Second {
			t.Fatalf("fast stream: took %s, outcome %s, %d bytes; want the whole stream", took, o, n)
		}
		// The floor off: the trickle runs to its end.
		if took, o, _ := stream(t, trickle(12, time.Second), StreamFloor{}); o != event.OK || took != 12*time.Second {
			t.Fatalf("no floor: took %s, outcome %s", took, o)
		}
	})
}

func TestSlowStreamCounting(t *testing.T) {
	if CountResult(breaker.Counting{}, event.SlowStream) != breaker.Ignored || CountResult(breaker.Counting{CountSlowStream: true}, event.SlowStream) != breaker.Failure {
		t.Fatal("count_slow_stream does not decide how a cut stream counts")
	}
}
