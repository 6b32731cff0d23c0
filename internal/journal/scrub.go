package journal

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/edge"
	"github.com/drill-dev/drill/internal/redact"
)

// Scrub removes secret-looking fields and credential-looking string values
// from a configuration before it is written or read (see redact.Config).
func Scrub(raw json.RawMessage) (json.RawMessage, error) {
	clean, err := redact.Config(raw)
	if err != nil {
		return nil, fmt.Errorf("journal: scrubbing the configuration: %w", err)
	}
	return clean, nil
}

// MaxTextField is the most bytes of one free-text field (a model name, an
// error's detail, a reply) a journal line holds: longer ones are cut and
// marked (edge.Clip), so that every line drill writes stays far under the
// reader's MaxLine.
const MaxTextField = 64 << 10

// clipText bounds one free-text field to MaxTextField.
func clipText(s string) string { return edge.Clip(s, MaxTextField) }

// redactEvent bounds and redacts an event's free-text fields before it is
// encoded (see MaxTextField):
// the URLs and `sk-` keys in them (redact.Text; an error's text quotes the
// URL it called, a client may send a key as its model) and every form of
// the known secrets — an error body quoted in the text may hold a key
// JSON-escaped, which encoding the line would escape once more, out of
// reach of the line's own redaction.
func redactEvent(e event.Event, secrets redact.Set) event.Event {
	clean := func(s string) string {
		if s == "" {
			return s
		}
		// The known secrets first: see redact.String.
		return clipText(redact.Text(secrets.String(s)))
	}
	e.Detail = clean(e.Detail)
	e.Model = clean(e.Model)
	e.Fault = clean(e.Fault)
	if e.Result != nil && e.Result.Reply != "" {
		r := *e.Result
		r.Reply = clean(r.Reply)
		e.Result = &r
	}
	if e.Breaker != nil && e.Breaker.Reason != "" {
		b := *e.Breaker
		b.Reason = clean(b.Reason)
		e.Breaker = &b
	}
	if e.Alert != nil {
		// An alert's texts come from outside: redacted as the summary line
		// that names the alert is, so the two agree on replay.
		a := *e.Alert
		a.Name, a.Fingerprint, a.Receiver = clean(a.Name), clean(a.Fingerprint), clean(a.Receiver)
		a.Labels, a.Annotations = cleanMap(a.Labels, clean), cleanMap(a.Annotations, clean)
		e.Alert = &a
	}
	if e.Run != nil {
		r := *e.Run
		r.Rungs = slices.Clone(r.Rungs)
		for i := range r.Rungs {
			r.Rungs[i].Model = clean(r.Rungs[i].Model)
		}
		if len(r.Overrides) > 0 {
			r.Overrides = maps.Clone(r.Overrides)
			for k, v := range r.Overrides {
				r.Overrides[k] = clean(v)
			}
		}
		e.Run = &r
	}
	return e
}

// cleanMap is m with every key and value passed through clean; nil for nil.
func cleanMap(m map[string]string, clean func(string) string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[clean(k)] = clean(v)
	}
	return out
}
