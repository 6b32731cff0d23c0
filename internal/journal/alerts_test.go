package journal_test

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/scoring"
)

// TestHostileAlertNamesReplayTheSameSummary: alerts named with a
// right-to-left override (U+202E), a URL or a key-like text are recorded
// so that the summary recomputed from the journal's events is the summary
// line recorded beside them (replay warned "the summary differs" when the
// summary line's alert names were redacted and the events' were not), and
// no key-like text reaches the journal.
func TestHostileAlertNamesReplayTheSameSummary(t *testing.T) {
	key := "sk-proj-" + strings.Repeat("a1B2", 10)
	log := event.NewLog(time.Now())
	info := event.RunInfo{Emails: 1, Rate: 1}
	info.Stamp(log.Start())
	log.Append(event.Event{Kind: event.RunStart, Run: &info})
	for _, name := range []string{"Breaker\u202eOpen", "\u202e" + key, "see https://user:pw@example.com/x", key} {
		log.Append(event.Event{Kind: event.AlertReceived, Alert: &event.Alert{Name: name, Status: event.AlertFiring,
			StartsAt: time.Now(), Fingerprint: "f " + name, Receiver: "drill\u202e",
			Labels: map[string]string{"alertname": name, "token\u202e": key}, Annotations: map[string]string{"summary": name}}})
	}
	var buf bytes.Buffer
	w, err := journal.NewWriter(&buf, journal.Header{Start: log.Start()}, log, journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	log.Close()
	if err := w.Finish(scoring.Summarize(log.Events()), event.StatusCompleted); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), key) {
		t.Errorf("a key-like alert text reached the journal:\n%s", buf.String())
	}
	r, err := journal.NewReader(bytes.NewReader(buf.Bytes()), "alerts.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	fold := scoring.NewFold()
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		fold.Add(e)
	}
	recorded, _ := r.Summary()
	if got := fold.Summary(); !reflect.DeepEqual(recorded.Summary, got) {
		t.Errorf("the summary recomputed from the events differs from the recorded one:\nrecorded %v\nreplayed %v",
			recorded.Summary.Alerts, got.Alerts)
	}
	if _, ok := recorded.Summary.Alerts["Breaker\u202eOpen"]; !ok {
		t.Errorf("the U+202E name is not kept as sent: %v", recorded.Summary.Alerts)
	}
}
