package plain

import (
	"fmt"

	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/predict"
	"github.com/drill-dev/drill/scoring"
)

// secondsTolerance is how close to its predicted range a measured time
// still counts as inside: the summary's rounding (a millisecond).
const secondsTolerance = 0.001

// Beside puts a measured figure (seconds; nil for never) beside its
// predicted range (nil for never), with the fold's gap between them, as the
// breaker pane and the report show it: "measured 18.4 s, predicted
// 18.1–18.5 s: inside", "measured 20.0 s, predicted 18.1–18.5 s: 1.5 s later".
func Beside(measured *float64, predicted *predict.Range) string {
	switch {
	case measured == nil && predicted == nil:
		return "measured never, predicted never: as predicted"
	case measured == nil:
		return fmt.Sprintf("measured never, predicted %s", *predicted)
	case predicted == nil:
		return fmt.Sprintf("measured %s, predicted never", format.Secs(*measured))
	}
	m, p := *measured, *predicted
	diff := "inside"
	switch gap := scoring.PredictionGap(m, p, secondsTolerance); {
	case gap < 0:
		diff = format.Secs(-gap) + " earlier"
	case gap > 0:
		diff = format.Secs(gap) + " later"
	}
	return fmt.Sprintf("measured %s, predicted %s: %s", format.Secs(m), p, diff)
}

// BesideCount is Beside for a count (calls to the broken model): "measured
// 12, predicted 10–14: inside", "measured 20, predicted 12: 8 more".
func BesideCount(measured int, predicted predict.Range) string {
	diff := "inside"
	switch gap := scoring.PredictionGap(float64(measured), predicted, 0); {
	case gap < 0:
		diff = fmt.Sprintf("%.0f fewer", -gap)
	case gap > 0:
		diff = fmt.Sprintf("%.0f more", gap)
	}
	return fmt.Sprintf("measured %d, predicted %s: %s", measured, format.CountRange(predicted[0], predicted[1]), diff)
}
