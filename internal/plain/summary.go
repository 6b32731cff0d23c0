package plain

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/redact"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

// Summary writes a run summary as drill run prints it: a two-column table
// of the headline figures, every one read from the fold's summary.
func Summary(w io.Writer, s scoring.Summary) error { return SummaryWidth(w, s, 0) }

// SummaryWidth is Summary for a terminal width cells wide: a value that
// would run past the width wraps at its spaces onto lines indented to the
// value column, so no word is cut by the terminal. Width 0 never wraps.
func SummaryWidth(w io.Writer, s scoring.Summary, width int) error {
	var rows [][2]string
	row := func(k, v string) { rows = append(rows, [2]string{k, v}) }
	basis := Basis(s)
	row("status", Status(s))
	outage := format.Text(s.Outage)
	if s.OutageName != "" {
		outage = format.Text(s.OutageName) + ": " + outage // the drill file's name, then the kind
	}
	row("outage", outage+outageWindows(s))
	row("policy", format.Text(s.Policy))
	row("time-limit scope", format.Text(s.TimeLimitScope))
	if len(s.Overrides) > 0 {
		row("overrides", Overrides(s.Overrides))
	}
	row("served (primary/backup/canned/error)", ServedLine(s))
	row("all 4 right (of emails answered)", All4(s))
	noOutage := NoOutage(s)
	if !noOutage {
		row("wait during outage (median / p95)"+basis, format.Seconds(s.MedianWaitOutageS)+" / "+format.Seconds(s.P95WaitOutageS))
	}
	if s.Followed.Email != 0 {
		row(fmt.Sprintf("email %d", s.Followed.Email), followedLine(s.Followed))
	}
	if !noOutage {
		row("calls to the broken model, outage"+basis, fmt.Sprint(s.CallsToBrokenOutage))
		row("breaker first open (after outage start)"+basis, format.Seconds(s.BreakerFirstOpenS))
	}
	row("breaker opens", fmt.Sprint(s.BreakerOpens))
	if !noOutage {
		row("primary back (after outage end)"+basis, format.Seconds(s.PrimaryBackS))
	}
	for _, o := range s.Observed {
		if noOutage {
			// No outage, injected or observed: the failures are the
			// policy's own, on a healthy day, not a broken model's.
			row("failed calls, "+o.Rung+" (no outage)", fmt.Sprintf("%d of %d calls to %s failed, %s",
				o.FailedAttempts, o.Attempts, format.Text(o.Model), format.Span(o.StartS, o.EndS)))
			continue
		}
		row("observed failures, "+o.Rung, fmt.Sprintf("%s %s, %d failed calls, %d calls in window, breaker first open %s",
			format.Text(o.Model), format.Span(o.StartS, o.EndS), o.FailedAttempts, o.CallsInWindow, format.Seconds(o.BreakerFirstOpenS)))
	}
	classRows(row, s)
	inFlightRows(row, s)
	baselineRows(row, s)
	costRows(row, s)
	alertRows(row, s)
	row(runTimeLabel(s.Clock), format.Secs(s.WallS))
	return KeyValues(w, rows, width)
}

// ServedLine is the summary's served row: who served the emails answered
// and how many were answered, then the emails that were not: "70 / 0 / 0
// / 0 of 70 answered; 50 rejected by the worker pool; 4 cut off by the
// run's end".
func ServedLine(s scoring.Summary) string {
	line := fmt.Sprintf("%s of %d answered", Served(s.Served), s.EmailsAnswered)
	if n := s.Served.Rejected; n > 0 {
		line += fmt.Sprintf("; %d rejected by the worker pool", n)
	}
	if n := s.Served.Cancelled; n > 0 {
		line += fmt.Sprintf("; %d cut off by the run's end", n)
	}
	return line
}

// runTimeLabel names the run's length as its clock measured it: wall time
// on the real clock; on the virtual clock the drill's own time, which is
// not how long it took to play.
func runTimeLabel(clock string) string {
	if clock == event.ClockVirtual {
		return "run time on the virtual clock"
	}
	return "wall time"
}

// KeyValues writes rows of a key and a value as two aligned columns two
// spaces apart. With width > 0 a value that would run past width cells is
// wrapped at its spaces onto lines indented to the value column (a word
// wider than the room left stays whole on its own line).
func KeyValues(w io.Writer, rows [][2]string, width int) error {
	keyW := 0
	for _, r := range rows {
		keyW = max(keyW, utf8.RuneCountInString(r[0]))
	}
	keyW += 2
	var b strings.Builder
	for _, r := range rows {
		lines := []string{r[1]}
		if width > 0 {
			lines = WrapWords(r[1], max(width-keyW, 20))
		}
		for i, l := range lines {
			k := ""
			if i == 0 {
				k = r[0]
			}
			fmt.Fprintf(&b, "%s%s%s\n", k, strings.Repeat(" ", keyW-utf8.RuneCountInString(k)), l)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WrapWords breaks text into lines of at most width runes at its spaces;
// a word longer than width is a line of its own, never cut.
func WrapWords(text string, width int) []string {
	var lines []string
	cur := ""
	for _, word := range strings.Fields(text) {
		switch {
		case cur == "":
			cur = word
		case utf8.RuneCountInString(cur)+1+utf8.RuneCountInString(word) <= width:
			cur += " " + word
		default:
			lines = append(lines, cur)
			cur = word
		}
	}
	return append(lines, cur)
}

// JSON writes v as indented JSON, every string redacted in place
// (redact.JSONText: a key, a URL's password, query credentials and
// fragment, an sk- value): the one JSON printer of drill's commands.
func JSON(w io.Writer, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // hypotheses hold < and >
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("encoding JSON: %w", err)
	}
	_, err := w.Write(redact.JSONText(b.Bytes()))
	return err
}

// outageWindows describes the injected windows: " (15.0–40.0 s)".
func outageWindows(s scoring.Summary) string {
	var ws []string
	for _, w := range s.OutageWindows {
		d := "from " + format.Secs(w.StartS) + ", still on at the end"
		if w.EndS != nil {
			d = format.Span(w.StartS, *w.EndS)
		}
		if w.ByHand {
			d += " by hand"
		}
		ws = append(ws, d)
	}
	if len(ws) == 0 {
		if outageNeverStarted(s) {
			return " (never started)"
		}
		return ""
	}
	return " (" + strings.Join(ws, ", ") + ")"
}

// outageNeverStarted reports whether the drill was set up with an outage
// that no window of the run injected.
func outageNeverStarted(s scoring.Summary) bool {
	return s.Outage != "" && s.Outage != workload.OutageNone && len(s.OutageWindows) == 0
}

// Overrides is the settings a run overrode, as "key=value" sorted by key.
func Overrides(m map[string]string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, k+"="+m[k])
	}
	return strings.Join(parts, " ")
}

// followedLine is the followed email's fate with when it was sent.
func followedLine(f scoring.Followed) string {
	s := Followed(f)
	if f.SentS != nil {
		s += " (sent at " + format.Seconds(f.SentS) + ")"
	}
	return s
}

// costRows adds the tokens and cost rows to a summary table, when the run's
// calls reported or were estimated any tokens; the cost row only when a
// price is known (scoring.CostSummary.Known).
func costRows(row func(k, v string), s scoring.Summary) {
	t, c := s.Tokens, s.Cost
	if t.Attempts == 0 {
		return
	}
	tokens := fmt.Sprintf("%d / %d (%s)", t.Input, t.Output, TokensByRung(t))
	if t.EstimatedAttempts > 0 {
		tokens += fmt.Sprintf("; %d / %d estimated, %d attempts cut before their answer", t.EstimatedInput, t.EstimatedOutput, t.EstimatedAttempts)
	}
	row("tokens (input / output)", tokens)
	if !c.Known() {
		return // no price known: a cost of 0 would say nothing
	}
	cost := Cost(c) + " (" + CostByRung(c) + ")"
	if c.Estimated > 0 {
		cost += "; " + format.Money(c.Estimated) + " estimated"
	}
	if len(c.Unpriced) > 0 {
		cost += "; no price for " + strings.Join(c.Unpriced, ", ")
	}
	row("cost", cost)
}

// FailedCalls lists, by rung and outcome, the emails a rung did not answer
// (its calls, retries included, failed, or its breaker was open):
// connection errors against an unreachable endpoint show up here.
func FailedCalls(w io.Writer, failed map[string]map[event.Outcome]int) {
	for _, rung := range slices.Sorted(maps.Keys(failed)) {
		var parts []string
		for _, o := range slices.Sorted(maps.Keys(failed[rung])) {
			parts = append(parts, fmt.Sprintf("%s ×%d", o, failed[rung][o]))
		}
		fmt.Fprintf(w, "emails %s did not answer: %s\n", rung, strings.Join(parts, ", "))
	}
}

// AfterWarnings are the warnings about a finished drill that did not do
// what it was set up to: an injected outage that never started.
func AfterWarnings(s scoring.Summary) []string {
	if outageNeverStarted(s) {
		return []string{fmt.Sprintf("the drill ended at %s, before its %s outage started: no outage was injected", format.Secs(s.WallS), format.Text(s.Outage))}
	}
	return nil
}

// Replayed is what drill replay says about the journal it read: how many
// events, the run's status, and whether the journal was cut short or its
// recorded summary differs from the one its events fold into.
func Replayed(path string, meta journal.Meta, differs bool) []string {
	switch {
	case meta.Truncated:
		return []string{fmt.Sprintf("%s was cut short in the middle of line %d; replayed the %d events before it, status %s",
			format.Text(path), meta.CutLine, meta.Events, format.Text(meta.Status()))}
	case meta.CutShort():
		return []string{fmt.Sprintf("%s was cut short (no summary line); replayed its %d events, status %s", format.Text(path), meta.Events, format.Text(meta.Status()))}
	}
	// The path and the status come from outside: printed through format.Text.
	lines := []string{fmt.Sprintf("replayed %s: %d events, status %s", format.Text(path), meta.Events, format.Text(meta.Status()))}
	if differs {
		lines = append(lines, fmt.Sprintf("warning: the summary recorded in %s differs from the one recomputed from its events", format.Text(path)))
	}
	return lines
}
