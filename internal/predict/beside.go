package predict

import "fmt"

// Beside puts a measured figure (seconds; nil for never) beside its
// predicted range (nil for never), with the difference, as the breaker pane
// and the report show it: "measured 18.4 s, predicted 18.1–18.5 s: inside",
// "measured 20.0 s, predicted 18.1–18.5 s: 1.5 s later".
func Beside(measured *float64, predicted *Range) string {
	switch {
	case measured == nil && predicted == nil:
		return "measured never, predicted never: as predicted"
	case measured == nil:
		return fmt.Sprintf("measured never, predicted %s", *predicted)
	case predicted == nil:
		return fmt.Sprintf("measured %.1f s, predicted never", *measured)
	}
	m, p := *measured, *predicted
	diff := "inside"
	switch {
	case m < p[0]-0.001:
		diff = fmt.Sprintf("%.1f s earlier", p[0]-m)
	case m > p[1]+0.001:
		diff = fmt.Sprintf("%.1f s later", m-p[1])
	}
	return fmt.Sprintf("measured %.1f s, predicted %s: %s", m, p, diff)
}
