package journaltest

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

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

// WriteVaried records the i-th of a series of synthetic runs at path, as
// a team's monthly drills would leave them: emails emails at rate a
// second, an outage from a quarter to two thirds of the way, the outage
// busy or hang and the breaker off or on in turn (four drills), the seed
// i+1, started at start.
func WriteVaried(path string, start time.Time, emails int, rate float64, i int) error {
	outage := [...]string{"busy", "hang"}[i%2]
	dur := float64(emails) / rate
	evs := Run(Options{Emails: emails, Rate: rate, Outage: outage, Breaker: i/2%2 == 1,
		From: dur / 4, To: dur * 2 / 3, Seed: uint64(i + 1)})
	h, err := journal.NewHeader(nil, start)
	if err != nil {
		return err
	}
	return Write(path, h, evs, event.StatusCompleted)
}

// WriteMany writes n journals of emails emails at rate a second into
// dir, run-00000.jsonl and on, a day apart from 1 January 2026
// (WriteVaried), one per processor at once, and returns their paths.
func WriteMany(dir string, n, emails int, rate float64) ([]string, error) {
	start := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	idx := make([]int, n)
	paths := make([]string, n)
	for i := range idx {
		idx[i] = i
		paths[i] = filepath.Join(dir, fmt.Sprintf("run-%05d.jsonl", i))
	}
	_, err := journal.Parallel(context.Background(), idx, func(_ context.Context, i int) (struct{}, error) {
		return struct{}{}, WriteVaried(paths[i], start.Add(time.Duration(i)*24*time.Hour), emails, rate, i)
	})
	return paths, err
}
