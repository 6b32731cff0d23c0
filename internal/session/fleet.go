package session

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/drill-dev/drill/event"

	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/fleet"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/metrics"
	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/internal/serialwriter"
	"github.com/drill-dev/drill/scoring"
)

// FleetOptions say how Fleets runs fleet drills.
type FleetOptions struct {
	// Journals are the files each fleet is recorded to ("" for none), one
	// per configuration.
	Journals []string
	// Show, if set, shows a fleet (the fleet pane) until the user quits.
	// Without it a progress line a second per fleet goes to Progress.
	Show     func(ctx context.Context, fl *fleet.Fleet) error
	Progress io.Writer
	// Watch, if set, serves each fleet's metrics per replica (labels
	// replica and store) and logs the team's alerts into it; the caller
	// closes it.
	Watch *Watch
}

// FleetResult is how one fleet drill ended.
type FleetResult struct {
	Summary scoring.FleetSummary
	Status  string
}

// CompareStores is the pair of fleets drill fleet --compare-stores runs at
// once: base with each replica's own breakers, and base with its shared
// store; record, if set, names their journals FILE-local.jsonl and
// FILE-redis.jsonl.
func CompareStores(base fleet.Config, record string) ([]fleet.Config, []string) {
	local := base
	local.Store = fleet.StoreLocal
	paths := []string{"", ""}
	if record != "" {
		stem := strings.TrimSuffix(record, ".jsonl")
		paths = []string{stem + "-local.jsonl", stem + "-redis.jsonl"}
	}
	return []fleet.Config{local, base}, paths
}

// CheckFleets checks fleet configurations before they run: settings that
// do not validate, and journals that exist without force, are usage errors
// (exit 2).
func CheckFleets(cfgs []fleet.Config, journals []string, force bool) error {
	for k, c := range cfgs {
		if err := c.Validate(); err != nil {
			return exit.UsageError(err)
		}
		if k < len(journals) {
			if err := journal.CheckRecord(journals[k], force); err != nil {
				return err
			}
		}
	}
	return nil
}

// Fleets runs one fleet drill per configuration (checked with
// CheckFleets), all at once, and returns their summaries from the fleet
// fold in the order given.
func Fleets(ctx context.Context, cfgs []fleet.Config, opts FleetOptions) ([]FleetResult, error) {
	paths := opts.Journals
	if len(paths) < len(cfgs) {
		paths = append(paths, make([]string, len(cfgs)-len(paths))...)
	}
	res := make([]FleetResult, len(cfgs))
	errs := make([]error, len(cfgs))
	if opts.Progress != nil && len(cfgs) > 1 {
		// The fleets run at once and each prints its progress line.
		opts.Progress = serialwriter.New(opts.Progress)
	}
	var wg sync.WaitGroup
	for k, c := range cfgs {
		wg.Go(func() { res[k], errs[k] = fleetDrill(ctx, c, paths[k], opts) })
	}
	wg.Wait()
	return res, errors.Join(errs...)
}

// fleetDrill runs one fleet to its end, recording it to path if set.
func fleetDrill(ctx context.Context, c fleet.Config, path string, opts FleetOptions) (FleetResult, error) {
	WireFakeModel(&c.Run)
	fl, err := fleet.Start(ctx, c)
	if errors.Is(err, fleet.ErrNotJoined) {
		return FleetResult{}, err // the input was right; the workers did not come
	}
	if err != nil {
		return FleetResult{}, exit.UsageError(err)
	}
	opts.Watch.FollowFleet(ctx, fl.Log(), c.Replicas, metrics.Labels{"store": c.StoreKind()})
	var rec *journal.Writer
	if path != "" {
		h, err := Header(c.Run, fl.Log().Start())
		if err == nil {
			rec, err = journal.Create(path, h, fl.Log(), journal.Options{Secrets: []string{c.Run.Endpoint.APIKey}})
		}
		if err != nil {
			fl.Stop()
			fl.Wait()
			return FleetResult{}, exit.UsageError(fmt.Errorf("--record: %w", err))
		}
	}
	if opts.Show != nil {
		if err := opts.Show(ctx, fl); err != nil && !errors.Is(err, ctx.Err()) {
			fl.Stop()
			fl.Wait()
			return FleetResult{}, err
		}
	} else if opts.Progress != nil {
		fleetProgress(fl, c.StoreKind(), opts.Progress)
	}
	status := fl.Wait()
	ff := scoring.NewFleetFold()
	ff.AddAll(fl.Log().Events())
	r := FleetResult{Summary: ff.Summary(), Status: status}
	return r, Finish(rec, r.Summary.Fleet, status, nil)
}

// fleetProgress writes plain.FleetProgress once a second until the fleet
// ends.
func fleetProgress(fl *fleet.Fleet, store string, w io.Writer) {
	cur := fl.Log().Cursor()
	f := scoring.NewFleetFold()
	everySecond(fl.Done(), func() {
		f.AddAll(cur.Poll())
		fmt.Fprintln(w, plain.FleetProgress(store, f, time.Since(fl.Log().Start())))
	})
}

// JudgedFleet is a fleet summary with its judged hypotheses, as drill
// fleet --json prints it.
type JudgedFleet struct {
	scoring.FleetSummary
	Hypotheses []scoring.Verdict `json:"hypotheses,omitempty"`
}

// JudgeFleets judges the hypotheses on each fleet's whole summary
// (Verdict). The error is the one the exit code comes from: interrupted
// (130) when a fleet was, else every fleet's own error, naming its store.
// warnings are for the user to read.
func JudgeFleets(res []FleetResult, hyps []scoring.Expr) (judged []JudgedFleet, warnings []string, err error) {
	var errs []error
	interrupted := false
	for _, r := range res {
		vs, warning, err := Verdict(r.Summary.Fleet, r.Status, hyps)
		judged = append(judged, JudgedFleet{r.Summary, vs})
		if warning != "" {
			warnings = append(warnings, warning)
		}
		if err != nil && !errors.Is(err, exit.ErrInterrupted) {
			errs = append(errs, fmt.Errorf("%s store: %w", r.Summary.BreakerStore, err))
		}
		interrupted = interrupted || r.Status == event.StatusInterrupted
	}
	if interrupted {
		return judged, warnings, exit.ErrInterrupted
	}
	return judged, warnings, errors.Join(errs...)
}
