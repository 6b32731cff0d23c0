// Package scoring compares answers to the data set's truth and computes every
// figure drill reports: per-field and all-4-right accuracy with Wilson 95 %
// intervals (quality.go), and the run summary folded from a run's event log
// (summary*.go): who served each email, waits, breaker trips, calls to the
// broken model. A number shown live and the same number in a report come from
// one function here.
package scoring
