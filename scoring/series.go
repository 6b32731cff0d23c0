package scoring

import "time"

// MaxSeriesSeconds bounds a per-second series: events at or after this
// offset (a day), or before the run's start, are left out of the series so
// a corrupt or hostile offset can neither panic nor allocate without bound.
const MaxSeriesSeconds = 24 * 60 * 60

// PerSecond counts events per whole second of a run: [s] is second s.
type PerSecond []int

// add counts an event at offset at; offsets outside [0, MaxSeriesSeconds)
// are ignored.
func (p *PerSecond) add(at time.Duration) {
	if at < 0 || at >= MaxSeriesSeconds*time.Second {
		return
	}
	sec := int(at / time.Second)
	for len(*p) <= sec {
		*p = append(*p, 0)
	}
	(*p)[sec]++
}

// Sum is the total count.
func (p PerSecond) Sum() int {
	n := 0
	for _, c := range p {
		n += c
	}
	return n
}

// series are the per-second attempt counts of every rung.
type series struct {
	calls   map[string]*PerSecond // rung -> attempts started per second
	retries map[string]*PerSecond // rung -> retries (attempt > 0) started per second
}

func newSeries() series {
	return series{calls: map[string]*PerSecond{}, retries: map[string]*PerSecond{}}
}

func (s series) attempt(rung string, at time.Duration, retry bool) {
	tally(s.calls, rung).add(at)
	if retry {
		tally(s.retries, rung).add(at)
	}
}

func tally(m map[string]*PerSecond, rung string) *PerSecond {
	p := m[rung]
	if p == nil {
		p = &PerSecond{}
		m[rung] = p
	}
	return p
}

func perSecond(m map[string]*PerSecond, rung string) PerSecond {
	if p := m[rung]; p != nil {
		return *p
	}
	return nil
}

// AttemptsPerSecond counts the HTTP attempts to rung started in each second.
func (f *Fold) AttemptsPerSecond(rung string) PerSecond { return perSecond(f.series.calls, rung) }

// RetriesPerSecond counts the SDK retries to rung started in each second.
func (f *Fold) RetriesPerSecond(rung string) PerSecond { return perSecond(f.series.retries, rung) }
