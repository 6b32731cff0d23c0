package tui

import (
	"encoding/binary"
	"hash/fnv"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/scoring"
)

// Breaker state names as the engine records them.
const (
	stateClosed   = scoring.StateClosed
	stateOpen     = scoring.StateOpen
	stateHalfOpen = scoring.StateHalfOpen
)

// row is one email's line in the Emails pane: the fold's record of it.
type row = scoring.EmailRecord

// state is everything the dashboard shows: the run's fold (which keeps
// every email's attempts for the detail view) and its summary. The panes
// only render it; no event is interpreted here.
type state struct {
	fold    *scoring.Fold
	summary scoring.Summary // fold.Summary(), refreshed after each batch
	dirty   bool
	gen     int            // bumped by every batch of events
	hyps    []scoring.Expr // the drill's hypotheses, judged live
	live    hypCounts      // their live statuses on the summary so far
	// baseline is the drill's baseline at the live run's elapsed time.
	baseline baselineView
}

// hypCounts counts the hypotheses by live status (scoring.Expr.Live).
type hypCounts struct{ total, pass, atRisk, fail int }

func newState(hyps []scoring.Expr) *state {
	s := &state{fold: scoring.NewFoldWith(scoring.Options{Attempts: true}), hyps: hyps}
	s.judge()
	return s
}

// hypotheses are the hypotheses' live statuses.
func (s *state) hypotheses() hypCounts { return s.live }

// judge recomputes the hypotheses' live statuses from the summary.
func (s *state) judge() {
	s.live = hypCounts{total: len(s.hyps)}
	if len(s.hyps) == 0 {
		return
	}
	figs, err := scoring.FiguresOf(s.summary)
	if err != nil {
		s.live.atRisk = len(s.hyps)
		return
	}
	for _, h := range s.hyps {
		live := h.Live(figs)
		if s.fold.Done() && live != scoring.LivePass {
			live = scoring.LiveFail // the run is over: what does not hold failed
		}
		switch live {
		case scoring.LivePass:
			s.live.pass++
		case scoring.LiveFail:
			s.live.fail++
		default:
			s.live.atRisk++
		}
	}
}

// addAll folds a batch of events and refreshes the summary once.
func (s *state) addAll(evs []event.Event) {
	s.fold.AddAll(evs)
	s.dirty = s.dirty || len(evs) > 0
	if len(evs) > 0 {
		s.gen++
	}
	s.refresh()
}

// refresh recomputes the summary if events arrived since the last call.
func (s *state) refresh() {
	if s.dirty {
		s.summary = s.fold.Summary()
		s.dirty = false
		s.judge()
	}
}

// rowCount is the number of emails sent so far.
func (s *state) rowCount() int { return len(s.fold.SentOrder()) }

// rowAt is the i-th email sent (from 0).
func (s *state) rowAt(i int) *row {
	r, _ := s.fold.Email(s.fold.SentOrder()[i])
	return r
}

// row is the email with number id, or nil if it was not sent.
func (s *state) row(id int) *row {
	if r, ok := s.fold.Email(id); ok && r.SentKnown {
		return r
	}
	return nil
}

// last is the offset of the last event.
func (s *state) last() time.Duration { return s.fold.Elapsed() }

// ended reports whether the run has ended (run_end folded).
func (s *state) ended() bool { return s.fold.Done() }

// winStamp changes whenever the shaded outage windows change (injected
// ones, or the observed failure window of an outage drill did not inject).
func (s *state) winStamp() int {
	_, ws := s.fold.Basis()
	h := fnv.New64a()
	for _, w := range ws {
		binary.Write(h, binary.LittleEndian, [2]int64{int64(w.From), int64(w.To)})
	}
	return int(h.Sum64())
}

// outageActive reports whether an outage window is open now.
func (s *state) outageActive() bool {
	_, open := s.fold.ActiveOutage()
	return open
}
