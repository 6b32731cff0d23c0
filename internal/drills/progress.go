package drills

import (
	"sync"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

// Progress counts the emails done across drills as they go, each run's log
// folded from its own cursor: the figure behind drill compare's and drill
// sweep's progress bars. It is safe for concurrent use.
type Progress struct {
	mu      sync.Mutex
	cursors []*event.Cursor
	folds   []*scoring.Fold
}

// NewProgress follows n drills, none started yet.
func NewProgress(n int) *Progress {
	return &Progress{cursors: make([]*event.Cursor, n), folds: make([]*scoring.Fold, n)}
}

// Started follows drill i's run from now on.
func (p *Progress) Started(i int, r *workload.Run) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cursors[i], p.folds[i] = r.Log().Cursor(), scoring.NewFold()
}

// Done folds what the started runs logged since the last call and returns
// the emails done (served, failed or cancelled) across them.
func (p *Progress) Done() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	done := 0
	for i, c := range p.cursors {
		if c == nil {
			continue
		}
		p.folds[i].AddAll(c.Poll())
		done += p.folds[i].Served().Total()
	}
	return done
}
