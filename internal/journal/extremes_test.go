package journal_test

import (
	"net/http"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/drill-dev/drill/chain"
	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/edge"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/journal/journaltest"
	"github.com/drill-dev/drill/scoring"
)

// TestExtremesRoundTrip: what drill writes, drill reads. A run at the
// edges validate and the proxy accept — the most emails at the lowest
// rate, an outage to the last second of a week, the most retries, an
// upstream's status 999, a Retry-After of 99999999999999999999 s, a
// usage past any model's and a 20 MB model name — is written and read
// back, every event the same as written (the model cut to MaxTextField).
func TestExtremesRoundTrip(t *testing.T) {
	week := edge.MaxDuration
	hugeRetry := chain.RetryAfterHeader(http.Header{"Retry-After": {"99999999999999999999"}}, time.Now())
	if hugeRetry != week {
		t.Fatalf("Retry-After 99999999999999999999 read as %v, want it saturated at %v", hugeRetry, week)
	}
	huge := strings.Repeat("m", 20<<20)
	proxyCall := func(id int) *event.ProxyCall {
		return &event.ProxyCall{ID: id, Method: "POST", Path: "/v1/chat/completions", InputTokens: edge.MaxTokens, OutputTokens: edge.MaxTokens,
			Cost: 1e6, Wait: week}
	}
	evs := []event.Event{
		{Kind: event.RunStart, Run: &event.RunInfo{Emails: scoring.MaxEmails, Rate: edge.MinRate, Target: "upstream", Outage: "rate-limit",
			OutageFromS: 0, OutageToS: week.Seconds(), Rungs: []event.Rung{{Name: "upstream", Model: huge, TimeLimit: week, Retries: scoring.MaxAttempt}}}},
		{Kind: event.AttemptStart, Email: scoring.MaxEmails, Rung: "upstream", Model: huge, Attempt: scoring.MaxAttempt, Proxy: proxyCall(1)},
		{At: week, Kind: event.AttemptEnd, Email: scoring.MaxEmails, Rung: "upstream", Model: huge, Attempt: scoring.MaxAttempt,
			Outcome: event.OtherError, Status: 999, RetryAfter: hugeRetry, Proxy: proxyCall(1)},
		{At: week, Kind: event.AttemptEnd, Email: 1, Rung: "upstream", Attempt: 0, Outcome: event.HTTP429, Status: 429, RetryAfter: hugeRetry},
	}
	for i := range evs {
		evs[i].Seq = int64(i)
	}
	path := filepath.Join(t.TempDir(), "extremes.jsonl")
	h, err := journal.NewHeader(testConfig{Outage: "rate-limit", Emails: scoring.MaxEmails}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := journaltest.Write(path, h, evs, event.StatusCompleted); err != nil {
		t.Fatal(err)
	}
	j, err := journal.ReadFile(path)
	if err != nil {
		t.Fatalf("drill cannot read the journal it wrote: %v", err)
	}
	want := append([]event.Event(nil), evs...)
	clipped := edge.Clip(huge, journal.MaxTextField)
	r := *want[0].Run
	r.Rungs = []event.Rung{r.Rungs[0]}
	r.Rungs[0].Model = clipped
	want[0].Run = &r
	want[1].Model, want[2].Model = clipped, clipped
	if len(j.Events) != len(want) {
		t.Fatalf("read %d events, wrote %d", len(j.Events), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(j.Events[i], want[i]) {
			t.Errorf("event %d read back as\n%+v\nwant\n%+v", i, j.Events[i], want[i])
		}
	}
}
