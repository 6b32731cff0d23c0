// Package alerts receives the team's alerts during a drill: an Alertmanager
// webhook receiver (--alert-listen ADDR) that logs each alert of each
// notification as an event (event.AlertReceived), so the fold counts it,
// the journal records it and hypotheses judge it
// (`alert.BreakerOpen.fired == 1`).
//
// Point an Alertmanager receiver's webhook_configs url at
// http://ADDR/alerts (any path is accepted). Notifications that arrive
// while no drill runs are refused with 503, which Alertmanager retries.
package alerts

import (
	"encoding/json"
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

// maxBody bounds a notification's size: Alertmanager's default groups are
// far smaller, and a receiver must not read without bound.
const maxBody = 4 << 20

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
	mu   sync.Mutex
	runs []attached
}

// attached is a run the receiver logs alerts to, and the labels that name
// it (an alert naming another run is not its).
type attached struct {
	log    *event.Log
	labels map[string]string
}

// NewReceiver returns a receiver with no run attached.
func NewReceiver() *Receiver { return &Receiver{} }

// Attach makes the receiver log alerts to log alone (a run's, from its
// start); nil detaches every run.
func (r *Receiver) Attach(log *event.Log) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.runs = nil
	if log != nil {
		r.runs = []attached{{log: log}}
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
	r.runs = append(r.runs, attached{log: log, labels: labels})
}

// names reports whether an alert with these labels is the run's.
func (a attached) names(alert map[string]string) bool {
	for k, v := range a.labels {
		if got, ok := alert[k]; ok && got != v {
			return false
		}
	}
	return true
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

// Decode reads and checks one notification.
func Decode(body io.Reader) (Notification, error) {
	var n Notification
	dec := json.NewDecoder(io.LimitReader(body, maxBody))
	if err := dec.Decode(&n); err != nil {
		return Notification{}, fmt.Errorf("reading the notification: %w", err)
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
// its alerts are logged, 400 for a payload that is not one, 503 while no
// run is attached or after it ended.
func (r *Receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if req.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "POST an Alertmanager webhook notification", http.StatusMethodNotAllowed)
		return
	}
	n, err := Decode(req.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	var open []attached
	for _, a := range r.runs {
		if !a.log.Closed() {
			open = append(open, a)
		}
	}
	if len(open) == 0 {
		http.Error(w, "no drill is running", http.StatusServiceUnavailable)
		return
	}
	for _, e := range n.Events() {
		for _, a := range open {
			if a.names(e.Alert.Labels) {
				a.log.Append(e)
			}
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
