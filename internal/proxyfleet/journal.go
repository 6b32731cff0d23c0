package proxyfleet

import (
	"fmt"
	"maps"
	"strconv"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/outfile"
	"github.com/drill-dev/drill/internal/proxy"
	"github.com/drill-dev/drill/scoring"
)

// JournalConfig is what a pulled fleet journal's header records as its
// configuration.
type JournalConfig struct {
	Fleet   string   `json:"fleet"`
	Members []string `json:"members"`
	Plan    *Plan    `json:"plan,omitempty"`
}

// Run is the fleet's run as one log: one run_start (the first member's,
// with the fleet's size among its overrides), every member's own events
// tagged with it, and one run_end, ordered by offset from the fleet's
// start and numbered from 0. status is completed when every member ended
// its run, interrupted when one did not (lost, or still running).
func (p Pulled) Run() (evs []event.Event, status string) {
	var start *event.RunInfo
	ended := map[string]bool{}
	for _, e := range p.Events {
		switch scoring.ReplicaPartOf(e) {
		case scoring.ReplicaRunStart:
			if start == nil && e.Run != nil {
				info := *e.Run
				start = &info
			}
			continue
		case scoring.ReplicaRunEnd:
			ended[e.Member] = true
			continue
		}
		evs = append(evs, e)
	}
	if start == nil {
		start = &event.RunInfo{Outage: "none", Policy: proxy.Policy, Target: proxy.Rung, TimeLimitScope: "client",
			Rungs: []event.Rung{{Name: proxy.Rung}}}
	}
	start.Overrides = maps.Clone(start.Overrides)
	if start.Overrides == nil {
		start.Overrides = map[string]string{}
	}
	start.Overrides["fleet"] = p.Fleet
	start.Overrides["members"] = strconv.Itoa(len(p.Members))
	status = event.StatusCompleted
	for _, m := range p.Members {
		if !ended[m] {
			status = event.StatusInterrupted
		}
	}
	sortByOffset(evs)
	var last time.Duration
	if len(evs) > 0 {
		last = evs[len(evs)-1].At
	}
	evs = append([]event.Event{{Kind: event.RunStart, Run: start}}, evs...)
	evs = append(evs, event.Event{At: last, Kind: event.RunEnd,
		Detail: fmt.Sprintf("proxy fleet %s: %d members, %d ended", p.Fleet, len(p.Members), len(ended)),
		End:    &event.RunEndInfo{Status: status}})
	for i := range evs {
		evs[i].Seq = int64(i)
	}
	return evs, status
}

// WriteJournal writes the fleet's run (Run) as one journal at path, which
// replay, report and history read like any other; an existing file is
// refused unless force. It returns the run's status and its events.
func WriteJournal(path string, force bool, p Pulled) (status string, n int, err error) {
	if err := outfile.Check("-o", path, force, nil); err != nil {
		return "", 0, err
	}
	evs, status := p.Run()
	start := p.Plan.Start
	if !p.HasPlan {
		start = time.Now()
	}
	cfg := JournalConfig{Fleet: p.Fleet, Members: p.Members}
	if p.HasPlan {
		cfg.Plan = &p.Plan
	}
	h, err := journal.NewHeader(cfg, start)
	if err != nil {
		return "", 0, err
	}
	log := event.NewLog(start)
	for _, e := range evs {
		log.AppendRecorded(e)
	}
	log.Close()
	w, err := journal.Create(path, h, log, journal.Options{})
	if err != nil {
		return "", 0, err
	}
	if err := w.Finish(scoring.Summarize(evs), status); err != nil {
		return "", 0, fmt.Errorf("writing %s: %w", path, err)
	}
	return status, len(evs), nil
}
