package tui

import (
	"fmt"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/drill-dev/drill/event"
)

// BenchmarkEmailsPane renders the Emails pane (118×38 inside its box) with
// 120, 10,000 and 100,000 emails, following the newest rows: the cost
// depends on the rows on screen, not on the run's size.
func BenchmarkEmailsPane(b *testing.B) {
	st := asciiStyles()
	for _, n := range []int{120, 10000, 100000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			evs := synthRun(n)
			s := newState(nil)
			s.addAll(evs)
			now := evs[len(evs)-1].At
			p := newEmailsPane()
			p.SetSize(rect{w: 120, h: 40})
			p.sync(s)
			b.ResetTimer()
			for b.Loop() {
				p.render(st, s, now)
			}
		})
	}
}

// BenchmarkFrame renders a whole 160×48 frame mid-drill.
func BenchmarkFrame(b *testing.B) {
	m := modelAt(b, 120, 30*time.Second, 160, 48, &fakeControls{})
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	for b.Loop() {
		_ = m.View()
	}
}

// BenchmarkEmailsFilter renders the Emails pane of 100,000 emails with a
// filter on: the matching rows are found once per batch of events, then
// each frame renders only the rows on screen.
func BenchmarkEmailsFilter(b *testing.B) {
	st := asciiStyles()
	evs := synthRun(100000)
	s := newState(nil)
	s.addAll(evs)
	now := evs[len(evs)-1].At
	p := newEmailsPane()
	p.setFilter("backup")
	p.SetSize(rect{w: 120, h: 40})
	p.sync(s)
	b.ResetTimer()
	for b.Loop() {
		p.render(st, s, now)
	}
}

// tickingFeed hands over its events on the first poll, then only moves the
// run's clock forward by a tick each poll, as a live run between events.
type tickingFeed struct {
	evs  []event.Event
	now  time.Duration
	sent bool
}

func (f *tickingFeed) poll(time.Time) ([]event.Event, time.Duration, bool) {
	f.now += 150 * time.Millisecond
	if f.sent {
		return nil, f.now, false
	}
	f.sent = true
	return f.evs, f.now, false
}

// BenchmarkTickFrame is one tick of a live 160×48 dashboard mid-drill: the
// tick's Update (the clock moves) and the View that follows it, which is
// what the terminal costs per frame however the work is split between them.
func BenchmarkTickFrame(b *testing.B) {
	evs := until(synthRun(120), 30*time.Second)
	m := newModel(asciiStyles(), &tickingFeed{evs: evs, now: 30 * time.Second}, &fakeControls{}, 0, nil)
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	m.Update(tickMsg{T: time.Unix(0, 0)})
	for b.Loop() {
		m.Update(tickMsg{T: time.Unix(0, 0)})
		_ = m.View()
	}
}
