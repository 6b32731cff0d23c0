// Package report turns journals into drill reports: one self-contained HTML
// file (charts inline) or Markdown with chart images beside it. Every figure
// comes from scoring's fold — the one the live run and replay use — so a
// number in a report is the number the drill showed.
//
// A report holds the chapter-style table across the runs, the settings that
// differ between them, per run the email-by-email chart, attempts per second
// to each model and a histogram of waits, and for runs of the same emails a
// paired test of all-4-right (McNemar, exact) and the difference in median
// wait during the outage.
package report

import (
	"context"
	"fmt"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/scoring"
)

// Email is one email's course through a run, as the charts and paired tests
// need it: the fold's record of it.
type Email struct {
	ID       int
	Sent     time.Duration
	Done     time.Duration // valid when Finished
	Wait     time.Duration // the run's own measure of the wait (Result.Wait), valid when Finished
	Finished bool
	// Answered is Finished and not cancelled by the end of the run: the
	// emails quality is over.
	Answered bool
	ServedBy string // primary, backup, canned, error; "" when not finished
	All4     bool   // all four fields right (false when not answered or not scored)
	Class    string // the class the run's routes put it in; "" without routes
}

// Span is a period of a run, as offsets from its start.
type Span = scoring.Span

// Run is one journal, folded for a report.
type Run struct {
	Path    string
	Meta    journal.Meta
	Info    event.RunInfo
	Summary scoring.Summary // recomputed from the events
	// Windows are the outage windows figures are relative to: the injected
	// ones, or the broken model's observed failure window (Basis observed).
	// A window still on when the journal ends is shaded to its end, and
	// StillOn says which were.
	Windows []scoring.Window
	StillOn []bool
	Emails  []Email // in ID order
	// BreakerOpen are the periods the broken rung's breaker was open
	// (from opening to half-open or closed).
	BreakerOpen []Span
	// Alerts are the alert notifications the team's Alertmanager sent
	// during the run (--alert-listen), placed by the fold.
	Alerts []scoring.AlertNote
	// Attempts counts attempts started per whole second of the run, by model.
	Attempts map[string][]int
	// Waits are the waits of every answered email, in seconds, in ID order.
	Waits []float64
	End   time.Duration // offset of the last event
	// Proxy folds the requests of a run recorded by drill proxy.
	Proxy *scoring.ProxyTally
	// Fleet is the per-replica summary of a drill fleet journal; nil for
	// any other run.
	Fleet *scoring.FleetSummary
}

// Label names the run in tables and headings: its outage and policy.
func (r *Run) Label() string {
	o, p := r.Summary.OutageLabel(), r.Summary.Policy
	if o == "" {
		o = "?"
	}
	if p == "" {
		p = "?"
	}
	return o + " / " + p
}

// Status is how the run ended: its journal's summary status, or interrupted
// if the journal was cut short.
func (r *Run) Status() string { return r.Meta.Status() }

// Load reads the journal at path and folds it for a report, streaming.
// Every figure, the breaker's open periods and each email's correctness
// come from the same scoring.Fold as the live run's.
func Load(path string) (*Run, error) {
	f := scoring.NewFold()
	r := &Run{Path: path, Attempts: map[string][]int{}, Proxy: scoring.NewProxyTally()}
	var fl scoring.FleetScan
	n := 0
	m, err := journal.Scan(path, func(e event.Event) error {
		f.Add(e)
		fl.Add(e)
		r.Proxy.Add(e)
		if n++; loadProbe != nil && n%loadProbeEvery == 0 {
			loadProbe()
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	r.End = f.Elapsed()
	r.Meta = m
	r.Info = f.Info
	r.Summary = f.Summary()
	r.Summary.Baseline = RecordedBaseline(m)
	r.Fleet = fl.Summary()
	r.BreakerOpen = f.BreakerSpans(f.Target(), r.End)
	r.Alerts = f.AlertNotes()
	// The outage the charts shade: the injected windows, or for an
	// outage drill did not inject, the broken model's observed window.
	_, basis := f.Basis()
	r.Windows = append([]scoring.Window(nil), basis...)
	r.StillOn = make([]bool, len(r.Windows))
	for i := range r.Windows {
		if r.Windows[i].To < 0 {
			r.Windows[i].To = max(r.End, r.Windows[i].From)
			r.StillOn[i] = true
		}
	}
	for _, rg := range f.Info.Rungs {
		if counts := f.AttemptsPerSecond(rg.Name); len(counts) > 0 {
			model := rg.Model
			if model == "" {
				model = rg.Name
			}
			r.Attempts[model] = counts
		}
	}
	ids := f.Emails()
	r.Emails = make([]Email, 0, len(ids)) // a million emails' rows, allocated once
	r.Waits = make([]float64, 0, len(ids))
	for _, id := range ids {
		rec, _ := f.Email(id)
		em := Email{ID: id, Sent: rec.Sent, Class: f.Class(id)}
		if rec.Done {
			em.Finished, em.Done, em.Wait, em.ServedBy = true, rec.DoneAt, rec.Result.Wait, rec.Result.ServedBy
			em.Answered, em.All4 = rec.Answered, rec.All4
			if rec.Answered {
				r.Waits = append(r.Waits, rec.Result.Wait.Seconds())
			}
		}
		r.Emails = append(r.Emails, em)
	}
	return r, nil
}

// loadProbe, when set (by tests), is called every loadProbeEvery events
// while Load folds a journal, with everything Load holds still live: what
// it sees is what reading costs in memory as the journal grows.
var loadProbe func()

// loadProbeEvery is how often Load calls loadProbe, in events.
const loadProbeEvery = 4096

// LoadAll loads every journal, in order: in parallel, each streamed
// (journal.LoadEach); the error is the first in the order given.
func LoadAll(paths []string) ([]*Run, error) {
	if len(paths) == 0 {
		return nil, fmt.Errorf("report: no journals given")
	}
	return journal.LoadEach(context.Background(), paths, func(_ context.Context, path string) (*Run, error) {
		return Load(path)
	})
}
