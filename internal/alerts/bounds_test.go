package alerts_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/alerts"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/metrics"
	"github.com/drill-dev/drill/scoring"
)

// flood is a notification of n alerts named prefix0, prefix1, … with the
// given labels and annotation text on each.
func flood(prefix string, n int, labels map[string]string, note string) string {
	var b strings.Builder
	b.WriteString(`{"version":"4","status":"firing","receiver":"drill","alerts":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"status":"firing","labels":{"alertname":%q`, fmt.Sprintf("%s%d", prefix, i))
		for k, v := range labels {
			fmt.Fprintf(&b, `,%q:%q`, k, v)
		}
		fmt.Fprintf(&b, `},"annotations":{"summary":%q},"startsAt":"%s","fingerprint":"%016x"}`, note, time.Now().UTC().Format(time.RFC3339Nano), i)
	}
	b.WriteString(`]}`)
	return b.String()
}

// startedLog is a run's log with its run_start, as the engine begins one.
func startedLog() *event.Log {
	log := event.NewLog(time.Now())
	info := event.RunInfo{Emails: 1, Rate: 1, Outage: "busy", Policy: "breaker"}
	info.Stamp(log.Start())
	log.Append(event.Event{Kind: event.RunStart, Run: &info})
	return log
}

// roundTrip writes the log and its summary as a journal and reads it back
// with the journal reader, failing the test on any error; it returns the
// longest line and the summary read back.
func roundTrip(t *testing.T, log *event.Log) (int, scoring.Summary) {
	t.Helper()
	var buf bytes.Buffer
	w, err := journal.NewWriter(&buf, journal.Header{Start: log.Start()}, log, journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	log.Close()
	sum := scoring.Summarize(log.Events())
	if err := w.Finish(sum, "completed"); err != nil {
		t.Fatal(err)
	}
	longest := 0
	for _, l := range bytes.Split(buf.Bytes(), []byte("\n")) {
		longest = max(longest, len(l))
	}
	r, err := journal.NewReader(bytes.NewReader(buf.Bytes()), "flood.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := r.Next(); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("reading the journal back: %v", err)
		}
	}
	sl, ok := r.Summary()
	if !ok {
		t.Fatal("the journal read back has no summary line")
	}
	return longest, sl.Summary
}

// TestAlertFloodIsBounded: eight notifications of 15,000 differently named
// alerts (3.8 MB each) leave the run with at most MaxAlertNames names and
// the rest counted as dropped; the journal reads back, a metrics scrape
// holds the kept alerts alone, and memory stays bounded: an unbounded
// flood would take hundreds of megabytes.
func TestAlertFloodIsBounded(t *testing.T) {
	r := alerts.NewReceiver()
	log := startedLog()
	r.Attach(log)
	const posts, each = 8, 15_000
	for p := range posts {
		body := flood(fmt.Sprintf("Flood%d_", p), each, map[string]string{"severity": "page", "team": "payments"},
			strings.Repeat("x", 52))
		if p == 0 {
			t.Logf("one notification: %.1f MB", float64(len(body))/1e6)
		}
		if rec := post(r, body); rec.Code != http.StatusOK {
			t.Fatalf("post %d: %d %s", p, rec.Code, rec.Body)
		}
	}
	var alertsLogged int
	for _, e := range log.Events() {
		if e.Kind == event.AlertReceived {
			alertsLogged++
		}
	}
	if alertsLogged != alerts.MaxAlertNames {
		t.Errorf("logged %d alerts, want the bound, %d", alertsLogged, alerts.MaxAlertNames)
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("heap in use after the flood: %.1f MiB", float64(ms.HeapInuse)/(1<<20))
	if ms.HeapInuse > 300<<20 {
		t.Errorf("heap in use after the flood: %d MiB, want under 300", ms.HeapInuse>>20)
	}
	// The metrics follow the kept alerts: a scrape stays bounded too.
	x := metrics.New(nil)
	x.Add(log.Events())
	rec := httptest.NewRecorder()
	x.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, metrics.Path, nil))
	if n := strings.Count(rec.Body.String(), "\ndrill_alerts_received_total{"); n != alerts.MaxAlertNames {
		t.Errorf("a scrape after the flood has %d alert series, want %d", n, alerts.MaxAlertNames)
	}
	t.Logf("scrape after the flood: %d bytes", rec.Body.Len())
	longest, sum := roundTrip(t, log)
	if len(sum.Alerts) != alerts.MaxAlertNames || sum.AlertsDropped != posts*each-alerts.MaxAlertNames {
		t.Errorf("summary read back: %d alerts, %d dropped; want %d and %d", len(sum.Alerts), sum.AlertsDropped,
			alerts.MaxAlertNames, posts*each-alerts.MaxAlertNames)
	}
	t.Logf("longest journal line: %d bytes", longest)
}

// TestLargestAlertRecordReadsBack: the largest alert event and summary the
// bounds allow — an alert with MaxLabels labels and annotations of the
// longest names and values, MaxAlertNames names of MaxLabelName bytes, each
// firing in another run whose label is the longest value, every byte one
// that JSON escapes six-fold — are written as a journal and read back by
// the journal reader.
func TestLargestAlertRecordReadsBack(t *testing.T) {
	r := alerts.NewReceiver()
	log := startedLog()
	r.Attach(log)
	worst := func(n int, tag string) string { return tag + strings.Repeat("\x01", n-len(tag)) }
	for i := range alerts.MaxAlertNames {
		// The first alert has the largest event line the bounds allow; every
		// one has the longest name and run label, for the summary's line.
		labels := map[string]string{event.RunLabel: worst(alerts.MaxLabelValue, "other")} // foreign: its run label is kept
		annotations := map[string]string{}
		for j := range alerts.MaxLabels - 2 {
			if i > 0 {
				break
			}
			labels[worst(alerts.MaxLabelName, fmt.Sprint(j))] = worst(alerts.MaxLabelValue, "v")
			annotations[worst(alerts.MaxLabelName, fmt.Sprint(j))] = worst(alerts.MaxLabelValue, "a")
		}
		for j := alerts.MaxLabels - 2; i == 0 && j < alerts.MaxLabels; j++ {
			annotations[worst(alerts.MaxLabelName, fmt.Sprint(j))] = worst(alerts.MaxLabelValue, "a")
		}
		a := alerts.Alert{Status: event.AlertFiring, Labels: labels, Annotations: annotations,
			StartsAt: log.Start().Add(time.Second), Fingerprint: worst(alerts.MaxLabelName, "f")}
		a.Labels["alertname"] = worst(alerts.MaxLabelName, fmt.Sprint(i))
		n := alerts.Notification{Version: alerts.WebhookVersion, Receiver: worst(alerts.MaxLabelName, "r"), Alerts: []alerts.Alert{a}}
		body, err := jsonBody(n)
		if err != nil {
			t.Fatal(err)
		}
		if rec := post(r, body); rec.Code != http.StatusOK {
			t.Fatalf("alert %d: %d %s", i, rec.Code, rec.Body)
		}
	}
	for _, e := range log.Events() {
		if e.Kind == event.AlertsDropped {
			t.Fatalf("an alert within the bounds was dropped: %s", e.Detail)
		}
	}
	longest, sum := roundTrip(t, log)
	t.Logf("longest line: %d bytes (reader's limit %d)", longest, journal.MaxLine)
	if len(sum.Alerts) != alerts.MaxAlertNames {
		t.Errorf("summary read back has %d alerts, want %d", len(sum.Alerts), alerts.MaxAlertNames)
	}
}

// TestOversizeAlertsDropped: an alert past a label bound is not logged
// and is counted, with the bound named.
func TestOversizeAlertsDropped(t *testing.T) {
	r := alerts.NewReceiver()
	log := startedLog()
	r.Attach(log)
	body := flood("Big", 2, map[string]string{"huge": strings.Repeat("x", alerts.MaxLabelValue+1)}, "")
	if rec := post(r, body); rec.Code != http.StatusOK {
		t.Fatalf("POST: %d %s", rec.Code, rec.Body)
	}
	evs := log.Events()
	last := evs[len(evs)-1]
	if len(evs) != 2 || last.Kind != event.AlertsDropped || last.Alert.Dropped != 2 || !strings.Contains(last.Detail, "4096") {
		t.Errorf("events = %+v, want run_start and one alerts_dropped of 2 naming the bound", evs)
	}
}

// jsonBody encodes a notification as Alertmanager would send it.
func jsonBody(n alerts.Notification) (string, error) {
	b, err := json.Marshal(n)
	return string(b), err
}

// TestReadingIsBounded: while MaxReading notifications are being read (a
// slow client's body), the next is refused with 503 at once, which
// Alertmanager retries; once one is read, the next is taken.
func TestReadingIsBounded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := alerts.NewReceiver()
		r.Attach(startedLog())
		var writers []*io.PipeWriter
		codes := make(chan int, alerts.MaxReading)
		for range alerts.MaxReading {
			pr, pw := io.Pipe()
			writers = append(writers, pw)
			go func() {
				rec := httptest.NewRecorder()
				r.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, alerts.Path, pr))
				codes <- rec.Code
			}()
		}
		synctest.Wait() // every one is reading its body
		if rec := post(r, `{"version":"4","alerts":[]}`); rec.Code != http.StatusServiceUnavailable {
			t.Errorf("with %d notifications being read: %d, want 503", alerts.MaxReading, rec.Code)
		}
		for _, pw := range writers {
			_, _ = io.WriteString(pw, `{"version":"4","alerts":[]}`)
			pw.Close()
			if code := <-codes; code != http.StatusOK {
				t.Errorf("a slow notification: %d, want 200", code)
			}
		}
		if rec := post(r, `{"version":"4","alerts":[]}`); rec.Code != http.StatusOK {
			t.Errorf("after the slow ones were read: %d, want 200", rec.Code)
		}
	})
}
