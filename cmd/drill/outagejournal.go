package main

import (
	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/session"
	"github.com/drill-dev/drill/workload"
)

// replayFlags are drill run's and drill compare's outage replay:
// --outage-from-journal FILE [--model M].
type replayFlags struct {
	path, model string
}

func (r *replayFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&r.path, "outage-from-journal", "", "replay the fault pattern a journal recorded (each attempt's class and timing) as the outage timeline")
	fs.StringVar(&r.model, "model", "", "with --outage-from-journal: the rung or model whose attempts to replay (default: the journal's target)")
}

// outages is the outage list drill compare runs: with a journal, one entry
// (every policy is run once against the journal's timeline); --outages
// does not go with it.
func (r *replayFlags) outages(fs *pflag.FlagSet, outages []string) ([]string, error) {
	if r.path == "" {
		return outages, nil
	}
	if fs.Changed("outages") {
		return nil, exit.Usagef("--outages and --outage-from-journal do not go together: the journal is the timeline")
	}
	return outages[:1], nil // one run per policy: apply gives each the journal's timeline
}

// apply replaces cfg's outage with the timeline the journal recorded, and
// notes each replayed window. The outage flags and --fault do not go with it.
func (r *replayFlags) apply(fs *pflag.FlagSet, cfg *workload.Config, note func(string)) error {
	if r.path == "" {
		if fs.Changed("model") {
			return exit.Usagef("--model goes with --outage-from-journal")
		}
		return nil
	}
	if err := noOutageFlags(fs, "--outage-from-journal", "the journal"); err != nil {
		return err
	}
	ws, notes, err := session.JournalOutage(r.path, r.model)
	if err != nil {
		return err
	}
	for _, n := range notes {
		note(n)
	}
	if len(ws) == 0 {
		cfg.Outage, cfg.Outages = workload.OutageNone, nil
		return nil
	}
	// The first window names the drill; the timeline is every window.
	cfg.Outage, cfg.OutageFrom, cfg.OutageTo = ws[0].Kind, ws[0].From, ws[len(ws)-1].To
	cfg.Outages = ws
	return nil
}

// noOutageFlags refuses the outage flags beside a timeline that replaces
// them (flag: the flag that gives it; what: what it is).
func noOutageFlags(fs *pflag.FlagSet, flag, what string) error {
	for _, name := range []string{"outage", "outage-from", "outage-to", "fault"} {
		if fs.Changed(name) {
			return exit.Usagef("--%s and %s do not go together: %s is the timeline", name, flag, what)
		}
	}
	return nil
}
