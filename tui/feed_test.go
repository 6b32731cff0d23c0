package tui

import (
	"time"

	"github.com/drill-dev/drill/event"
)

// staticFeed hands over fixed events once, at a fixed clock.
type staticFeed struct {
	evs  []event.Event
	now  time.Duration
	done bool
	sent bool
}

func (f *staticFeed) poll(time.Time) ([]event.Event, time.Duration, bool) {
	if f.sent {
		return nil, f.now, f.done
	}
	f.sent = true
	return f.evs, f.now, f.done
}
