package proxy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/drill-dev/drill/event"
)

// Request is one finished request through the proxy, as a line shows it.
type Request struct {
	ID      int
	At      time.Duration // arrival, from the proxy's start
	Method  string
	Path    string
	Model   string
	Stream  bool
	Retry   int // the client SDK's retry count (X-Stainless-Retry-Count)
	Status  int // 0 without a response
	Outcome event.Outcome
	Fault   string // the fault applied, "" for none
	Wait    time.Duration
	TTFT    time.Duration // 0 when no token came
	In, Out int           // tokens the upstream reported
	Detail  string
}

// MaxFailedKept is how many failed requests a Tally keeps.
const MaxFailedKept = 10

// Tally folds a proxy's log: the requests that finished, per model. It is
// the fold behind the request lines and the closing summary. A Tally is not
// safe for concurrent use.
type Tally struct {
	faults   map[int]string // request ID -> fault applied, until it finishes
	Requests int            // finished requests
	Failed   int            // finished requests whose outcome was not ok
	// FirstFailed are the first MaxFailedKept failed requests, in the
	// order they finished. A tally's memory does not grow with requests.
	FirstFailed []Request
	Models      map[string]*ModelTally
	Windows     []string // outage windows as they opened and closed, "busy 15.0s–40.0s"
	open        map[string]time.Duration
	Ended       string
}

// ModelTally counts the finished requests that named one model.
type ModelTally struct {
	Calls    int
	Failed   int                   // anything but ok
	Outcomes map[event.Outcome]int // failed calls by outcome
	Faults   int                   // calls the proxy faulted
	In, Out  int                   // tokens
}

// NewTally returns an empty tally.
func NewTally() *Tally {
	return &Tally{faults: map[int]string{}, Models: map[string]*ModelTally{}, open: map[string]time.Duration{}}
}

// Add folds one event; it returns the request an attempt_end finished, if
// the event is one.
func (t *Tally) Add(e event.Event) (Request, bool) {
	switch e.Kind {
	case event.Fault:
		if e.Proxy != nil {
			t.faults[e.Proxy.ID] = e.Fault
		}
	case event.OutageStart:
		t.open[e.Fault] = e.At
	case event.OutageEnd:
		t.Windows = append(t.Windows, fmt.Sprintf("%s %.1fs–%.1fs", e.Fault, t.open[e.Fault].Seconds(), e.At.Seconds()))
		delete(t.open, e.Fault)
	case event.RunEnd:
		t.Ended = e.Detail
	case event.AttemptEnd:
		if e.Proxy == nil {
			break
		}
		r := Request{ID: e.Proxy.ID, At: e.At - e.Proxy.Wait, Method: e.Proxy.Method, Path: e.Proxy.Path, Model: e.Model,
			Stream: e.Proxy.Stream, Retry: e.Attempt, Status: e.Status, Outcome: e.Outcome, Fault: t.faults[e.Proxy.ID],
			Wait: e.Proxy.Wait, TTFT: e.Proxy.TTFT, In: e.Proxy.InputTokens, Out: e.Proxy.OutputTokens, Detail: e.Detail}
		delete(t.faults, e.Proxy.ID)
		t.Requests++
		if r.Outcome != event.OK {
			t.Failed++
			if len(t.FirstFailed) < MaxFailedKept {
				t.FirstFailed = append(t.FirstFailed, r)
			}
		}
		name := r.Model
		if name == "" {
			name = "(no model)"
		}
		m := t.Models[name]
		if m == nil {
			m = &ModelTally{Outcomes: map[event.Outcome]int{}}
			t.Models[name] = m
		}
		m.Calls++
		m.In += r.In
		m.Out += r.Out
		if r.Fault != "" {
			m.Faults++
		}
		if r.Outcome != event.OK {
			m.Failed++
			m.Outcomes[r.Outcome]++
		}
		return r, true
	}
	return Request{}, false
}

// Line is a request's log line: key=value pairs after its number and
// arrival, "-" for what did not happen.
func (r Request) Line() string {
	var b strings.Builder
	fmt.Fprintf(&b, "#%d at=%.3fs %s %s", r.ID, r.At.Seconds(), r.Method, r.Path)
	if r.Model != "" {
		fmt.Fprintf(&b, " model=%s", r.Model)
	}
	if r.Stream {
		b.WriteString(" stream")
	}
	fmt.Fprintf(&b, " retry=%d status=%s outcome=%s fault=%s wait=%.3fs ttft=%s tokens=%s",
		r.Retry, orDash(r.Status != 0, fmt.Sprint(r.Status)), r.Outcome, orDash(r.Fault != "", r.Fault),
		r.Wait.Seconds(), orDash(r.TTFT > 0, fmt.Sprintf("%.3fs", r.TTFT.Seconds())),
		orDash(r.In+r.Out > 0, fmt.Sprintf("%d/%d", r.In, r.Out)))
	if r.Outcome != event.OK && r.Detail != "" {
		fmt.Fprintf(&b, " detail=%q", r.Detail)
	}
	return b.String()
}

func orDash(ok bool, s string) string {
	if !ok {
		return "-"
	}
	return s
}

// WriteLines follows log, writing one line per finished request and one per
// outage window opening and closing, until the log is closed and read or ctx
// ends. It returns the tally of everything it read.
func WriteLines(ctx context.Context, log *event.Log, w io.Writer) (*Tally, error) {
	t := NewTally()
	cur := log.Cursor()
	for {
		evs, err := cur.Next(ctx)
		for _, e := range evs {
			if r, ok := t.Add(e); ok {
				fmt.Fprintln(w, r.Line())
				continue
			}
			switch e.Kind {
			case event.OutageStart:
				fmt.Fprintf(w, "outage %s starts at=%.3fs\n", e.Fault, e.At.Seconds())
			case event.OutageEnd:
				fmt.Fprintf(w, "outage %s ends at=%.3fs\n", e.Fault, e.At.Seconds())
			}
		}
		if errors.Is(err, io.EOF) {
			return t, nil
		}
		if err != nil {
			return t, err
		}
	}
}

// WriteSummary writes the tally's closing summary: requests per model,
// failures by outcome, faults applied and tokens.
func (t *Tally) WriteSummary(w io.Writer) {
	fmt.Fprintf(w, "%d requests\n", t.Requests)
	for _, l := range t.ModelLines() {
		fmt.Fprintf(w, "  %s\n", l)
	}
	for _, win := range t.Windows {
		fmt.Fprintf(w, "  outage %s\n", win)
	}
}

// ModelLines describes each model's requests, one line each, by model name:
// "gpt-5.4-mini: 30 calls, 12 failed (http_5xx 8, timeout 4), 12 faulted,
// tokens 2400 in / 310 out".
func (t *Tally) ModelLines() []string {
	var lines []string
	for _, name := range slices.Sorted(maps.Keys(t.Models)) {
		m := t.Models[name]
		var outs []string
		for _, o := range slices.Sorted(maps.Keys(m.Outcomes)) {
			outs = append(outs, fmt.Sprintf("%s %d", o, m.Outcomes[o]))
		}
		l := fmt.Sprintf("%s: %d calls, %d failed", name, m.Calls, m.Failed)
		if len(outs) > 0 {
			l += " (" + strings.Join(outs, ", ") + ")"
		}
		lines = append(lines, l+fmt.Sprintf(", %d faulted, tokens %d in / %d out", m.Faults, m.In, m.Out))
	}
	return lines
}
