package event

import "time"

// AlertReceived is an alert notification drill received from an
// Alertmanager webhook (--alert-listen) during a run; it carries Alert. One
// webhook call that groups several alerts logs one event per alert.
const AlertReceived Kind = "alert"

// AlertsDropped records alerts of a notification that drill's receiver did
// not log because they went past its bounds (distinct alerts, alert names,
// label sizes, notifications a run keeps): Alert.Dropped counts them and
// Detail names the bound. It carries Alert with no name.
const AlertsDropped Kind = "alerts_dropped"

// RunLabel is the label every series drill exports carries with the run's
// ID (RunInfo.ID): an alert rule on them keeps it, so an alert names the
// run it fired in.
const RunLabel = "drill_run"

// Alert statuses, as Alertmanager sends them.
const (
	AlertFiring   = "firing"
	AlertResolved = "resolved"
)

// Alert is one alert of an Alertmanager webhook notification: what the
// team's alerting said, and when drill heard it (the event's offset).
type Alert struct {
	// Name is the alert's alertname label.
	Name string `json:"name"`
	// Status is firing or resolved.
	Status string `json:"status"`
	// Labels and Annotations are the alert's own, as sent.
	Labels      map[string]string `json:"labels,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
	// StartsAt and EndsAt are the alert's times by Prometheus's clock;
	// EndsAt is zero while it fires.
	StartsAt time.Time `json:"starts_at"`
	EndsAt   time.Time `json:"ends_at,omitzero"`
	// Fingerprint identifies the alert's label set: with StartsAt, one
	// firing, however often Alertmanager repeats the notification.
	Fingerprint string `json:"fingerprint,omitempty"`
	// Receiver is the Alertmanager receiver that sent the notification.
	Receiver string `json:"receiver,omitempty"`
	// Dropped is, on alerts_dropped, how many alerts of one notification
	// the receiver did not log.
	Dropped int `json:"dropped,omitempty"`
}
