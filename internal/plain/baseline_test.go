package plain

import (
	"bytes"
	"strings"
	"testing"

	"github.com/drill-dev/drill/scoring"
)

// TestSummaryBesideTheBaseline: the summary table gives the baseline's
// figures with the live ones beside them, and the worker pool's rows; a run
// with neither prints neither.
func TestSummaryBesideTheBaseline(t *testing.T) {
	var none bytes.Buffer
	if err := Summary(&none, scoring.Summary{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(none.String(), "baseline") || strings.Contains(none.String(), "worker pool") {
		t.Errorf("rows without a baseline or a pool:\n%s", none.String())
	}
	little := 15.0
	s := scoring.Summary{CallsToBrokenOutage: 30, MaxInFlight: 20, Served: scoring.Served{Rejected: 7},
		InFlight: &scoring.InFlightSummary{PeakEmails: 20, RejectedOutage: 7,
			Rungs: []scoring.RungInFlight{{Rung: "primary", PeakCalls: 20, MeanCalls: 15, CallsPerS: 5.7, LittleCalls: &little}}},
		Baseline: &scoring.BaselineSummary{Policy: "no-breakers", Basis: scoring.BaselineReplayed,
			BaselineMeasured: &scoring.BaselineMeasured{Complete: true, CallsToBrokenOutage: 148}}}
	var out bytes.Buffer
	if err := Summary(&out, s); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"no-breakers, replayed on the virtual clock (whole run)", "148 (live 30)", "0 (live 7)",
		"20 workers: 7 emails rejected, 7 of them sent during the outage", "at most 20, mean 15; λ × W 5.7/s × — = 15"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, out.String())
		}
	}
}

// TestCallsRangeAndAll4Share: the predicted range of calls and the share
// all 4 right without its interval, each a dash when there is nothing.
func TestCallsRangeAndAll4Share(t *testing.T) {
	if got := CallsRange(&[2]float64{140, 150.5}); got != "140–150.5" {
		t.Errorf("CallsRange = %q", got)
	}
	if got := CallsRange(nil); got != "—" {
		t.Errorf("CallsRange(nil) = %q", got)
	}
	if got := All4Share(0.67, 3); got != "67%" {
		t.Errorf("All4Share = %q", got)
	}
	if got := All4Share(0, 0); got != "—" {
		t.Errorf("All4Share over none = %q", got)
	}
}
