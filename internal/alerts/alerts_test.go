package alerts_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/alerts"
	"github.com/drill-dev/drill/internal/exit"
)

// notification is a webhook body as Alertmanager 0.25 sends it.
const notification = `{"receiver":"drill","status":"firing","alerts":[
 {"status":"firing","labels":{"alertname":"BreakerOpen","breaker":"primary","severity":"page"},
  "annotations":{"summary":"breaker primary is open"},"startsAt":"2026-03-01T10:00:18.5Z",
  "endsAt":"0001-01-01T00:00:00Z","generatorURL":"http://prometheus/graph","fingerprint":"4f3c2a1b"},
 {"status":"resolved","labels":{"alertname":"OutageActive"},"annotations":{},
  "startsAt":"2026-03-01T10:00:15Z","endsAt":"2026-03-01T10:00:40Z","fingerprint":"9a8b"}],
 "groupLabels":{"alertname":"BreakerOpen"},"commonLabels":{},"commonAnnotations":{},
 "externalURL":"http://alertmanager:9093","version":"4","groupKey":"{}:{alertname=\"BreakerOpen\"}","truncatedAlerts":0}`

func post(h http.Handler, body string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, alerts.Path, strings.NewReader(body)))
	return rec
}

// TestEachAlertBecomesAnEvent: a notification of two alerts logs two alert
// events with name, status, labels and times, in order.
func TestEachAlertBecomesAnEvent(t *testing.T) {
	r := alerts.NewReceiver()
	if rec := post(r, notification); rec.Code != http.StatusServiceUnavailable {
		t.Fatalf("with no run attached: %d, want 503 (Alertmanager retries)", rec.Code)
	}
	log := event.NewLog(time.Now())
	r.Attach(log)
	if rec := post(r, notification); rec.Code != http.StatusOK {
		t.Fatalf("POST: %d %s", rec.Code, rec.Body)
	}
	evs := log.Events()
	if len(evs) != 2 {
		t.Fatalf("logged %d events, want 2", len(evs))
	}
	a := evs[0].Alert
	if evs[0].Kind != event.AlertReceived || a.Name != "BreakerOpen" || a.Status != event.AlertFiring ||
		a.Labels["breaker"] != "primary" || a.Annotations["summary"] == "" || a.Fingerprint != "4f3c2a1b" ||
		a.Receiver != "drill" || !a.StartsAt.Equal(time.Date(2026, 3, 1, 10, 0, 18, 5e8, time.UTC)) {
		t.Errorf("first event = %+v / %+v", evs[0], a)
	}
	if b := evs[1].Alert; b.Name != "OutageActive" || b.Status != event.AlertResolved || b.EndsAt.IsZero() {
		t.Errorf("second alert = %+v", b)
	}
	log.Close()
	if rec := post(r, notification); rec.Code != http.StatusServiceUnavailable {
		t.Errorf("after the run ended: %d, want 503", rec.Code)
	}
}

// TestBadNotificationsAreRefused: anything but exactly one version-4
// notification with named alerts is a 400 that says why, and logs nothing;
// a GET is 405.
func TestBadNotificationsAreRefused(t *testing.T) {
	r := alerts.NewReceiver()
	log := event.NewLog(time.Now())
	r.Attach(log)
	for _, c := range []struct{ body, want string }{
		{`{"version":"3","alerts":[]}`, `webhook version "3"`},
		{`{"version":"4","alerts":[{"status":"firing","labels":{}}]}`, "no alertname"},
		{`{"version":"4","alerts":[{"status":"pending","labels":{"alertname":"X"}}]}`, "neither firing nor resolved"},
		{`not json`, "reading the notification"},
		// Exactly one notification per request: trailing garbage, or a
		// second notification that would be dropped silently, is refused.
		{`{"version":"4","alerts":[]} garbage`, "data after the first JSON value"},
		{`{"version":"4","alerts":[]}{"version":"4","alerts":[{"status":"firing","labels":{"alertname":"X"}}]}`,
			"data after the first JSON value"},
		{`{"version":"4","alerts":[]}` + strings.Repeat(" ", 4<<20), "larger than 4194304 bytes"},
	} {
		rec := post(r, c.body)
		if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), c.want) {
			t.Errorf("%.80s: %d %q, want 400 saying %q", c.body, rec.Code, rec.Body, c.want)
		}
	}
	if n := log.Len(); n != 0 {
		t.Errorf("refused notifications logged %d events", n)
	}
	rec := httptest.NewRecorder()
	r.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, alerts.Path, nil))
	if rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("GET: %d, want 405", rec.Code)
	}
}

// TestVirtualClockRefused: the receiver on the virtual clock is a usage error.
func TestVirtualClockRefused(t *testing.T) {
	if err := alerts.CheckClock(event.ClockVirtual); exit.Code(err) != exit.Usage {
		t.Fatalf("CheckClock(virtual) = %v, want a usage error", err)
	}
	if err := alerts.CheckClock(event.ClockReal); err != nil {
		t.Fatalf("CheckClock(real) = %v", err)
	}
}

// TestAlertsReachTheRunsTheyName: with several runs attached (drill
// compare), an alert whose outage and policy labels name one run reaches
// that run alone, and an alert naming none reaches every run.
func TestAlertsReachTheRunsTheyName(t *testing.T) {
	r := alerts.NewReceiver()
	breaker, fallback := event.NewLog(time.Now()), event.NewLog(time.Now())
	r.AttachRun(breaker, map[string]string{"outage": "busy", "policy": "breaker"})
	r.AttachRun(fallback, map[string]string{"outage": "busy", "policy": "fallback"})
	named := `{"version":"4","status":"firing","alerts":[{"status":"firing","labels":{"alertname":"BreakerOpen","outage":"busy","policy":"breaker"}}]}`
	if rec := post(r, named); rec.Code != http.StatusOK {
		t.Fatalf("POST: %d %s", rec.Code, rec.Body)
	}
	if b, f := breaker.Len(), fallback.Len(); b != 1 || f != 0 {
		t.Errorf("an alert naming policy breaker: %d events in the breaker run, %d in the fallback run; want 1 and 0", b, f)
	}
	anyRun := `{"version":"4","status":"firing","alerts":[{"status":"firing","labels":{"alertname":"OutageActive"}}]}`
	if rec := post(r, anyRun); rec.Code != http.StatusOK {
		t.Fatalf("POST: %d %s", rec.Code, rec.Body)
	}
	if b, f := breaker.Len(), fallback.Len(); b != 2 || f != 1 {
		t.Errorf("an alert naming no run: %d and %d events, want 2 and 1", b, f)
	}
}
