// Package livefold folds a run's event log while the run goes on, on its
// own cursor, so the end of a run needs no pass over the whole log: the
// summary is ready as soon as the log is closed, and one fold serves every
// use of it (the journal's summary line, the command's result).
package livefold

import (
	"context"
	"sync"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/scoring"
)

// Fold is a fold following a log.
type Fold struct {
	done chan struct{}
	mu   sync.Mutex // guards fold while the log goes on (Read)
	fold *scoring.Fold
}

// Follow starts folding log from its first event; call it right after the
// run starts. The fold ends when the log is closed and read.
func Follow(log *event.Log) *Fold {
	lf := &Fold{done: make(chan struct{}), fold: scoring.NewFold()}
	cur := log.Cursor()
	go func() {
		defer close(lf.done)
		for {
			// Next returns io.EOF once the log is closed and read: the
			// run is over. The background context never ends it sooner.
			evs, err := cur.Next(context.Background())
			if err != nil {
				return
			}
			lf.mu.Lock()
			lf.fold.AddAll(evs)
			lf.mu.Unlock()
		}
	}()
	return lf
}

// Wait waits for the log to be closed and read, and returns the fold of
// every event. Goroutines that share it must not use it at the same time.
func (lf *Fold) Wait() *scoring.Fold {
	<-lf.done
	return lf.fold
}

// Read calls fn with the fold as it stands now, while the run goes on (the
// control API's live figures): fn must not keep the fold or change it.
func (lf *Fold) Read(fn func(*scoring.Fold)) {
	lf.mu.Lock()
	defer lf.mu.Unlock()
	fn(lf.fold)
}
