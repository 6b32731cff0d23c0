package scoring

import (
	"time"

	"github.com/drill-dev/drill/event"
)

// AlertClockSkew is how much earlier than the run's start an alert may
// have started and still be the run's: Prometheus stamps startsAt with its
// own clock, which may run a little behind drill's.
const AlertClockSkew = 2 * time.Second

// Why an alert received is not the run's (ReceivedAlert.Not).
const (
	// AlertStale is an alert that started before the run (by more than
	// AlertClockSkew): a firing of an earlier run Alertmanager re-sent.
	AlertStale = "stale"
	// AlertForeign is an alert whose drill_run label names another run.
	AlertForeign = "foreign"
)

// AlertSummary is what the run heard of one alert (by its alertname) from
// the team's Alertmanager: the summary's "alert" map, keyed by the name, so
// a hypothesis names `alert.BreakerOpen.fired` or
// `alert.BreakerOpen.first_s - breaker_first_open_s < 60`. An alert never
// received is absent, and a check on it does not hold.
//
// Only the run's own alerts count as fired: one that started inside the
// run (its startsAt at or after the run's start, less AlertClockSkew) and,
// when it carries a drill_run label, names this run. The others are
// counted apart as stale or foreign and satisfy no check on fired.
type AlertSummary struct {
	// Fired counts the alert's firings received: distinct (fingerprint,
	// starts at) pairs with status firing, however often Alertmanager
	// repeated each notification, of the run's own alerts.
	Fired int `json:"fired"`
	// Resolved counts the firings whose resolved notification came.
	Resolved int `json:"resolved"`
	// Notifications counts every notification of the run's own alert
	// received, firing and resolved, repeats included.
	Notifications int `json:"notifications"`
	// FirstS is when its first firing notification was received, in
	// seconds from the outage's start (the outage basis's first window,
	// as breaker_first_open_s), or from the run's start when the run had
	// no outage; null if it never fired.
	FirstS *float64 `json:"first_s"`
	// FirstRunS is the same moment in seconds from the run's start.
	FirstRunS *float64 `json:"first_run_s"`
	// ResolvedS is when the first resolved notification of one of its
	// firings was received, from the same origin as FirstS; null if none
	// came.
	ResolvedS *float64 `json:"resolved_s"`
	// ResolvedRunS is the same moment in seconds from the run's start.
	ResolvedRunS *float64 `json:"resolved_run_s"`
	// Stale counts the firings received that started before the run:
	// distinct (fingerprint, starts at) pairs, not counted in Fired.
	Stale int `json:"stale"`
	// StaleStartRunS is when the first stale firing received started, in
	// seconds from the run's start (negative); null without one.
	StaleStartRunS *float64 `json:"stale_start_run_s"`
	// Foreign counts the firings received whose drill_run label names
	// another run, not counted in Fired.
	Foreign int `json:"foreign"`
	// ForeignRun is the drill_run label of the first foreign firing.
	ForeignRun string `json:"foreign_run,omitempty"`
}

// alertKey names one firing of one alert.
type alertKey struct {
	fingerprint string
	startsAt    time.Time
}

// alertTrack is the fold's running state of one alert.
type alertTrack struct {
	fired, resolved   map[alertKey]bool // the run's own firings
	stale, foreign    map[alertKey]bool // firings that are not the run's
	notifications     int
	first, resolvedAt *time.Duration
	staleStart        *time.Duration // from the run's start
	foreignRun        string
}

// ReceivedAlert is one alert notification as the fold saw it: the
// dashboard lists them, the report puts them on the time axis.
type ReceivedAlert struct {
	At     time.Duration
	Name   string
	Status string
	Labels map[string]string
	// Not is why the alert is not the run's (AlertStale, AlertForeign);
	// "" for the run's own.
	Not string
	// StartRun is when the alert started, from the run's start (negative:
	// before it); nil when the run's start or the alert's is unknown.
	StartRun *time.Duration
}

// alertBelongs says whether an alert is the run's: "" if it is, else
// AlertStale or AlertForeign. A run recorded without its start or its id
// (older journals) skips that check.
func (f *Fold) alertBelongs(a *event.Alert) string {
	if !f.Info.StartedAt.IsZero() && a.StartsAt.Before(f.Info.StartedAt.Add(-AlertClockSkew)) {
		return AlertStale
	}
	if run, ok := a.Labels[event.RunLabel]; ok && f.Info.ID != "" && run != f.Info.ID {
		return AlertForeign
	}
	return ""
}

// alertReceived folds an alert event.
func (f *Fold) alertReceived(e event.Event) {
	a := e.Alert
	if a == nil {
		return
	}
	if f.alerts == nil {
		f.alerts = map[string]*alertTrack{}
	}
	t := f.alerts[a.Name]
	if t == nil {
		t = &alertTrack{fired: map[alertKey]bool{}, resolved: map[alertKey]bool{},
			stale: map[alertKey]bool{}, foreign: map[alertKey]bool{}}
		f.alerts[a.Name] = t
	}
	k := alertKey{a.Fingerprint, a.StartsAt}
	r := ReceivedAlert{At: e.At, Name: a.Name, Status: a.Status, Labels: a.Labels, Not: f.alertBelongs(a)}
	if !f.Info.StartedAt.IsZero() && !a.StartsAt.IsZero() {
		start := a.StartsAt.Sub(f.Info.StartedAt)
		r.StartRun = &start
	}
	f.received = append(f.received, r)
	switch r.Not {
	case AlertStale:
		t.stale[k] = true
		if t.staleStart == nil && r.StartRun != nil {
			t.staleStart = r.StartRun
		}
		return
	case AlertForeign:
		t.foreign[k] = true
		if t.foreignRun == "" {
			t.foreignRun = a.Labels[event.RunLabel]
		}
		return
	}
	t.notifications++
	at := e.At
	switch a.Status {
	case event.AlertFiring:
		t.fired[k] = true
		if t.first == nil {
			t.first = &at
		}
	case event.AlertResolved:
		t.resolved[k] = true
		if t.resolvedAt == nil {
			t.resolvedAt = &at
		}
	}
}

// alertsDropped folds an alerts_dropped event: alerts the receiver did
// not log, past its bounds.
func (f *Fold) alertsDropped(e event.Event) {
	if e.Alert != nil && e.Alert.Dropped > 0 {
		f.droppedAlerts += e.Alert.Dropped
	}
}

// Alerts lists the alert notifications received so far, in order.
func (f *Fold) Alerts() []ReceivedAlert { return f.received }

// alertSummaries is the summary's alert map; nil when no alert came, so a
// summary of a run without alerts reads the same as before alerts existed.
func (f *Fold) alertSummaries(ws []Window) map[string]AlertSummary {
	if len(f.alerts) == 0 {
		return nil
	}
	var origin time.Duration
	if len(ws) > 0 {
		origin = ws[0].From
	}
	secs := func(d *time.Duration, from time.Duration) *float64 {
		if d == nil {
			return nil
		}
		return ptr(round((*d - from).Seconds(), 3))
	}
	out := make(map[string]AlertSummary, len(f.alerts))
	for name, t := range f.alerts {
		s := AlertSummary{Fired: len(t.fired), Notifications: t.notifications, Stale: len(t.stale),
			Foreign: len(t.foreign), ForeignRun: t.foreignRun}
		for k := range t.resolved {
			if t.fired[k] {
				s.Resolved++
			}
		}
		s.FirstS, s.FirstRunS = secs(t.first, origin), secs(t.first, 0)
		s.ResolvedS, s.ResolvedRunS = secs(t.resolvedAt, origin), secs(t.resolvedAt, 0)
		s.StaleStartRunS = secs(t.staleStart, 0)
		out[name] = s
	}
	return out
}

// AlertOf returns the Alertmanager alert an event received, if it is an
// alert event that carries one.
func AlertOf(e event.Event) (*event.Alert, bool) {
	if e.Kind != event.AlertReceived || e.Alert == nil {
		return nil, false
	}
	return e.Alert, true
}

// AlertNote is a received alert placed on the drill's own clock: how far
// into the outage it came and how long after the target's breaker first
// opened. The dashboard shows one line per note as alerts arrive.
type AlertNote struct {
	ReceivedAlert
	// IntoOutage is its offset from the outage's start (the outage basis's
	// first window, as breaker_first_open_s); nil without an outage.
	IntoOutage *time.Duration
	// AfterOpen is how long after the target's breaker first opened in the
	// outage it came (negative: before); nil while the breaker has not
	// opened.
	AfterOpen *time.Duration
}

// AlertNotes places each alert notification received so far, in order.
func (f *Fold) AlertNotes() []AlertNote {
	if len(f.received) == 0 {
		return nil
	}
	_, ws := f.Basis()
	first := firstOpenAfter(f.breakerChanges(f.Target()), ws)
	out := make([]AlertNote, len(f.received))
	for i, a := range f.received {
		n := AlertNote{ReceivedAlert: a}
		if len(ws) > 0 {
			into := a.At - ws[0].From
			n.IntoOutage = &into
			if first != nil {
				after := into - *first
				n.AfterOpen = &after
			}
		}
		out[i] = n
	}
	return out
}
