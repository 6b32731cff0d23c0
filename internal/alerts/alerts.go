// Package alerts receives the team's alerts during a drill: an Alertmanager
// webhook receiver (--alert-listen ADDR) that logs each alert of each
// notification as an event (event.AlertReceived), so the fold counts it,
// the journal records it and hypotheses judge it
// (`alert.BreakerOpen.fired == 1`).
//
// Point an Alertmanager receiver's webhook_configs url at
// http://ADDR/alerts (any path is accepted). Notifications that arrive
// while no drill runs are refused with 503, which Alertmanager retries.
//
// What a run keeps of the alerts it receives is bounded (MaxAlertNames,
// MaxAlerts, MaxAlertEvents, the label bounds): an alert past a bound is
// not logged but counted in an event.AlertsDropped event, so a flood of
// alerts neither grows memory without limit nor writes a journal line its
// readers refuse. The receiver logs facts; whether an alert is the run's
// own (its start, its drill_run label) is the fold's to judge.
package alerts

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/exit"
)

// Path is the path the examples point Alertmanager at.
const Path = "/alerts"

// WebhookVersion is the version of Alertmanager's webhook payload this
// receiver reads.
const WebhookVersion = "4"

// MaxBody bounds a notification's size: Alertmanager's default groups are
// far smaller, and a receiver must not read without bound.
const MaxBody = 4 << 20

// The bounds on what one run keeps of the alerts it receives. An alert
// past one is dropped and counted (event.AlertsDropped); together they
// bound the run's memory, its summary's alert map and every journal line.
const (
	// MaxAlertNames is the most distinct alert names (alertname) a run
	// logs.
	MaxAlertNames = 100
	// MaxAlerts is the most distinct alerts (name, fingerprint and start) a
	// run logs.
	MaxAlerts = 1000
	// MaxAlertEvents is the most alert notifications a run logs, repeats
	// included.
	MaxAlertEvents = 10_000
	// MaxDropEvents is the most alerts_dropped events a run logs (one per
	// notification that had drops); past it, notifications with alerts to
	// drop are refused with 429.
	MaxDropEvents = 1000
	// MaxLabels is the most labels, and the most annotations, an alert may
	// carry.
	MaxLabels = 64
	// MaxLabelName is the most bytes of a label or annotation name, of an
	// alert's name, fingerprint and of the receiver's name.
	MaxLabelName = 256
	// MaxLabelValue is the most bytes of a label or annotation value.
	MaxLabelValue = 4096
	// MaxReading is the most notifications read and decoded at once: a
	// notification's body and its decoded alerts take tens of megabytes
	// at MaxBody. Past it a notification is refused with 503, which
	// Alertmanager retries.
	MaxReading = 4
)

// Notification is Alertmanager's webhook payload (version 4).
type Notification struct {
	Version           string            `json:"version"`
	GroupKey          string            `json:"groupKey"`
	TruncatedAlerts   int               `json:"truncatedAlerts"`
	Status            string            `json:"status"`
	Receiver          string            `json:"receiver"`
	GroupLabels       map[string]string `json:"groupLabels"`
	CommonLabels      map[string]string `json:"commonLabels"`
	CommonAnnotations map[string]string `json:"commonAnnotations"`
	ExternalURL       string            `json:"externalURL"`
	Alerts            []Alert           `json:"alerts"`
}

// Alert is one alert of a notification.
type Alert struct {
	Status       string            `json:"status"`
	Labels       map[string]string `json:"labels"`
	Annotations  map[string]string `json:"annotations"`
	StartsAt     time.Time         `json:"startsAt"`
	EndsAt       time.Time         `json:"endsAt"`
	GeneratorURL string            `json:"generatorURL"`
	Fingerprint  string            `json:"fingerprint"`
}

// Receiver turns webhook notifications into events of the runs attached to
// it. It is safe for concurrent use.
type Receiver struct {
	reading chan struct{} // a slot per notification being read (MaxReading)

	mu   sync.Mutex
	runs []*attached
}

// attached is a run the receiver logs alerts to, the labels that name it
// (an alert naming another run is not its), and what it has kept so far,
// for the bounds.
type attached struct {
	log    *event.Log
	labels map[string]string

	alertNames map[string]bool   // alert names logged
	alerts     map[alertKey]bool // distinct alerts logged
	events     int               // alert events logged
	dropEvents int               // alerts_dropped events logged
}

// alertKey names one distinct alert: its name, fingerprint and start.
type alertKey struct {
	name, fingerprint string
	startsAt          time.Time
}

// newAttached starts a run's bookkeeping.
func newAttached(log *event.Log, labels map[string]string) *attached {
	return &attached{log: log, labels: labels, alertNames: map[string]bool{}, alerts: map[alertKey]bool{}}
}

// NewReceiver returns a receiver with no run attached.
func NewReceiver() *Receiver { return &Receiver{reading: make(chan struct{}, MaxReading)} }

// Attach makes the receiver log alerts to log alone (a run's, from its
// start); nil detaches every run.
func (r *Receiver) Attach(log *event.Log) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.runs = nil
	if log != nil {
		r.runs = []*attached{newAttached(log, nil)}
	}
}

// AttachRun adds a run beside those attached before: drill compare runs
// several at once. The run gets the alerts that do not name another run:
// an alert carrying one of labels' keys (outage, policy: the labels every
// drill metric has, which an alert rule on them keeps) must carry the
// run's value. An alert with none of them reaches every run.
func (r *Receiver) AttachRun(log *event.Log, labels map[string]string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.runs = append(r.runs, newAttached(log, labels))
}

// names reports whether an alert with these labels is the run's.
func (a *attached) names(alert map[string]string) bool {
	for k, v := range a.labels {
		if got, ok := alert[k]; ok && got != v {
			return false
		}
	}
	return true
}

// keep reports whether the run may log one more alert event e, and
// records it if so; why says which bound refused it.
func (a *attached) keep(e *event.Alert) (ok bool, why string) {
	k := alertKey{e.Name, e.Fingerprint, e.StartsAt}
	switch {
	case a.events >= MaxAlertEvents:
		return false, fmt.Sprintf("past the %d alert notifications a run keeps", MaxAlertEvents)
	case !a.alertNames[e.Name] && len(a.alertNames) >= MaxAlertNames:
		return false, fmt.Sprintf("past the %d alert names a run keeps", MaxAlertNames)
	case !a.alerts[k] && len(a.alerts) >= MaxAlerts:
		return false, fmt.Sprintf("past the %d distinct alerts a run keeps", MaxAlerts)
	}
	a.events++
	a.alertNames[e.Name] = true
	a.alerts[k] = true
	return true, ""
}

// oversize says which label bound an alert breaks, or "".
func oversize(a Alert, receiver string) string {
	if len(receiver) > MaxLabelName {
		return fmt.Sprintf("a receiver name over %d bytes", MaxLabelName)
	}
	if len(a.Labels["alertname"]) > MaxLabelName || len(a.Fingerprint) > MaxLabelName {
		return fmt.Sprintf("an alert name or fingerprint over %d bytes", MaxLabelName)
	}
	for _, m := range []map[string]string{a.Labels, a.Annotations} {
		if len(m) > MaxLabels {
			return fmt.Sprintf("over %d labels or annotations", MaxLabels)
		}
		for k, v := range m {
			if len(k) > MaxLabelName || len(v) > MaxLabelValue {
				return fmt.Sprintf("a label or annotation over %d bytes (name) or %d bytes (value)", MaxLabelName, MaxLabelValue)
			}
		}
	}
	return ""
}

// Events converts a notification's alerts to events, in its order. An
// alert's name is its alertname label.
func (n Notification) Events() []event.Event {
	out := make([]event.Event, 0, len(n.Alerts))
	for _, a := range n.Alerts {
		status := a.Status
		if status == "" {
			status = n.Status
		}
		out = append(out, event.Event{Kind: event.AlertReceived, Alert: &event.Alert{
			Name: a.Labels["alertname"], Status: status, Labels: a.Labels, Annotations: a.Annotations,
			StartsAt: a.StartsAt, EndsAt: a.EndsAt, Fingerprint: a.Fingerprint, Receiver: n.Receiver,
		}})
	}
	return out
}

// Decode reads and checks one notification: the body must be exactly one
// JSON object (nothing but white space after it) of at most MaxBody bytes.
func Decode(body io.Reader) (Notification, error) {
	var n Notification
	lr := &io.LimitedReader{R: body, N: MaxBody + 1}
	dec := json.NewDecoder(lr)
	if err := dec.Decode(&n); err != nil {
		if lr.N <= 0 {
			return Notification{}, fmt.Errorf("the notification is larger than %d bytes", MaxBody)
		}
		return Notification{}, fmt.Errorf("reading the notification: %w", err)
	}
	_, err := dec.Token()
	switch {
	case lr.N <= 0:
		return Notification{}, fmt.Errorf("the notification is larger than %d bytes", MaxBody)
	case !errors.Is(err, io.EOF):
		return Notification{}, fmt.Errorf("reading the notification: data after the first JSON value (send one notification per request)")
	}
	if n.Version != WebhookVersion {
		return Notification{}, fmt.Errorf("webhook version %q: this drill reads Alertmanager's version %s", n.Version, WebhookVersion)
	}
	for i, a := range n.Alerts {
		if a.Labels["alertname"] == "" {
			return Notification{}, fmt.Errorf("alert %d has no alertname label", i)
		}
		if s := a.Status; s != "" && s != event.AlertFiring && s != event.AlertResolved {
			return Notification{}, fmt.Errorf("alert %d: status %q is neither firing nor resolved", i, s)
		}
	}
	return n, nil
}

// ServeHTTP receives one webhook notification (POST, on any path): 200 once
// its alerts are logged (those past the bounds counted as dropped), 400 for
// a body that is not exactly one notification, 503 while no run is
// attached or after it ended, or while MaxReading others are being read,
// 429 when a run has dropped alerts of
// MaxDropEvents notifications already and would drop more.
func (r *Receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if req.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "POST an Alertmanager webhook notification", http.StatusMethodNotAllowed)
		return
	}
	select {
	case r.reading <- struct{}{}:
	default:
		http.Error(w, fmt.Sprintf("busy: %d notifications are being read; retry", MaxReading), http.StatusServiceUnavailable)
		return
	}
	n, err := Decode(req.Body)
	<-r.reading
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	var open []*attached
	for _, a := range r.runs {
		if !a.log.Closed() {
			open = append(open, a)
		}
	}
	if len(open) == 0 {
		http.Error(w, "no drill is running", http.StatusServiceUnavailable)
		return
	}
	for _, a := range open {
		if a.dropEvents >= MaxDropEvents {
			http.Error(w, fmt.Sprintf("too many alerts: a run has dropped alerts of %d notifications already", MaxDropEvents),
				http.StatusTooManyRequests)
			return
		}
	}
	evs := n.Events()
	dropped := make([]int, len(open))
	whys := make([]string, len(open))
	for i, e := range evs {
		tooBig := oversize(n.Alerts[i], n.Receiver)
		for j, a := range open {
			if !a.names(e.Alert.Labels) {
				continue
			}
			ok, why := false, tooBig
			if why == "" {
				ok, why = a.keep(e.Alert)
			}
			if !ok {
				dropped[j]++
				if whys[j] == "" {
					whys[j] = why
				}
				continue
			}
			a.log.Append(e)
		}
	}
	for j, a := range open {
		if dropped[j] > 0 {
			a.dropEvents++
			a.log.Append(event.Event{Kind: event.AlertsDropped, Alert: &event.Alert{Dropped: dropped[j]},
				Detail: whys[j]})
		}
	}
	w.WriteHeader(http.StatusOK)
}

// CheckClock refuses the receiver for a run on the virtual clock: such a
// run is over in milliseconds of real time, before any alert could reach
// it. A usage error (exit 2).
func CheckClock(clock string) error {
	if clock == event.ClockVirtual {
		return exit.Usagef("--alert-listen needs --clock real: a --clock virtual run is over in " +
			"milliseconds of real time, before any alert can arrive")
	}
	return nil
}
