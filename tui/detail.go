package tui

import (
	"fmt"
	"time"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/redact"
	"github.com/drill-dev/drill/scoring"
)

// renderDetail draws one email's detail: every call with its model,
// start, duration, outcome and the breaker state it met, then its answer
// beside the right answer with wrong fields marked.
func renderDetail(st Styles, s *state, id int, now time.Duration) []string {
	r := s.row(id)
	if r == nil {
		return []string{fmt.Sprintf("email #%d has not been sent", id)}
	}
	e, known := emails.Recorded(id, r.Truth != nil)
	out := detailHead(st, r, id, e, known, now)
	out = append(out, "")
	out = append(out, callLines(st, r, now)...)
	for _, e := range r.Streams {
		first := "no token"
		if e.TTFT > 0 {
			first = "first token " + format.DurFine(e.TTFT)
		}
		out = append(out, fmt.Sprintf("%-8s streamed: %s · %d tokens · %s · %s",
			e.Rung, first, e.Tokens, format.Rate(e.TokensPerS, "tokens"), e.Outcome))
	}
	out = append(out, "")
	return append(out, answerLines(st, r, e, known)...)
}

// detailHead is the detail's first lines: the email's sender and subject,
// and when it was sent, answered and by whom (or how long it has waited).
func detailHead(st Styles, r *row, id int, e emails.Email, known bool, now time.Duration) []string {
	head := fmt.Sprintf("#%d", id)
	if known {
		head += fmt.Sprintf(" from %s: %q", e.From, e.Subject)
	}
	out := []string{st.Bold.Render(head)}
	if !r.Done {
		return append(out, fmt.Sprintf("sent %s · waiting %s", format.Dur(r.Sent), format.Dur(r.WaitAt(now))))
	}
	served := r.Result.ServedBy
	if r.Result.Cancelled {
		served += " (cut off by the run's end)"
	}
	return append(out, fmt.Sprintf("sent %s · answered %s · wait %s · served by %s",
		format.Dur(r.Sent), format.Dur(r.DoneAt), format.Dur(r.Result.Wait), served))
}

// callRow is one call of the detail, each column a text.
type callRow struct{ rung, model, try, start, took, outcome, met string }

// callRowOf is the row of one attempt at the run's clock now.
func callRowOf(a scoring.Attempt, now time.Duration) callRow {
	if a.Skipped {
		return callRow{format.Text(a.Rung), redact.Terminal(a.Model), "—", format.Cell(a.Start, 1), "—", "skipped", stateWord(stateOpen)}
	}
	took, outcome := format.Cell(a.TookAt(now), 1)+"…", "running"
	if a.Ended {
		took = format.Cell(a.TookAt(now), 2)
		outcome = string(a.Outcome)
		if a.Status != 0 {
			outcome += fmt.Sprintf(" %d", a.Status)
		}
	}
	if a.Fault != "" {
		outcome += " (" + a.Fault + ")"
	}
	met := "no breaker"
	if a.Breaker != "" {
		met = stateWord(a.Breaker)
		if a.Probe {
			met += " (probe)"
		}
	}
	return callRow{format.Text(a.Rung), redact.Terminal(a.Model), fmt.Sprint(a.N), format.Cell(a.Start, 1), took, redact.Terminal(outcome), met}
}

// callLines is the table of the email's calls. The text columns are as
// wide as their widest cell (an outcome "http_5xx 503 (busy)"), so every
// column, "breaker met" too, starts on the same column on every row.
func callLines(st Styles, r *row, now time.Duration) []string {
	calls := make([]callRow, 0, len(r.Attempts))
	for _, a := range r.Attempts {
		calls = append(calls, callRowOf(a, now))
	}
	rw, mw, ow := len("rung"), len("model"), len("outcome")
	for _, c := range calls {
		rw, mw, ow = max(rw, cellWidth(c.rung)), max(mw, cellWidth(c.model)), max(ow, cellWidth(c.outcome))
	}
	line := func(c callRow) string {
		return fmt.Sprintf("%s  %s %3s %8s %8s  %s %s", fit(c.rung, rw), fit(c.model, mw), c.try, c.start, c.took, fit(c.outcome, ow), c.met)
	}
	out := []string{st.Dim.Render(line(callRow{"rung", "model", "try", "start", "took", "outcome", "breaker met"}))}
	if len(calls) == 0 {
		out = append(out, st.Dim.Render("no calls yet"))
	}
	for _, c := range calls {
		out = append(out, line(c))
	}
	return out
}

// answerLines is the email's answer beside the right answer, wrong fields
// marked (or what was sent instead of an answer).
func answerLines(st Styles, r *row, e emails.Email, known bool) []string {
	res := r.Result
	if !r.Done {
		return []string{st.Dim.Render("no answer yet")}
	}
	if res.Answer == nil {
		what := "no answer (" + res.ServedBy + ")"
		if res.Reply != "" {
			what += ": " + res.Reply
		}
		out := []string{what}
		if known {
			t := fieldValues(e.Truth)
			for i, f := range scoring.FieldNames {
				out = append(out, fmt.Sprintf("  %-14s %-24s %-24s %s", f, "—", value(t, i), st.Alert.Render("✗ wrong")))
			}
		}
		return out
	}
	out := []string{st.Dim.Render(fmt.Sprintf("  %-14s %-24s %-24s", "field", "answer", "right answer"))}
	got := fieldValues(*res.Answer)
	if !known {
		for i, f := range scoring.FieldNames {
			out = append(out, fmt.Sprintf("  %-14s %-24s %-24s", f, value(got, i), "—"))
		}
		return out
	}
	truth := fieldValues(e.Truth)
	for i, f := range scoring.FieldNames {
		mark := st.Good.Render("✓ right")
		if !r.Scored {
			mark = ""
		} else if !r.Match[i] {
			mark = st.Alert.Render("✗ wrong")
		}
		out = append(out, fmt.Sprintf("  %-14s %-24s %-24s %s", f, value(got, i), value(truth, i), mark))
	}
	return out
}

// fieldValues lists an answer's fields in the order of scoring.FieldNames.
func fieldValues(a emails.Answer) []string {
	return []string{a.Intent, a.OrderNumber, a.Product, a.Urgency}
}

func value(vs []string, i int) string {
	if i < len(vs) {
		if vs[i] == "" {
			return "—"
		}
		return vs[i]
	}
	return "—"
}
