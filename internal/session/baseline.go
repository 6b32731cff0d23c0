package session

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/plan"
	"github.com/drill-dev/drill/internal/predict"
	"github.com/drill-dev/drill/internal/vclock"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

// Baseline is a drill's baseline, played in the background: on the
// virtual clock when the models are built in (about half a second for the
// chapter's drill), else drill predict's arithmetic for the baseline
// policy. A replayed baseline plays what the live run played: when the
// live run's log records an outage started or ended by hand (Follow), it
// plays again with the timeline the live run played; a change it cannot
// replay (arrivals paused by hand) marks its figures not comparable, with
// the reason. Its methods are safe for concurrent use.
type Baseline struct {
	name   string          // the baseline policy, as --baseline names it
	cfg    workload.Config // the baseline's configuration, as first played
	ctx    context.Context // the plays' parent; ends on Close
	cancel context.CancelFunc
	plays  sync.WaitGroup // every play's goroutine

	mu            sync.Mutex
	cur           *baselinePlay            // the play whose figures are shown: the newest
	hand          scoring.HandChanges      // what the hand changed in the live run (Follow)
	notComparable string                   // why the figures do not compare, or ""
	closed        bool                     // Close was called: last are the figures, folded no further
	last          *scoring.BaselineSummary // cur's figures the last time At took them
	predicted     *scoring.BaselineSummary // real endpoints: the prediction
}

// baselinePlay is one play of the baseline: its figures once ready is
// closed, or why it failed.
type baselinePlay struct {
	ready  chan struct{}
	cancel context.CancelFunc
	// Set before ready is closed, then guarded by Baseline.mu.
	fold *scoring.Baseline // the play's log, read as the live run goes
	log  *baselineLog      // the file fold reads; closed at its end, when superseded, or by Close
	err  error             // why the play failed
}

// StartBaseline starts playing cfg's baseline policy name in the background
// (see Baseline). It returns nil for plan.BaselineNone and "". The
// virtual-clock child's own error output (a panic's) is kept for Err,
// never written to the terminal the dashboard draws on.
func StartBaseline(ctx context.Context, cfg workload.Config, name string) (*Baseline, error) {
	if name == "" || name == plan.BaselineNone {
		return nil, nil
	}
	bcfg, err := plan.BaselineConfig(cfg, name)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	b := &Baseline{name: name, cfg: bcfg, ctx: ctx, cancel: cancel}
	b.mu.Lock()
	defer b.mu.Unlock()
	if vclock.CheckConfig(bcfg) != nil {
		// Real models: a baseline cannot be replayed against them, so it
		// is the arithmetic, labelled predicted.
		p := scoring.PredictedBaseline(name, predict.ForRun(ctx, bcfg))
		b.predicted = &p
		b.cur = &baselinePlay{ready: make(chan struct{}), cancel: func() {}}
		close(b.cur.ready)
		return b, nil
	}
	b.playLocked(bcfg)
	return b, nil
}

// playLocked starts playing bcfg as the newest play and stops the one
// before, whose figures are no longer shown. b.mu is held.
func (b *Baseline) playLocked(bcfg workload.Config) {
	ctx, cancel := context.WithCancel(b.ctx)
	p := &baselinePlay{ready: make(chan struct{}), cancel: cancel}
	if old := b.cur; old != nil {
		old.cancel()
		old.log.close() // nil while it plays: then it closes its own
	}
	b.cur, b.last = p, nil
	b.plays.Go(func() {
		defer close(p.ready)
		var stderr bytes.Buffer
		log, err := playBaseline(ctx, bcfg, &stderr)
		if err != nil && stderr.Len() > 0 {
			err = fmt.Errorf("%w\n%s", err, tail(stderr.String(), 2000))
		}
		b.mu.Lock()
		defer b.mu.Unlock()
		if b.cur != p || b.closed {
			log.close() // superseded by a newer play, or closed: never read
			return
		}
		if err != nil {
			p.err = fmt.Errorf("baseline %s: %w", b.name, err)
			return
		}
		p.log = log
		p.fold = scoring.NewBaselineFrom(b.name, func() (event.Event, bool) {
			e, err := log.next()
			if err != nil && p.err == nil && !errors.Is(err, io.EOF) {
				p.err = fmt.Errorf("baseline %s: %w", b.name, err)
			}
			return e, err == nil
		})
	})
}

// Follow reads the live run's log through cur (a cursor attached before
// the log may release events) until the log ends or ctx ends, and closes
// cur. Whenever the hand changed the live run's timeline it replays the
// baseline: an outage started or ended by hand plays it again with the
// timeline the live run played (scoring.HandChanges.Timeline); arrivals
// paused by hand, which no baseline can replay, mark its figures not
// comparable. For a nil or predicted Baseline it returns at once.
func (b *Baseline) Follow(ctx context.Context, cur *event.Cursor) {
	defer cur.Close()
	if b == nil || b.predicted != nil {
		return
	}
	for {
		evs, err := cur.Next(ctx)
		if err != nil {
			return
		}
		b.mu.Lock()
		changed := false
		for _, e := range evs {
			changed = b.hand.Add(e) || changed
		}
		if changed && !b.closed {
			b.notComparable = b.hand.NotComparable()
			if b.notComparable == "" {
				bcfg := b.cfg
				bcfg.Outages = b.hand.Timeline(b.cfg.Windows())
				b.playLocked(bcfg)
			}
		}
		b.mu.Unlock()
	}
}

// Close stops a baseline still playing and lets go of its log: the
// figures stay as far as they were folded. A nil Baseline, or one closed
// already, does nothing more.
func (b *Baseline) Close() {
	if b == nil {
		return
	}
	b.mu.Lock()
	b.closed = true // no play starts after this
	b.mu.Unlock()
	b.cancel()
	b.plays.Wait()
	b.mu.Lock()
	defer b.mu.Unlock()
	b.cur.log.close()
}

// baselineLog is a baseline run's journal, read one event at a time. The
// file has no name: it is removed as soon as it is open, so nothing is
// left behind however the drill ends.
type baselineLog struct {
	f *os.File
	r *journal.Reader
}

// next is the log's next event; io.EOF at its end, after which the file
// is closed.
func (l *baselineLog) next() (event.Event, error) {
	if l.f == nil {
		return event.Event{}, io.EOF
	}
	e, err := l.r.Next()
	if err != nil {
		l.close()
	}
	return e, err
}

func (l *baselineLog) close() {
	if l != nil && l.f != nil {
		l.f.Close()
		l.f = nil
	}
}

// playBaseline runs bcfg in virtual time, recorded to a temporary journal,
// and opens its log. A long baseline's events are read as the live run
// goes, never held whole (100,000 emails are about a million events).
func playBaseline(ctx context.Context, bcfg workload.Config, stderr io.Writer) (*baselineLog, error) {
	f, err := os.CreateTemp("", "drill-baseline-*.jsonl")
	if err != nil {
		return nil, fmt.Errorf("recording the baseline: %w", err)
	}
	f.Close()
	path := f.Name()
	defer os.Remove(path) // an open file stays readable
	h, err := Header(bcfg, time.Now())
	if err != nil {
		return nil, err
	}
	undo := vclock.Beside() // the live run and this process share the memory
	defer undo()
	outs, err := vclock.Drills(ctx, []vclock.Job{{Config: bcfg, Journal: path, Header: &h}}, 1, stderr)
	if err != nil {
		return nil, FromChild(err)
	}
	if o := outs[0]; o.Error != "" {
		return nil, fmt.Errorf("%s: %s", o.Status, o.Error)
	}
	if f, err = os.Open(path); err != nil {
		return nil, fmt.Errorf("reading the baseline back: %w", err)
	}
	r, err := journal.NewReader(f, path)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("reading the baseline back: %w", err)
	}
	return &baselineLog{f: f, r: r}, nil
}

// Name is the baseline policy, as --baseline names it.
func (b *Baseline) Name() string { return b.name }

// Ready is closed once the newest play's figures are known (or it
// failed); a replay after a change by hand is a new play.
func (b *Baseline) Ready() <-chan struct{} {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.cur.ready
}

// Err is why the baseline could not be played; nil while it plays, once
// it is ready, and for no baseline (a nil Baseline).
func (b *Baseline) Err() error {
	if b == nil {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.cur.err
}

// At returns the baseline's figures at the live run's elapsed time, or
// over the whole baseline when whole is set (the live run completed); false
// while it still plays (again, after a change by hand) or if it failed. A
// predicted baseline has no time: its figures are the same at every
// elapsed time.
func (b *Baseline) At(at time.Duration, whole bool) (scoring.BaselineSummary, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	p := b.cur
	select {
	case <-p.ready:
	default:
		return scoring.BaselineSummary{}, false
	}
	switch {
	case b.predicted != nil:
		return *b.predicted, true
	case b.closed:
		if b.last != nil {
			return *b.last, true
		}
	case p.fold != nil:
		s := p.fold.At(at, whole)
		s.NotComparable = b.notComparable
		b.last = &s
		return s, true
	}
	return scoring.BaselineSummary{}, false
}

// Email is email id's record in the replayed baseline as far as the last
// At folded it (the live run's elapsed time); false while the baseline
// plays, for a predicted baseline (it has no log) and for an email the
// baseline has not sent by then.
func (b *Baseline) Email(id int) (scoring.EmailRecord, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	p := b.cur
	select {
	case <-p.ready:
	default:
		return scoring.EmailRecord{}, false
	}
	if p.fold == nil {
		return scoring.EmailRecord{}, false
	}
	return p.fold.Email(id)
}

// Whole waits for the baseline (or ctx's end) and returns its figures over
// its whole run, for a drill played after it (--clock virtual); nil as for
// Final.
func (b *Baseline) Whole(ctx context.Context) *scoring.BaselineSummary { return b.wait(ctx, 0, true) }

// Final returns the baseline's figures beside a finished live run:
// summary's elapsed time, or the whole baseline when the live run
// completed, waiting for the baseline (or ctx's end) if it still plays. A
// live run stopped early (q, Ctrl-C, an abort) does not wait: a large
// drill's baseline may take many seconds more, and quitting must not hang,
// so its summary goes without one unless the baseline is ready. Nil when no
// baseline was played, it failed (Err says why) or ctx ended first. Call it
// once Follow has returned, so that the baseline plays every change the
// live run's log holds.
func (b *Baseline) Final(ctx context.Context, live scoring.Summary) *scoring.BaselineSummary {
	whole := live.Status == event.StatusCompleted
	if b != nil && !whole {
		select {
		case <-b.Ready():
		default:
			return nil
		}
	}
	return b.wait(ctx, time.Duration(live.WallS*float64(time.Second)), whole)
}

// wait waits for the newest play (or ctx's end) and returns At(at,
// whole); nil as for Final.
func (b *Baseline) wait(ctx context.Context, at time.Duration, whole bool) *scoring.BaselineSummary {
	if b == nil {
		return nil
	}
	for {
		ready := b.Ready()
		select {
		case <-ready:
		case <-ctx.Done():
			return nil
		}
		if b.Ready() == ready { // no newer play began meanwhile
			break
		}
	}
	s, ok := b.At(at, whole)
	if !ok {
		return nil
	}
	return &s
}

// tail is the last n bytes of s.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[len(s)-n:]
}
