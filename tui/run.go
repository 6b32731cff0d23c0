package tui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/scoring"
)

// Controls steer a live drill. *workload.Run satisfies it.
type Controls interface {
	// Stop cancels the drill: in-flight requests end, status interrupted.
	Stop()
	// Pause holds arrivals; Resume releases them; Paused reports which.
	Pause()
	Resume()
	Paused() bool
	// OutageKinds are the kinds StartOutage accepts, in the order the keys
	// 1, 2, … pick them after o.
	OutageKinds() []string
	// StartOutage starts an outage of kind (one of OutageKinds()) now,
	// with its default parameters; EndOutage
	// ends the current one. Both are recorded like scheduled ones.
	StartOutage(kind string) error
	EndOutage()
}

// Source is what the live dashboard reads and steers.
type Source struct {
	// Log is the run's event log; the dashboard follows it with a cursor
	// polled on a tick and never blocks the engine.
	Log *event.Log
	// Controls steer the run; nil makes the dashboard read-only.
	Controls Controls
	// Hypotheses are the drill's checks, shown live in the header as
	// pass, at risk or FAIL (scoring.Expr.Live).
	Hypotheses []scoring.Expr
	// Baseline, if set, is the drill's baseline, shown beside the live
	// figures (baseline.go).
	Baseline BaselineSource
}

// Options set up the dashboard's terminal.
type Options struct {
	// Input and Output default to stdin and stdout.
	Input  io.Reader
	Output io.Writer
	// Tick is how often the log is read; 150 ms if zero.
	Tick time.Duration
	// NoAltScreen draws in the normal screen instead of the alternate one.
	NoAltScreen bool
}

// ReplayOptions set up a replay.
type ReplayOptions struct {
	Options
	// Speed is the initial replay speed; 1 (real time) if zero.
	Speed float64
	// At opens the replay paused at this offset into the run (space
	// plays on); 0 starts playing from the beginning.
	At time.Duration
	// Hypotheses are judged live on the replayed figures, as in Source.
	Hypotheses []scoring.Expr
	// Baseline is the baseline the journal recorded beside the run
	// (report.RecordedBaseline: its figures where the live run ended, over
	// its whole run when it completed); nil for none. A replay cannot play
	// it again, so the panes show these figures, labelled as recorded, and
	// no per-email bars.
	Baseline *scoring.BaselineSummary
}

// Run shows the dashboard for a live drill until the user quits. Quitting
// while the drill runs stops it: q ends it early (early is true: a normal
// end, the drill judged on what ran), ctrl+c interrupts it; when the drill
// ends the dashboard stays on the final state with the summary row. If ctx
// ends first the drill is stopped and ctx's error returned.
func Run(ctx context.Context, src Source, opts Options) (early bool, err error) {
	if src.Log == nil {
		return false, errors.New("dashboard: no event log")
	}
	feed := &liveFeed{log: src.Log, cur: src.Log.Cursor()}
	m, err := runProgram(ctx, feed, src.Controls, src.Hypotheses, opts, src.Baseline)
	if err != nil && src.Controls != nil && !src.Log.Closed() {
		src.Controls.Stop()
	}
	return err == nil && m.early, err
}

// Replay shows a recorded run's events as the live dashboard would, paced by
// their recorded offsets: space pauses, ←/→ seek 5 s, +/- change the speed.
func Replay(ctx context.Context, events []event.Event, opts ReplayOptions) error {
	f := newReplayFeed(events, opts.Speed)
	if opts.At > 0 {
		f.pos, f.paused = min(opts.At, f.end), true
	}
	var base BaselineSource
	if opts.Baseline != nil {
		base = recordedBaseline{*opts.Baseline}
	}
	_, err := runProgram(ctx, f, nil, opts.Hypotheses, opts.Options, base)
	return err
}

func runProgram(ctx context.Context, feed feeder, ctl Controls, hyps []scoring.Expr, opts Options, base BaselineSource) (*Model, error) {
	term := opts.Terminal()
	m := newModel(NewStyles(term.Renderer), feed, ctl, opts.Tick, hyps)
	m.base = base
	how, err := RunProgram(ctx, "dashboard", m, term, opts, tea.WithMouseCellMotion())
	if how == Interrupted && ctl != nil && !m.done {
		// SIGINT reached the program rather than a ctrl+c key: an
		// interruption, as ctrl+c.
		ctl.Stop()
		m.early = false
	}
	return m, err
}

// replayFeed paces recorded events by their offsets on a replay clock that
// the user can pause, seek and speed up.
type replayFeed struct {
	events  []event.Event
	idx     int
	pos     time.Duration // the replay clock
	end     time.Duration // the last event's offset
	speed   float64
	paused  bool
	lastT   time.Time
	started bool
	reset   bool // the clock went backwards: refold from the start
}

func newReplayFeed(events []event.Event, speed float64) *replayFeed {
	if speed <= 0 {
		speed = 1
	}
	f := &replayFeed{events: events, speed: speed}
	if n := len(events); n > 0 {
		f.end = events[n-1].At
	}
	return f
}

func (f *replayFeed) poll(t time.Time) ([]event.Event, time.Duration, bool) {
	if f.started && !f.paused && t.After(f.lastT) {
		f.pos += time.Duration(float64(t.Sub(f.lastT)) * f.speed)
	}
	f.started, f.lastT = true, t
	f.pos = min(f.pos, f.end)
	j := f.idx
	for j < len(f.events) && f.events[j].At <= f.pos {
		j++
	}
	evs := f.events[f.idx:j]
	f.idx = j
	return evs, f.pos, f.idx == len(f.events)
}

// seek moves the replay clock by d; going back makes the model refold.
func (f *replayFeed) seek(d time.Duration) {
	f.pos = min(max(f.pos+d, 0), f.end)
	if d < 0 {
		f.reset = true
	}
}

func (f *replayFeed) setSpeed(s float64) {
	f.speed = min(max(s, 0.25), 64)
}

func (f *replayFeed) status() string {
	s := fmt.Sprintf("replay %g× %s", f.speed, format.DurOf(f.pos, f.end))
	if f.paused {
		s += " PAUSED"
	}
	return s
}
