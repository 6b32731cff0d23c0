// Package history reads the journals of the same drill over months (drill
// history DIR…) and lays the runs side by side: each headline figure per
// run date, with a regression flag where a figure moved beyond the spread
// of the runs before, and expectations against history
// (`calls_to_broken_outage <= previous * 1.2`) that CI can gate on.
//
// Every figure is the journal's summary recomputed by scoring's fold (as
// drill replay and drill report do), named as hypotheses name figures.
package history

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/scoring"
)

// Ways journals are grouped into one drill's history.
const (
	// ByOutagePolicy groups runs of the same outage against the same policy.
	ByOutagePolicy = "outage-policy"
	// ByFile groups runs of the same drill file (the journal header's
	// configuration names it as drill_file), then by outage × policy, as
	// one file plays several; journals that name none group by outage ×
	// policy alone.
	ByFile = "file"
)

// GroupBys lists the valid groupings.
var GroupBys = []string{ByOutagePolicy, ByFile}

// Figure is a headline figure: the registry's definition of a summary
// figure (its name, unit, which way is better, whether null is its worst).
type Figure = scoring.FigureDef

// Headline lists the figures the history shows, in order: when the breaker
// opened, what the outage cost in waits and calls to the broken model,
// what the customers got, and what it cost.
var Headline = scoring.FiguresNamed("breaker_first_open_s", "calls_to_broken_outage", "median_wait_outage_s",
	"p95_wait_outage_s", "primary_back_s", "all4_right", "canned_share", "served.error", "cost.total")

// ChatHeadline lists the figures the history shows of a chat drill (its
// summary's keys): what the conversations got, how long the slowest took,
// what they cost, and the breakers that opened (in all; each dependency's
// as breaker_opens.NAME for expectations). Handovers are shown, never
// flagged: more of them is better when they replace silent endings.
var ChatHeadline = scoring.ChatFiguresNamed("answered", "handed_over", "silent", "turn_limit", "time_p99_s",
	"over_120s", "tokens_billed", "breaker_opens")

// Run is one journal: when it ran and its figures.
type Run struct {
	Path   string
	Date   time.Time // the journal header's start
	Status string
	// Summary is a triage run's figures; Chat a chat run's (nil for triage).
	Summary scoring.Summary
	Chat    *scoring.ChatSummary
	Figures map[string]any // scoring.FiguresOf(Summary), or scoring.ChatFiguresOf(*Chat)
}

// Group is one drill's runs, oldest first.
type Group struct {
	Key  string // "busy × breaker", "monthly.yaml: busy × breaker", "chat: mixed × agent-defaults"
	Runs []Run
	// Chat: the group's runs are chat drills (never mixed with triage).
	Chat bool
}

// Headline is the figures the group's table shows: ChatHeadline for chat
// drills, else Headline, without the cost when no run of the group knows
// a price (the built-in fake model without --price costs 0 only because
// nothing is priced).
func (g Group) Headline() []Figure {
	if g.Chat {
		return ChatHeadline
	}
	if !slices.ContainsFunc(g.Runs, func(r Run) bool { return r.Summary.Cost.Known() }) {
		return slices.DeleteFunc(slices.Clone(Headline), func(f Figure) bool { return f.Unit == scoring.UnitMoney })
	}
	return Headline
}

// Load reads every journal named (a directory stands for the *.jsonl files
// in it) and groups the runs, each group oldest first and the groups by
// key. A journal that cannot be read is an error naming it (the first in
// the order given). Journals are read in parallel, each streamed
// (journal.LoadEach). Load stops with ctx's error once ctx ends (the
// first Ctrl-C).
func Load(ctx context.Context, paths []string, groupBy string) ([]Group, error) {
	if !slices.Contains(GroupBys, groupBy) {
		return nil, fmt.Errorf("group by %q: valid are %s", groupBy, strings.Join(GroupBys, ", "))
	}
	files, err := journal.Expand(paths)
	if err != nil {
		return nil, err
	}
	type loaded struct {
		run  Run
		meta journal.Meta
	}
	all, err := journal.LoadEach(ctx, files, func(ctx context.Context, path string) (loaded, error) {
		run, meta, err := load(ctx, path)
		return loaded{run, meta}, err // an error names the journal
	})
	if err != nil {
		return nil, err
	}
	byKey := map[string]*Group{}
	for _, l := range all {
		run := l.run
		key := run.Summary.OutageLabel() + " × " + run.Summary.Policy
		if run.Chat != nil {
			key = "chat: " + run.Chat.Incident + " × " + run.Chat.Policy
		}
		if groupBy == ByFile {
			if name := drillFile(l.meta.Header); name != "" {
				key = name + ": " + key
			}
		}
		g := byKey[key]
		if g == nil {
			g = &Group{Key: key, Chat: run.Chat != nil}
			byKey[key] = g
		}
		g.Runs = append(g.Runs, run)
	}
	groups := make([]Group, 0, len(byKey))
	for _, g := range byKey {
		slices.SortStableFunc(g.Runs, func(a, b Run) int {
			return cmp.Or(a.Date.Compare(b.Date), cmp.Compare(a.Path, b.Path))
		})
		groups = append(groups, *g)
	}
	slices.SortFunc(groups, func(a, b Group) int { return cmp.Compare(a.Key, b.Key) })
	return groups, nil
}

// loadProbe, when set (by tests), is called every loadProbeEvery events
// while load folds a journal, with everything load holds still live.
var loadProbe func()

// loadProbeEvery is how often load calls loadProbe, in events.
const loadProbeEvery = 4096

// load reads one journal: its figures recomputed by the fold of its
// workload (the triage fold, or the chat fold for a chat drill's journal).
func load(ctx context.Context, path string) (Run, journal.Meta, error) {
	f, cf := scoring.NewFold(), scoring.NewChatFold(0)
	isChat, seen, n := false, false, 0
	meta, err := journal.ScanContext(ctx, path, func(e event.Event) error {
		if !seen { // a journal starts with its run_start
			seen, isChat = true, scoring.IsChat([]event.Event{e})
		}
		if isChat {
			cf.Add(e)
		} else {
			f.Add(e)
		}
		if n++; loadProbe != nil && n%loadProbeEvery == 0 {
			loadProbe()
		}
		return nil
	})
	if err != nil {
		return Run{}, meta, err
	}
	run := Run{Path: path, Date: meta.Header.Start, Status: meta.Status()}
	if isChat {
		sum := cf.Summary()
		run.Chat = &sum
		run.Figures, err = scoring.ChatFiguresOf(sum)
	} else {
		run.Summary = f.Summary()
		run.Figures, err = scoring.FiguresOf(run.Summary)
	}
	if err != nil {
		return run, meta, fmt.Errorf("%s: %w", path, err)
	}
	return run, meta, nil
}

// drillFile is the base name of the drill file a journal's configuration
// names (drill_file), or "".
func drillFile(h journal.Header) string {
	var c struct {
		DrillFile string `json:"drill_file"`
	}
	if len(h.Config) == 0 || json.Unmarshal(h.Config, &c) != nil || c.DrillFile == "" {
		return ""
	}
	return filepath.Base(c.DrillFile)
}

// Number is a figure's value as a number; ok is false for null, a bool or a
// string.
func Number(v any) (float64, bool) {
	n, ok := v.(float64)
	return n, ok && !math.IsNaN(n)
}

// Regression is a figure of a run that moved beyond the spread of the runs
// before it, the worse way.
type Regression struct {
	Run    int // index in the group's runs
	Figure Figure
	// Value is the run's figure (nil for null); Low and High are the
	// earlier runs' spread.
	Value     any
	Low, High float64
	// Earlier is how many earlier runs had the figure.
	Earlier int
}

// Margin is the least a figure must move beyond the earlier runs, as a
// share of their bound, to be flagged when they all measured the same
// value: rounding is not a regression.
const Margin = 0.05

// MinEarlier is how many earlier runs must have measured a figure before
// a run's value can be flagged: one run has no spread.
const MinEarlier = 2

// Regressions flags each headline figure of a run that is worse than the
// runs before it by more than they vary among themselves: above the
// highest earlier value (lower is better) or below the lowest (higher is
// better) by more than the earlier values' range, and at least Margin of
// the bound. A run is judged once MinEarlier earlier runs measured the
// figure. A null where every earlier run measured the figure is flagged
// when null is the figure's worst (the breaker never opened).
func (g Group) Regressions() []Regression {
	figs := g.Headline()
	earlier := make([]spread, len(figs))
	var out []Regression
	for i, run := range g.Runs {
		for k, f := range figs {
			v := run.Figures[f.Name]
			if f.Better != scoring.Neutral {
				if r, ok := earlier[k].judge(i, f, v); ok {
					out = append(out, r)
				}
			}
			earlier[k].add(v)
		}
	}
	return out
}

// spread is what a figure measured in the runs so far: how many runs had
// it, their lowest and highest value, and how many had null. Regressions
// keeps one per figure as it walks the runs, so a group of n runs is
// judged in one pass, not n.
type spread struct {
	n, nulls  int
	low, high float64
}

func (s *spread) add(value any) {
	v, ok := Number(value)
	switch {
	case !ok:
		s.nulls++
	case s.n == 0:
		s.low, s.high = v, v
		s.n = 1
	default:
		s.low, s.high = min(s.low, v), max(s.high, v)
		s.n++
	}
}

// judge says whether value, run i's figure f, regresses against the
// runs before it.
func (s *spread) judge(i int, f Figure, value any) (Regression, bool) {
	if s.n < MinEarlier {
		return Regression{}, false
	}
	r := Regression{Run: i, Figure: f, Value: value, Low: s.low, High: s.high, Earlier: s.n}
	v, ok := Number(value)
	if !ok {
		return r, f.NullWorst && s.nulls == 0
	}
	width := r.High - r.Low
	switch f.Better {
	case scoring.LowerBetter:
		return r, v > r.High+max(width, Margin*math.Abs(r.High))+tiny
	default:
		return r, v < r.Low-max(width, Margin*math.Abs(r.Low))-tiny
	}
}

// tiny keeps a figure equal to its bound (0 calls then 0 calls) from
// being flagged by floating-point noise.
const tiny = 1e-9

// Trend is drill history's reading of the journals: the runs grouped by
// drill, and the expectations judged on each group.
type Trend struct {
	Groups     []Group
	Judgements []Judgement
}

// Read reads the journals, groups them and judges the expectations. Bad
// expectations are a usage error (exit 2).
func Read(ctx context.Context, paths []string, groupBy string, expects []string) (Trend, error) {
	exps, err := ParseExpectations(expects)
	if err != nil {
		return Trend{}, exit.UsageError(err)
	}
	groups, err := Load(ctx, paths, groupBy)
	if err != nil {
		return Trend{}, err
	}
	return Trend{Groups: groups, Judgements: Judge(groups, exps)}, nil
}

// Err is the error of the expectations: a usage error (exit 2) when an
// expectation against the earlier runs (previous, max, min…) had nothing
// to compare with in some drill — a lone run, or no earlier run that
// measured the figure: a gate that checked nothing must not pass —, else
// the error of those that failed (exit 1), or nil.
func (t Trend) Err() error {
	var unjudged []string
	for _, j := range t.Judgements {
		if !j.Judged {
			unjudged = append(unjudged, fmt.Sprintf("  %s: %s (%s)", j.Group, j.Expectation, j.Reason))
		}
	}
	if len(unjudged) > 0 {
		return exit.Usagef("%s nothing to compare with:\n%s\njudge against a number, or give the journals of earlier runs of the same drill",
			format.Plural(len(unjudged), "expectation")+" had", strings.Join(unjudged, "\n"))
	}
	failed := Failed(t.Judgements)
	if len(failed) == 0 {
		return nil
	}
	lines := make([]string, len(failed))
	for i, j := range failed {
		lines[i] = fmt.Sprintf("  %s: %s (measured %s)", j.Group, j.Expectation, scoring.FormatValue(j.Value))
	}
	return fmt.Errorf("%d of %d expectations failed against history:\n%s", len(failed), len(t.Judgements), strings.Join(lines, "\n"))
}

// Report is drill history's whole job on the terminal: read the journals,
// group them, write the trend table and judge the expectations. It returns
// an error when an expectation failed (exit 1); bad input, or an
// expectation with nothing to compare with, is a usage error (exit 2).
func Report(ctx context.Context, w io.Writer, paths []string, groupBy string, expects []string) error {
	t, err := Read(ctx, paths, groupBy, expects)
	if err != nil {
		return err
	}
	if err := WriteTable(w, t.Groups, t.Judgements); err != nil {
		return err
	}
	return t.Err()
}
