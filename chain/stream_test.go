package chain

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/inject"
	"github.com/drill-dev/drill/internal/fakemodel"
)

// streamRung is a streamed rung over the in-process fake model, with an
// optional fault window in front of it; OnEnd records what it measured.
func streamRung(t *testing.T, limit time.Duration, w *event.Window, got *[]StreamStats, outs *[]event.Outcome) *Rung {
	t.Helper()
	rt := fakemodel.New(fakemodel.Options{Seed: 1}).Transport()
	if w != nil {
		in := inject.New(rt, time.Now(), inject.Options{})
		if err := in.Add(*w); err != nil {
			t.Fatal(err)
		}
		rt = in
	}
	return NewRung(RungConfig{Name: "primary", Model: fakemodel.ModelMini, TimeLimit: limit, Retries: 2,
		BaseURL: "http://fake-model.invalid/v1", APIKey: "k", Transport: rt,
		Stream: &StreamOptions{OnEnd: func(_ context.Context, _ *Rung, s StreamStats, o event.Outcome) {
			*got = append(*got, s)
			*outs = append(*outs, o)
		}}})
}

// TestStreamedCallMeasuresFirstTokenAndRate: a healthy stream answers, and
// its first token comes before its end at the fake model's pace.
func TestStreamedCallMeasuresFirstTokenAndRate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var got []StreamStats
		var outs []event.Outcome
		r := streamRung(t, 5*time.Second, nil, &got, &outs)
		a, o, err := r.call(t.Context(), emails.All()[0])
		if err != nil || o != event.OK || a.Intent == "" {
			t.Fatalf("streamed call: %+v, %s, %v", a, o, err)
		}
		if len(got) != 1 || outs[0] != event.OK {
			t.Fatalf("OnEnd called %d times (%v), want once with ok", len(got), outs)
		}
		s := got[0]
		if s.TTFT <= 0 || s.TTFT >= s.Duration || s.Tokens <= 0 || s.TokensPerS < 50 || s.TokensPerS > 100 {
			t.Errorf("stats %+v: want a first token before the end and the mini profile's ~90 tokens/s", s)
		}
	})
}

// TestStreamCutByTheLimitIsATimeout: a stalled stream is cut by the
// attempt limit and classed as a timeout, with its first token recorded.
func TestStreamCutByTheLimitIsATimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var got []StreamStats
		var outs []event.Outcome
		w, err := inject.ParseFault("stall", []string{"after_chunks=3"})
		if err != nil {
			t.Fatal(err)
		}
		w.To = -1
		r := streamRung(t, 5*time.Second, &w, &got, &outs)
		start := time.Now()
		_, o, err := r.call(t.Context(), emails.All()[0])
		if err == nil || o != event.Timeout || time.Since(start) != 5*time.Second {
			t.Fatalf("stalled stream: %s, %v after %s; want a timeout after 5s", o, err, time.Since(start))
		}
		if len(got) != 1 || got[0].TTFT <= 0 || got[0].Tokens <= 0 {
			t.Errorf("stats %+v: want the first token and the tokens received before the stall", got)
		}
	})
}
