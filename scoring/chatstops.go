package scoring

import (
	"slices"

	"github.com/drill-dev/drill/event"
)

// ChatStop is one row of why a chat run's conversations ended: the check
// or limit that ended them (Reason, the event's Stop* reason; "" for the
// answered) and how many of them ended each way.
type ChatStop struct {
	Reason string `json:"reason"`
	// Check is who ended them, in words: a check ("loop guard"), a limit
	// ("turn limit", "the SDK's retries"), the agent itself, or none.
	Check      string `json:"check"`
	Answered   int    `json:"answered"`
	HandedOver int    `json:"handed_over"`
	Silent     int    `json:"silent"`
	CutOff     int    `json:"cut_off"`
}

// stopOrder is the rows' order: the answered, the agent's own handover,
// then the checks and limits from a call's to the conversation's.
var stopOrder = []string{"", event.StopEscalated, event.StopModelFailed, event.StopInvalid, event.StopLoop,
	event.StopBudgetTime, event.StopBudgetTokens, event.StopTurnLimit, event.StopCanceled}

// stopCheck names who ended a conversation for a reason.
var stopCheck = map[string]string{
	"":                     "none: answered",
	event.StopEscalated:    "the agent (its own handover)",
	event.StopModelFailed:  "the SDK's retries",
	event.StopInvalid:      "validity check",
	event.StopLoop:         "loop guard",
	event.StopBudgetTime:   "budget",
	event.StopBudgetTokens: "budget",
	event.StopTurnLimit:    "turn limit",
	event.StopCanceled:     "the run's end",
}

// chatStops counts the ended rows by reason and ending, in stopOrder (an
// unknown reason after, by name); reasons nobody ended with are left out.
func chatStops(rows map[int]*ConversationRow) []ChatStop {
	by := map[string]*ChatStop{}
	for _, r := range rows {
		if r.Running {
			continue
		}
		reason := r.Reason
		if r.Ending == event.EndingAnswered {
			reason = ""
		}
		st := by[reason]
		if st == nil {
			check, ok := stopCheck[reason]
			if !ok {
				check = reason
			}
			st = &ChatStop{Reason: reason, Check: check}
			by[reason] = st
		}
		switch r.Ending {
		case event.EndingAnswered:
			st.Answered++
		case event.EndingHandedOver:
			st.HandedOver++
		case event.EndingSilent:
			st.Silent++
		case event.EndingCutOff:
			st.CutOff++
		}
	}
	rank := func(reason string) int {
		if i := slices.Index(stopOrder, reason); i >= 0 {
			return i
		}
		return len(stopOrder)
	}
	out := make([]ChatStop, 0, len(by))
	for _, st := range by {
		out = append(out, *st)
	}
	slices.SortFunc(out, func(a, b ChatStop) int {
		if d := rank(a.Reason) - rank(b.Reason); d != 0 {
			return d
		}
		if a.Reason < b.Reason {
			return -1
		}
		if a.Reason > b.Reason {
			return 1
		}
		return 0
	})
	return out
}
