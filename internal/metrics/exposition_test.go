package metrics_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/metrics"
)

// TestSetMergesExporters serves three exporters from one Set: two replicas
// and a second exporter with the first one's labels. Each family has one
// HELP and TYPE (Prometheus's parser refuses a second), each series appears
// once, label values with quotes, backslashes and newlines read back as
// they were, and the wait histogram's buckets count up to its count.
func TestSetMergesExporters(t *testing.T) {
	odd := "a \"quoted\" back\\slash\nnewline"
	var set metrics.Set
	for _, labels := range []metrics.Labels{{"replica": "1", "proxy": odd}, {"replica": "2", "proxy": odd}, {"replica": "1", "proxy": odd}} {
		x := metrics.NewLabelled(nil, labels)
		x.Add([]event.Event{
			{Kind: event.RunStart, Run: &event.RunInfo{Outage: "busy", Policy: "breaker", Emails: 1}},
			{Kind: event.EmailSent, Email: 1},
			{At: 700 * time.Millisecond, Kind: event.EmailDone, Email: 1,
				Result: &event.Result{ServedBy: event.ServedPrimary, Wait: 700 * time.Millisecond}},
		})
		set.Add(x)
	}
	rec := httptest.NewRecorder()
	set.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, metrics.Path, nil))
	if ct := rec.Header().Get("Content-Type"); ct != metrics.ContentType {
		t.Errorf("Content-Type %q, want %q", ct, metrics.ContentType)
	}
	text := rec.Body.String()
	if n := strings.Count(text, "# HELP drill_emails_sent_total "); n != 1 {
		t.Errorf("%d HELP lines for drill_emails_sent_total, want 1", n)
	}
	fams := scrape(t, set.Handler())
	sent := fams["drill_emails_sent_total"]
	if sent == nil || len(sent.Metric) != 2 {
		t.Fatalf("drill_emails_sent_total: %v, want one series per replica (the duplicate left out)\n%s", sent, text)
	}
	for i, m := range sent.Metric {
		labels := map[string]string{}
		for _, l := range m.Label {
			labels[l.GetName()] = l.GetValue()
		}
		want := map[string]string{"outage": "busy", "policy": "breaker", "proxy": odd, "replica": []string{"1", "2"}[i]}
		for k, v := range want {
			if labels[k] != v {
				t.Errorf("series %d: label %s = %q, want %q", i, k, labels[k], v)
			}
		}
		if m.Counter.GetValue() != 1 {
			t.Errorf("series %d: %v emails sent, want 1", i, m.Counter.GetValue())
		}
	}
	wait := fams["drill_email_wait_seconds"]
	if wait == nil || len(wait.Metric) != 2 {
		t.Fatalf("drill_email_wait_seconds: %v\n%s", wait, text)
	}
	h := wait.Metric[0].Histogram
	if h.GetSampleCount() != 1 || h.GetSampleSum() != 0.7 {
		t.Errorf("wait histogram count %d sum %v, want 1 and 0.7", h.GetSampleCount(), h.GetSampleSum())
	}
	for _, b := range h.Bucket {
		want := uint64(0)
		if b.GetUpperBound() >= 0.7 {
			want = 1
		}
		if b.GetCumulativeCount() != want {
			t.Errorf("bucket le=%v holds %d, want %d", b.GetUpperBound(), b.GetCumulativeCount(), want)
		}
	}
	if !strings.Contains(text, `drill_email_wait_seconds_bucket{outage="busy",policy="breaker",proxy="a \"quoted\" back\\slash\nnewline",replica="1",le="+Inf"} 1`) {
		t.Errorf("no +Inf bucket line with the labels sorted and escaped:\n%s", text)
	}
}

// TestEmailsTotalCountsRejectedAndHandedOver: drill_emails_total has a
// series for every served_by the summary counts, the worker pool's
// rejections and the emails handed to a person included, so the served
// counters add up to the emails done.
func TestEmailsTotalCountsRejectedAndHandedOver(t *testing.T) {
	x := metrics.New(nil)
	done := func(id int, by string) event.Event {
		return event.Event{At: time.Duration(id) * time.Second, Kind: event.EmailDone, Email: id,
			Result: &event.Result{ServedBy: by, Wait: time.Second}}
	}
	x.Add([]event.Event{
		{Kind: event.RunStart, Run: &event.RunInfo{Outage: "hang", Policy: "fallback", Emails: 4, MaxInFlight: 1}},
		{Kind: event.EmailSent, Email: 1}, {Kind: event.EmailSent, Email: 2},
		{Kind: event.EmailSent, Email: 3}, {Kind: event.EmailSent, Email: 4},
		done(1, event.ServedPrimary), done(2, event.ServedRejected), done(3, event.ServedRejected), done(4, event.ServedHandedOver),
	})
	fams := scrape(t, x.Handler())
	for by, want := range map[string]float64{event.ServedPrimary: 1, event.ServedRejected: 2, event.ServedHandedOver: 1, event.ServedBackup: 0} {
		if got, ok := value(fams, "drill_emails_total", map[string]string{"served_by": by}); !ok || got != want {
			t.Errorf("drill_emails_total{served_by=%q} = %v (present %v), want %v", by, got, ok, want)
		}
	}
}

// TestLabelsHoldNoKey: a client may send its key as the model name; the
// journal redacts it, and so does every label value of the exposition.
func TestLabelsHoldNoKey(t *testing.T) {
	const key = "sk-proj-abcdefghijklmnopqrstuvwxyz012345"
	x := metrics.NewLabelled(nil, metrics.Labels{"proxy": "http://bob:" + key + "@upstream.invalid/v1"})
	x.Add([]event.Event{
		{Kind: event.RunStart, Run: &event.RunInfo{Outage: "busy", Policy: "proxy", Emails: 1}},
		{Kind: event.AttemptStart, Email: 1, Rung: "primary", Model: key},
		{At: time.Second, Kind: event.AttemptEnd, Email: 1, Rung: "primary", Model: key, Outcome: event.OK, Status: 200},
	})
	rec := httptest.NewRecorder()
	x.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, metrics.Path, nil))
	text := rec.Body.String()
	if !strings.Contains(text, "drill_attempts_total") {
		t.Fatalf("no attempts exported:\n%s", text)
	}
	if strings.Contains(text, key) {
		t.Errorf("the exposition holds the key:\n%s", text)
	}
}
