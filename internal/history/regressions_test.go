package history_test

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/drill-dev/drill/internal/history"
	"github.com/drill-dev/drill/scoring"
)

// naiveRegressions is Regressions as its doc comment states it, run by
// run against every earlier run: the reference the one-pass version must
// agree with.
func naiveRegressions(g history.Group) []history.Regression {
	var out []history.Regression
	for i := range g.Runs {
		for _, f := range g.Headline() {
			if f.Better == scoring.Neutral {
				continue
			}
			var earlier []float64
			nulls := 0
			for _, r := range g.Runs[:i] {
				if v, ok := history.Number(r.Figures[f.Name]); ok {
					earlier = append(earlier, v)
				} else {
					nulls++
				}
			}
			if len(earlier) < history.MinEarlier {
				continue
			}
			r := history.Regression{Run: i, Figure: f, Value: g.Runs[i].Figures[f.Name], Low: slices.Min(earlier), High: slices.Max(earlier), Earlier: len(earlier)}
			v, ok := history.Number(r.Value)
			width := r.High - r.Low
			var bad bool
			switch {
			case !ok:
				bad = f.NullWorst && nulls == 0
			case f.Better == scoring.LowerBetter:
				bad = v > r.High+max(width, history.Margin*math.Abs(r.High))+1e-9
			default:
				bad = v < r.Low-max(width, history.Margin*math.Abs(r.Low))-1e-9
			}
			if bad {
				out = append(out, r)
			}
		}
	}
	return out
}

// TestRegressionsMatchesItsDefinition judges random groups, values drifting
// with an occasional null, with Regressions and with the definition run by
// run, and wants the same regressions.
func TestRegressionsMatchesItsDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 50 {
		g := history.Group{Key: "busy × breaker"}
		for range rng.IntN(30) {
			figs := map[string]any{}
			for _, f := range history.Headline {
				if rng.IntN(8) == 0 {
					figs[f.Name] = nil
				} else {
					figs[f.Name] = math.Round(rng.Float64()*float64(10+trial)) / 4
				}
			}
			g.Runs = append(g.Runs, history.Run{Figures: figs})
		}
		if got, want := g.Regressions(), naiveRegressions(g); !reflect.DeepEqual(got, want) {
			t.Fatalf("trial %d (%d runs): Regressions found %d, the definition %d:\n%+v\n%+v", trial, len(g.Runs), len(got), len(want), got, want)
		}
	}
}
