package tui

import (
	"fmt"
	"strconv"
	"time"

	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/scoring"
)

// incidentGlyph marks a conversation that started in the incident window
// (the glyph, not only its colour, says it).
const incidentGlyph = "!"

// window is a span of the run's time; the zero value holds nothing.
type window struct{ from, to time.Duration }

func (w window) holds(at time.Duration) bool { return w.to > w.from && at >= w.from && at < w.to }

// incidentOf is the run's incident window, from the fold's summary.
func incidentOf(s scoring.ChatSummary) window {
	sec := func(v float64) time.Duration { return time.Duration(v * float64(time.Second)) }
	return window{sec(s.IncidentFromS), sec(s.IncidentToS)}
}

// incidentWords names the incident and, when the run had one, its window.
func incidentWords(s scoring.ChatSummary) string {
	name := format.Text(s.Incident)
	if s.IncidentToS <= s.IncidentFromS {
		return name
	}
	return fmt.Sprintf("%s %s–%s", name, format.Secs(s.IncidentFromS), format.Secs(s.IncidentToS))
}

// stopSegments are why conversations ended without an answer, from the
// fold's rows: who ended them (a check or a limit) and how, as
// "loop guard 33 handed over"; none while nothing has.
func stopSegments(st Styles, s scoring.ChatSummary) []string {
	b := st.Bold.Render
	var segs []string
	for _, r := range s.Stops {
		if r.Reason == "" {
			continue
		}
		seg := r.Check
		if r.Check != r.Reason {
			seg += " (" + r.Reason + ")"
		}
		for _, part := range []struct {
			n    int
			word string
		}{{r.HandedOver, "handed over"}, {r.Silent, "silent"}, {r.CutOff, "cut off"}} {
			if part.n > 0 {
				seg += fmt.Sprintf(" %s %s", b(strconv.Itoa(part.n)), part.word)
			}
		}
		segs = append(segs, seg)
	}
	if len(segs) == 0 {
		return nil
	}
	segs[0] = "ended by: " + segs[0]
	return segs
}
