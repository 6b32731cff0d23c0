package plain

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/scoring"
)

// TestRunTableReadsTheFold: drill run's table shows a recorded run cut
// short by SIGINT with the same formatted figures as the dashboard and the
// report (tui's TestOneJournalEveryReader checks those).
func TestRunTableReadsTheFold(t *testing.T) {
	sum, _, err := journal.Summarize("../../scoring/testdata/sigint-hang-breaker.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := Summary(&b, sum); err != nil {
		t.Fatal(err)
	}
	for _, fig := range []string{Status(sum), Served(sum.Served), All4(sum), format.Seconds(sum.MedianWaitOutageS),
		format.Seconds(sum.P95WaitOutageS), format.Seconds(sum.BreakerFirstOpenS), Followed(sum.Followed)} {
		if !strings.Contains(b.String(), fig) {
			t.Errorf("run's table lacks %q:\n%s", fig, b.String())
		}
	}
}

// TestSummaryWrapsAtWords: at a terminal 80 cells wide the summary's long
// values (observed failures, tokens) wrap at their spaces onto lines
// indented to the value column; no line is wider than 80, no word is cut,
// and without a width the table is unchanged.
func TestSummaryWrapsAtWords(t *testing.T) {
	sum, _, err := journal.Summarize("../../scoring/testdata/sigint-hang-breaker.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	sum.Observed = append(sum.Observed, scoring.ObservedSummary{Rung: "primary", Model: "gpt-5.4-mini", StartS: 15, EndS: 37.7, FailedAttempts: 30, CallsInWindow: 30})
	var flat, wrapped bytes.Buffer
	if err := Summary(&flat, sum); err != nil {
		t.Fatal(err)
	}
	if err := SummaryWidth(&wrapped, sum, 80); err != nil {
		t.Fatal(err)
	}
	long := false
	for _, l := range strings.Split(flat.String(), "\n") {
		long = long || utf8.RuneCountInString(l) > 80
	}
	if !long {
		t.Fatal("no summary line is over 80 cells: the test shows nothing")
	}
	for _, l := range strings.Split(wrapped.String(), "\n") {
		if n := utf8.RuneCountInString(l); n > 80 {
			t.Errorf("line of %d cells at width 80: %q", n, l)
		}
	}
	if got, want := strings.Fields(wrapped.String()), strings.Fields(flat.String()); !slices.Equal(got, want) {
		t.Errorf("wrapping changed the words:\n%s\nwant\n%s", wrapped.String(), flat.String())
	}
}
