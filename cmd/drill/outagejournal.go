package main

import (
	"fmt"

	"github.com/drill-dev/drill/inject"
	"github.com/drill-dev/drill/replayfault"
)

// outageFromJournal is the outage timeline `--outage-from-journal FILE
// [--model M]` replays: the fault pattern the journal recorded on model (a
// rung or model name; "" for the journal's target), as injector windows,
// with one line per window (and per approximation) to print. Errors are
// usage errors (exit 2). drill proxy uses it; drill run can take the same
// windows once its workload schedules several.
func outageFromJournal(path, model string) ([]inject.Window, []string, error) {
	ws, err := replayfault.Load(path, replayfault.Options{Model: model})
	if err != nil {
		return nil, nil, usageError{fmt.Errorf("--outage-from-journal: %w", err)}
	}
	var notes []string
	for _, w := range ws {
		notes = append(notes, "replayed window: "+w.String())
	}
	if len(ws) == 0 {
		notes = append(notes, "the journal's attempts met no fault: nothing to replay")
	}
	iw, more, err := replayfault.Inject(ws)
	if err != nil {
		return nil, nil, usageError{fmt.Errorf("--outage-from-journal: %w", err)}
	}
	return iw, append(notes, more...), nil
}
