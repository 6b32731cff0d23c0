package plan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/drillfile"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/replayfault"
)

// JournalOutage is the outage timeline `--outage-from-journal FILE
// [--model M]` replays: the fault pattern the journal recorded on model (a
// rung or model name; "" for the journal's target), as injector windows,
// with one line per window (and per approximation) to print. Errors are
// usage errors (exit 2).
func JournalOutage(path, model string) ([]event.Window, []string, error) {
	ws, err := replayfault.Load(path, replayfault.Options{Model: model})
	if err != nil {
		return nil, nil, exit.UsageError(fmt.Errorf("--outage-from-journal: %w", err))
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
		return nil, nil, exit.UsageError(fmt.Errorf("--outage-from-journal: %w", err))
	}
	return iw, append(notes, more...), nil
}

// FileOutage is the outage timeline of the drill file at path: the windows
// of its one named outage, or of the one called name when it has several.
// Errors are usage errors (exit 2).
func FileOutage(path, name string) ([]event.Window, error) {
	df, err := drillfile.Load(path)
	if err != nil {
		return nil, exit.UsageError(fmt.Errorf("-f: %w", err))
	}
	scenarios := df.Scenarios()
	var names []string
	for _, sc := range scenarios {
		names = append(names, sc.Name)
	}
	pick := -1
	switch {
	case name != "":
		if pick = slices.Index(names, name); pick < 0 {
			return nil, exit.Usagef("--outage-name %q: %s names the outages %s", name, path, strings.Join(names, ", "))
		}
	case len(scenarios) == 1:
		pick = 0
	default:
		return nil, exit.Usagef("%s names %d outages (%s): pick one with --outage-name", path, len(names), strings.Join(names, ", "))
	}
	var ws []event.Window
	for _, w := range scenarios[pick].Windows {
		iw, err := w.Injected()
		if err != nil {
			return nil, exit.UsageError(fmt.Errorf("-f %s: %w", path, err))
		}
		ws = append(ws, iw)
	}
	return ws, nil
}
