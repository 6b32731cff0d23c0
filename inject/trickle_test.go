package inject

import (
	"context"
	"errors"
	"net"
	"testing"
	"testing/synctest"
	"time"

	"github.com/openai/openai-go/v3/option"

	"github.com/drill-dev/drill/internal/triage"
)

// TestTrickleStreamRunsToTheEndWithoutALimit: at 2 tokens a second the
// whole answer arrives, late: its tokens over 2 per second.
func TestTrickleStreamRunsToTheEndWithoutALimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rig := newRig(t, parse(t, "trickle", "tokens_per_s=2"))
		start := time.Now()
		res := streamCall(t.Context(), rig.client(0, 2), email(0))
		took := time.Since(start)
		if res.err != nil {
			t.Fatal(res.err)
		}
		if _, err := triage.Parse(res.text); err != nil {
			t.Fatalf("trickled answer does not parse: %v", err)
		}
		tokens := 0
		for i := 0; i < len(res.text); i += 12 { // the fake model's 3-token chunks
			tokens += (min(12, len(res.text)-i) + 3) / 4
		}
		paced := time.Duration(tokens) * 500 * time.Millisecond
		if took < paced || took > paced+10*time.Second {
			t.Errorf("stream took %s, want its %d tokens at 2/s (%s) plus the model's latency", took, tokens, paced)
		}
		t.Logf("no limit: streamed answer of %d tokens took %s at 2 tokens/s", tokens, took)
	})
}

// TestTrickleIsCutByTheClientTimeout: Go's http.Client.Timeout covers
// reading the body, so an attempt-scope limit cuts a trickle, streamed or
// not, at the limit; the SDK does not retry a body that broke off. A
// request-scope limit cuts it too.
func TestTrickleIsCutByTheClientTimeout(t *testing.T) {
	for _, c := range []struct {
		name   string
		stream bool
		limit  time.Duration
		opts   []option.RequestOption
	}{
		{"stream, attempt scope", true, 5 * time.Second, nil},
		{"not streamed, attempt scope", false, 5 * time.Second, nil},
		{"stream, request scope", true, 0, []option.RequestOption{option.WithRequestTimeout(5 * time.Second)}},
		{"not streamed, request scope", false, 0, []option.RequestOption{option.WithRequestTimeout(5 * time.Second)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				rig := newRig(t, parse(t, "trickle", "tokens_per_s=2"))
				cl := rig.client(c.limit, 2, c.opts...)
				start := time.Now()
				var err error
				if c.stream {
					err = streamCall(t.Context(), cl, email(0)).err
				} else {
					_, err = triageCall(t.Context(), cl, email(0))
				}
				took := time.Since(start)
				var ne net.Error
				if !errors.Is(err, context.DeadlineExceeded) && !(errors.As(err, &ne) && ne.Timeout()) {
					t.Errorf("error %v, want a timeout", err)
				}
				if took != 5*time.Second || rig.attempts.n != 1 {
					t.Errorf("cut after %s and %d attempts, want 5s and 1 (no retry of a broken body)", took, rig.attempts.n)
				}
				t.Logf("%s: cut at %s after %d attempt(s): %v", c.name, took, rig.attempts.n, err)
			})
		})
	}
}

// TestTrickleToolCallStream: a streamed tool call is paced by its
// arguments, at the trickle's tokens a second, as content is: the chat
// workload's "stream at N tokens/s".
func TestTrickleToolCallStream(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		direct := time.Now()
		if _, _, err := chatCall(t.Context(), modelClient(), question(0), "auto", true); err != nil {
			t.Fatal(err)
		}
		base := time.Since(direct)
		rig := newRig(t, parse(t, "trickle", "tokens_per_s=1"))
		start := time.Now()
		msg, _, err := chatCall(t.Context(), rig.client(0, 2), question(0), "auto", true)
		if err != nil {
			t.Fatal(err)
		}
		args := msg.ToolCalls[0].Function.Arguments
		took := time.Since(start)
		// The arguments come in pieces of up to 12 bytes, each paced by
		// its tokens (4 bytes a token, rounded up).
		tokens := 0
		for i := 0; i < len(args); i += 12 {
			tokens += (min(12, len(args)-i) + 3) / 4
		}
		if want := time.Duration(tokens) * time.Second; took < want || took > want+base {
			t.Errorf("tool call of %d argument tokens took %v at 1 token/s, want %v plus the model's %v", tokens, took, want, base)
		}
	})
}

// TestTrickleSecondsLastsWhateverTheLength: with seconds set, a short
// tool call and a long streamed answer both last the incident's 150 s at 2
// tokens a second, not their tokens' worth (a tool call's 7 s).
func TestTrickleSecondsLastsWhateverTheLength(t *testing.T) {
	for _, c := range []struct {
		name   string
		choice string
	}{{"tool call", "auto"}, {"answer", "none"}} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				rig := newRig(t, parse(t, "trickle", "tokens_per_s=2", "seconds=150"))
				start := time.Now()
				msg, _, err := chatCall(t.Context(), rig.client(0, 2), question(0), c.choice, true)
				if err != nil {
					t.Fatal(err)
				}
				took := time.Since(start)
				if c.choice == "auto" && len(msg.ToolCalls) == 0 || c.choice == "none" && msg.Content == "" {
					t.Fatalf("reply %+v, want a %s", msg, c.name)
				}
				// From the headers: the model's own latency comes before.
				if took < 150*time.Second || took > 155*time.Second {
					t.Errorf("%s took %s, want 150 s whatever its length (and the model's latency)", c.name, took)
				}
			})
		})
	}
}

// TestTrickleSpreadDrawsEachAttempt: seconds ± spread is drawn per attempt,
// inside the band.
func TestTrickleSpreadDrawsEachAttempt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rig := newRig(t, parse(t, "trickle", "tokens_per_s=2", "seconds=100", "spread=20"))
		for i := range 3 {
			start := time.Now()
			if _, _, err := chatCall(t.Context(), rig.client(0, 2), question(i), "auto", true); err != nil {
				t.Fatal(err)
			}
			if took := time.Since(start); took < 80*time.Second || took > 125*time.Second {
				t.Errorf("attempt %d took %s, want 80–120 s", i, took)
			}
		}
	})
}
