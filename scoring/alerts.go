package scoring

import (
	"time"

	"github.com/drill-dev/drill/event"
)

// AlertSummary is what the run heard of one alert (by its alertname) from
// the team's Alertmanager: the summary's "alert" map, keyed by the name, so
// a hypothesis names `alert.BreakerOpen.fired` or
// `alert.BreakerOpen.first_s - breaker_first_open_s < 60`. An alert never
// received is absent, and a check on it does not hold.
type AlertSummary struct {
	// Fired counts the alert's firings received: distinct (fingerprint,
	// starts at) pairs with status firing, however often Alertmanager
	// repeated each notification.
	Fired int `json:"fired"`
	// Resolved counts the firings whose resolved notification came.
	Resolved int `json:"resolved"`
	// Notifications counts every notification of the alert received,
	// firing and resolved, repeats included.
	Notifications int `json:"notifications"`
	// FirstS is when its first firing notification was received, in
	// seconds from the outage's start (the outage basis's first window,
	// as breaker_first_open_s), or from the run's start when the run had
	// no outage; null if it never fired.
	FirstS *float64 `json:"first_s"`
	// FirstRunS is the same moment in seconds from the run's start.
	FirstRunS *float64 `json:"first_run_s"`
}

// alertKey names one firing of one alert.
type alertKey struct {
	fingerprint string
	startsAt    time.Time
}

// alertTrack is the fold's running state of one alert.
type alertTrack struct {
	fired, resolved map[alertKey]bool
	notifications   int
	first           *time.Duration
}

// ReceivedAlert is one alert notification as the fold saw it: the
// dashboard lists them, the report puts them on the time axis.
type ReceivedAlert struct {
	At     time.Duration
	Name   string
	Status string
	Labels map[string]string
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
		t = &alertTrack{fired: map[alertKey]bool{}, resolved: map[alertKey]bool{}}
		f.alerts[a.Name] = t
	}
	t.notifications++
	k := alertKey{a.Fingerprint, a.StartsAt}
	switch a.Status {
	case event.AlertFiring:
		t.fired[k] = true
		if t.first == nil {
			at := e.At
			t.first = &at
		}
	case event.AlertResolved:
		t.resolved[k] = true
	}
	f.received = append(f.received, ReceivedAlert{At: e.At, Name: a.Name, Status: a.Status, Labels: a.Labels})
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
	out := make(map[string]AlertSummary, len(f.alerts))
	for name, t := range f.alerts {
		s := AlertSummary{Fired: len(t.fired), Notifications: t.notifications}
		for k := range t.resolved {
			if t.fired[k] {
				s.Resolved++
			}
		}
		if t.first != nil {
			s.FirstS = ptr(round((*t.first - origin).Seconds(), 3))
			s.FirstRunS = ptr(round(t.first.Seconds(), 3))
		}
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
