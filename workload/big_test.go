package workload

import (
	"strings"
	"testing"
	"testing/synctest"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/scoring"
)

// TestValidateEmailsAndRate: a drill may send up to MaxEmails emails at up
// to MaxRate a second; past either, Validate names the bound.
func TestValidateEmailsAndRate(t *testing.T) {
	ok := DefaultConfig()
	ok.Emails, ok.Rate = 100_000, 1000
	if err := ok.Validate(); err != nil {
		t.Fatalf("100,000 emails at 1,000/s: %v", err)
	}
	for _, c := range []struct {
		emails int
		rate   float64
		want   string
	}{
		{0, 2, "emails must be between 1 and 1000000, got 0"},
		{MaxEmails + 1, 2, "emails must be between 1 and 1000000, got 1000001"},
		{120, 0, "rate must be above 0 and at most 10000 emails per second, got 0"},
		{120, MaxRate + 1, "rate must be above 0 and at most 10000 emails per second, got 10001"},
	} {
		cfg := DefaultConfig()
		cfg.Emails, cfg.Rate, cfg.Follow = c.emails, c.rate, 0
		if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("emails %d rate %v: error %v, want %q", c.emails, c.rate, err, c.want)
		}
	}
}

// TestDrillPastTheDataSet: a 300-email drill in fake time sends emails
// 1..300, each served and scored against the truth of data-set email
// ((n-1) mod 120)+1: email 155 is scored like email 35.
func TestDrillPastTheDataSet(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := DefaultConfig()
		cfg.Emails, cfg.Rate, cfg.Outage = 300, 50, OutageNone
		cfg.Endpoint.Transport = fakemodel.New(fakemodel.Options{Seed: cfg.Seed, LatencyScale: 1}).Transport()
		r, err := Start(t.Context(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		r.Wait()
		f := scoring.NewFold()
		f.AddAll(r.Log().Events())
		s := f.Summary()
		if s.Served.Total() != 300 || s.EmailsSent != 300 {
			t.Fatalf("served %+v, sent %d; want 300 each", s.Served, s.EmailsSent)
		}
		sent := map[int]bool{}
		for _, e := range r.Log().Events() {
			if e.Kind == event.EmailSent {
				sent[e.Email] = true
			}
		}
		if len(sent) != 300 || !sent[1] || !sent[300] {
			t.Fatalf("sent %d distinct emails, want ids 1..300", len(sent))
		}
		// Every answered email is scored: past 120 the truth comes from
		// the data-set email it copies.
		if q := f.Quality(); q.N != 300 {
			t.Errorf("%d emails scored, want 300", q.N)
		}
		rec, _ := f.Email(155)
		src, _ := emails.ByID(35)
		if rec.Result.Answer == nil || !rec.Scored || rec.Match != scoring.Compare(*rec.Result.Answer, src.Truth) {
			t.Errorf("email 155 not scored against email 35's truth: %+v", rec)
		}
	})
}
