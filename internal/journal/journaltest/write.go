package journaltest

import (
	"fmt"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/scoring"
)

// Write records events as a journal at path through the real journal
// writer (following a log, as a live run does), ending with the summary
// folded from them and status.
func Write(path string, h journal.Header, events []event.Event, status string) error {
	log := event.NewLog(h.Start)
	w, err := journal.Create(path, h, log, journal.Options{})
	if err != nil {
		return fmt.Errorf("creating %s: %w", path, err)
	}
	for _, e := range events {
		log.AppendRecorded(e)
	}
	log.Close()
	return w.Finish(scoring.Summarize(events), status)
}
