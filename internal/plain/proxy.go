package plain

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/redact"
	"github.com/drill-dev/drill/internal/sdkprofile"
	"github.com/drill-dev/drill/scoring"
)

// ProxyLine is a drill proxy request's log line: key=value pairs after its number and
// arrival, "-" for what did not happen. It is built in one buffer: the
// proxy prints one for every request.
func ProxyLine(r scoring.ProxyRequest) string {
	b := make([]byte, 0, 160)
	// Method, path and model are the client's: shown through redact.Terminal.
	b = strconv.AppendInt(append(b, '#'), int64(r.ID), 10)
	b = format.AppendLogSecs(append(b, " at="...), r.At)
	b = append(append(append(b, ' '), redact.Terminal(r.Method)...), ' ')
	b = append(b, redact.Terminal(r.Path)...)
	if r.Model != "" {
		b = append(append(b, " model="...), redact.Terminal(r.Model)...)
	}
	if r.Stream {
		b = append(b, " stream"...)
	}
	b = strconv.AppendInt(append(b, " retry="...), int64(r.Retry), 10)
	b = append(b, " status="...)
	if r.Status != 0 {
		b = strconv.AppendInt(b, int64(r.Status), 10)
	} else {
		b = append(b, '-')
	}
	b = append(append(b, " outcome="...), r.Outcome...)
	b = append(append(b, " fault="...), dashUnless(r.Fault != "", r.Fault)...)
	b = format.AppendLogSecs(append(b, " wait="...), r.Wait)
	b = append(b, " ttft="...)
	if r.TTFT > 0 {
		b = format.AppendLogSecs(b, r.TTFT)
	} else {
		b = append(b, '-')
	}
	b = append(b, " tokens="...)
	if r.In+r.Out > 0 {
		b = strconv.AppendInt(append(strconv.AppendInt(b, int64(r.In), 10), '/'), int64(r.Out), 10)
	} else {
		b = append(b, '-')
	}
	if r.Cost > 0 {
		b = append(append(b, " cost="...), format.Money(r.Cost)...)
	}
	if r.Outcome != event.OK && r.Detail != "" {
		b = strconv.AppendQuote(append(b, " detail="...), redact.String(r.Detail))
	}
	return string(b)
}

func dashUnless(ok bool, s string) string {
	if !ok {
		return "-"
	}
	return s
}

// ProxySummary writes a proxy tally's closing summary: requests per model,
// failures by outcome, faults applied and tokens.
func ProxySummary(w io.Writer, t *scoring.ProxyTally) {
	fmt.Fprintf(w, "%d requests\n", t.Requests)
	for _, l := range ProxyModelLines(t) {
		fmt.Fprintf(w, "  %s\n", l)
	}
	for _, win := range ProxyWindows(t) {
		fmt.Fprintf(w, "  outage %s\n", win)
	}
	if lines := ProxyClientLines(t); len(lines) > 0 {
		fmt.Fprintln(w, "clients:")
		for _, l := range lines {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
}

// ProxyClientLines describe each client library the proxy served, by its
// label (requests naming none are left out), three lines each: its name, what its SDK profile predicts the
// outage it met (or the one on now) does to one call, and what it did:
//
//	openai-node 7.60.0
//	  predicted (rate-limit retry_after=1m30s spend_cap=false): ignores your Retry-After of 90 s (over its 60 s cap) and retries after 0.5 s and 1 s: 3 attempts, RateLimitError after 1.1–1.5 s
//	  did: 1 call, 2 retries (after 0.47 s, 0.98 s), 3 failed (http_429 3)
func ProxyClientLines(t *scoring.ProxyTally) []string {
	var lines []string
	for _, label := range slices.Sorted(maps.Keys(t.Clients)) {
		c := t.Clients[label]
		if c.SDK == "" {
			continue // a request that names no library: the models' lines count it
		}
		lines = append(lines, redact.Terminal(label), "  "+proxyClientPrediction(t, c), "  did: "+proxyClientDid(c))
	}
	return lines
}

// proxyClientPrediction is what the client's SDK profile says one call does
// against the last fault it met, else the outage on now.
func proxyClientPrediction(t *scoring.ProxyTally, c *scoring.ProxyClientTally) string {
	kind, params := c.Fault, c.FaultParams
	if kind == "" {
		kind = t.Active.Fault
	}
	prof, ok := sdkprofile.ByPackage(c.SDK)
	switch {
	case kind == "":
		return "predicted: nothing (it met no outage)"
	case !ok:
		return "predicted: nothing (no SDK profile for this client)"
	case !slices.Contains(sdkprofile.Kinds(), kind):
		return fmt.Sprintf("predicted: nothing (the %s profile does not play %s)", prof.Package, kind)
	}
	f := sdkprofile.FaultOf(kind, params, c.Stream)
	s := sdkprofile.Settings{Timeout: c.Timeout}
	return fmt.Sprintf("predicted (%s%s): %s", kind, paramText(params), prof.Describe(f, s))
}

// proxyClientDid is what the client did: its calls, its retries with their
// waits, and its failures by outcome.
func proxyClientDid(c *scoring.ProxyClientTally) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s, %s", format.Plural(c.Calls, "call"), format.Plural(c.Retries, "retry"))
	if len(c.RetryGaps) > 0 {
		gaps := make([]string, len(c.RetryGaps))
		for i, g := range c.RetryGaps {
			gaps[i] = format.DurFine(g)
		}
		fmt.Fprintf(&b, " (after %s)", strings.Join(gaps, ", "))
	}
	fmt.Fprintf(&b, ", %d failed", c.Failed)
	if len(c.Outcomes) > 0 {
		var outs []string
		for _, o := range slices.Sorted(maps.Keys(c.Outcomes)) {
			outs = append(outs, fmt.Sprintf("%s %d", o, c.Outcomes[o]))
		}
		b.WriteString(" (" + strings.Join(outs, ", ") + ")")
	}
	return b.String()
}

// ProxyWindows are the proxy's outage windows so far: those that opened and
// closed, in the order they closed ("busy 15.0s–40.0s"), then the one on
// now, if any ("hang 0.0s– (still on)").
func ProxyWindows(t *scoring.ProxyTally) []string {
	out := make([]string, 0, len(t.Windows)+1)
	for _, w := range t.Windows {
		out = append(out, fmt.Sprintf("%s %s–%s", w.Fault, format.Cell(w.Start, 1), format.Cell(w.End, 1)))
	}
	if a := t.Active; a.Fault != "" {
		out = append(out, fmt.Sprintf("%s %s– (still on)", a.Fault, format.Cell(a.At, 1)))
	}
	return out
}

// ProxyOutageLine is the log line of a proxy's outage window opening or
// closing: "outage busy starts at=15.000s".
func ProxyOutageLine(o scoring.ProxyOutage) string {
	verb := "starts"
	if o.Ended {
		verb = "ends"
	}
	return fmt.Sprintf("outage %s %s at=%s", o.Fault, verb, format.LogSecs(o.At))
}

// ProxyModelLines describes each model's requests, one line each, by model name:
// "gpt-5.4-mini: 30 calls, 12 failed (http_5xx 8, timeout 4), 12 faulted,
// tokens 2400 in / 310 out".
func ProxyModelLines(t *scoring.ProxyTally) []string {
	var lines []string
	for _, name := range slices.Sorted(maps.Keys(t.Models)) {
		m := t.Models[name]
		var outs []string
		for _, o := range slices.Sorted(maps.Keys(m.Outcomes)) {
			outs = append(outs, fmt.Sprintf("%s %d", o, m.Outcomes[o]))
		}
		l := fmt.Sprintf("%s: %d calls, %d failed", redact.Terminal(name), m.Calls, m.Failed)
		if len(outs) > 0 {
			l += " (" + strings.Join(outs, ", ") + ")"
		}
		l += fmt.Sprintf(", %d faulted, tokens %d in / %d out", m.Faults, m.In, m.Out)
		if m.Cost > 0 {
			l += ", cost " + format.Money(m.Cost)
		}
		lines = append(lines, l)
	}
	return lines
}

// ProxySchedule is a proxy's outage timeline in one line: "hang
// retry_after=20s 10s–30s, busy 40s–50s on gpt-5.4-mini only", or "no
// outage".
func ProxySchedule(ws []event.Window, models []string) string {
	var sched []string
	for _, w := range ws {
		sched = append(sched, fmt.Sprintf("%s%s %s–%s", w.Kind, paramText(w.Params), format.GoDuration(w.From.Round(time.Millisecond)), format.GoDuration(w.To.Round(time.Millisecond))))
	}
	if len(sched) == 0 {
		return "no outage"
	}
	s := strings.Join(sched, ", ")
	if len(models) > 0 {
		s += " on " + redact.Terminal(strings.Join(models, ", ")) + " only"
	}
	return s
}

// paramText is a window's parameters as " key=value ...", sorted by key.
func paramText(p map[string]string) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(p)) {
		fmt.Fprintf(&b, " %s=%s", k, p[k])
	}
	return b.String()
}
