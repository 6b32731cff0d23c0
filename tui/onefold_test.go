package tui

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/internal/report"
	"github.com/drill-dev/drill/scoring"
)

// sigintJournal is a real drill (drill run --no-tui --json --outage hang
// --policy breaker --record) stopped by SIGINT 37 s in: 74 of 120 emails
// sent, 29 of them cut off in flight.
const sigintJournal = "../scoring/testdata/sigint-hang-breaker.jsonl"

// TestOneJournalEveryReader folds one recorded journal, cut short by
// SIGINT, through every reader: the live run's summary line, replay's
// summary, the dashboard's state and the report's tables. Every shared
// figure must be equal, and formatted the same.
func TestOneJournalEveryReader(t *testing.T) {
	j, err := journal.ReadFile(sigintJournal)
	if err != nil {
		t.Fatal(err)
	}
	replayed, meta, err := journal.Summarize(sigintJournal)
	if err != nil {
		t.Fatal(err)
	}
	if meta.Summary == nil {
		t.Fatal("the journal has no summary line")
	}
	live := meta.Summary.Summary // what `drill run --json` printed and recorded
	s := newState(nil)
	s.addAll(j.Events)
	rep, err := report.Build([]string{sigintJournal, sigintJournal})
	if err != nil {
		t.Fatal(err)
	}
	run := rep.Runs[0]

	for name, got := range map[string]scoring.Summary{"replay": replayed, "dashboard": s.summary, "report": run.Summary} {
		if !reflect.DeepEqual(got, live) {
			t.Errorf("%s summary differs from the live run's:\n%+v\nwant\n%+v", name, got, live)
		}
	}

	// The run is cut short, and every view says so with the same numbers.
	if live.Status != event.StatusInterrupted || live.NotSent == 0 || live.Served.Cancelled == 0 || live.NotSentReason != event.NotSentStopped {
		t.Fatalf("the journal is not a run cut short by SIGINT: %+v", live)
	}
	if live.EmailsSent+live.NotSent != live.Emails || live.EmailsAnswered+live.NeverAnswered != live.EmailsSent {
		t.Errorf("emails %d, sent %d, not sent %d, answered %d, never answered %d do not add up",
			live.Emails, live.EmailsSent, live.NotSent, live.EmailsAnswered, live.NeverAnswered)
	}
	if live.Served.Answered() != live.EmailsAnswered || live.Served.Error != 0 {
		t.Errorf("served %+v: the emails cut off must be cancelled, not errors", live.Served)
	}

	var table bytes.Buffer
	if err := report.WriteSummaryTable(&table, []scoring.Summary{run.Summary}); err != nil {
		t.Fatal(err)
	}
	rep.DPI = 10
	mdPath := filepath.Join(t.TempDir(), "r.md")
	if err := rep.WriteMarkdown(mdPath); err != nil {
		t.Fatal(err)
	}
	mdBytes, err := os.ReadFile(mdPath)
	if err != nil {
		t.Fatal(err)
	}
	md := bytes.NewBuffer(mdBytes)
	dash := strings.Join(summarySegments(asciiStyles(), s.summary), " · ")
	figures := []string{
		plain.Served(live.Served), plain.All4(live), format.Seconds(live.MedianWaitOutageS),
		format.Seconds(live.P95WaitOutageS), format.Seconds(live.BreakerFirstOpenS), plain.Followed(live.Followed),
		plain.Status(live),
	}
	for _, fig := range figures {
		if !strings.Contains(table.String(), fig) {
			t.Errorf("compare's table lacks %q:\n%s", fig, table.String())
		}
		if !strings.Contains(md.String(), fig) {
			t.Errorf("the report lacks %q", fig)
		}
		if !strings.Contains(dash, strings.ReplaceAll(fig, " / ", "/")) {
			t.Errorf("the dashboard's summary lacks %q:\n%s", fig, dash)
		}
	}

	// The report's per-email rows and paired table are the same fold.
	answered, right := 0, 0
	for _, e := range run.Emails {
		if e.Answered {
			answered++
			if e.All4 {
				right++
			}
		}
		if rec, ok := s.fold.Email(e.ID); !ok || rec.All4 != e.All4 || rec.Answered != e.Answered {
			t.Errorf("email %d: report says answered %v all4 %v, dashboard %+v", e.ID, e.Answered, e.All4, rec)
		}
	}
	if answered != live.EmailsAnswered || len(run.Waits) != answered {
		t.Errorf("report: %d emails answered, %d waits; summary %d", answered, len(run.Waits), live.EmailsAnswered)
	}
	if len(rep.Pairs) != 1 {
		t.Fatalf("%d pairs, want the journal paired with itself", len(rep.Pairs))
	}
	p := rep.Pairs[0]
	if p.All4A != live.All4Right || p.N != live.EmailsAnswered || p.OnlyA != 0 || p.OnlyB != 0 {
		t.Errorf("pair %+v: want all-4-right %v over %d answered", p, live.All4Right, live.EmailsAnswered)
	}
	if got := float64(right) / float64(answered); format.Percent(got) != format.Percent(live.All4Right) {
		t.Errorf("report rows give all-4-right %v, summary %v", got, live.All4Right)
	}
	b := s.fold.Breaker(event.ServedPrimary)
	if len(run.BreakerOpen) != b.Opens || b.Opens != live.BreakerOpens {
		t.Errorf("breaker opens: report spans %d, dashboard %d, summary %d", len(run.BreakerOpen), b.Opens, live.BreakerOpens)
	}
}

// TestPanesSurviveHostileOffsets folds events with negative and huge
// offsets (a corrupt journal) and renders every pane: nothing panics.
func TestPanesSurviveHostileOffsets(t *testing.T) {
	st := asciiStyles()
	s := newState(nil)
	for _, at := range []time.Duration{-time.Hour, math.MaxInt64, math.MinInt64, 1 << 62} {
		s.addAll([]event.Event{
			{At: at, Kind: event.RunStart, Run: &event.RunInfo{Emails: 3, Rate: 2, Outage: "busy", OutageToS: 1e300,
				Rungs: []event.Rung{{Name: "primary", HasBreaker: true}}}},
			{At: at, Kind: event.OutageStart, Window: &event.Window{From: at, To: -at}},
			{At: at, Kind: event.EmailSent, Email: 1},
			{At: at, Kind: event.AttemptStart, Email: 1, Rung: "primary"},
			{At: at, Kind: event.BreakerChange, Breaker: &event.BreakerState{Name: "primary", To: "open"}},
			{At: at, Kind: event.EmailDone, Email: 1, Result: &event.Result{ServedBy: "primary", Wait: at}},
		})
		for _, now := range []time.Duration{0, at} {
			_ = renderHeader(st, s, 80, now, "")
			_ = emailsAt(st, s, 80, 12, now)
			_ = renderBreaker(st, s, 78, 6, now)
			_ = renderCalls(st, s, 78, 12, now)
			_ = renderQuality(st, s, 78, 8)
			_ = renderDetail(st, s, 1, now)
		}
	}
}
