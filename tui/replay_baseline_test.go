package tui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/drill-dev/drill/scoring"
)

// TestReplayRecordedBaseline: a journal recorded with a baseline holds its
// figures where the live run ended (here its whole run); the replay shows
// them labelled as recorded, b says there are no per-email bars, and the
// replay's help lists no b. A journal without one: b says so.
func TestReplayRecordedBaseline(t *testing.T) {
	p50, p95 := 17.0, 17.6
	sum := scoring.BaselineSummary{Policy: "no-breakers", Basis: "replayed", BaselineMeasured: &scoring.BaselineMeasured{
		AtS: 60.8, Complete: true, EmailsSent: 120, EmailsAnswered: 120, Served: scoring.Served{Primary: 92, Backup: 28},
		All4Right: 0.94, MedianWaitOutageS: &p50, P95WaitOutageS: &p95, WaitsOutage: 50, CallsToBrokenOutage: 118}}
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		rp := newReplayFeed(synthRun(120), 1)
		rp.pos, rp.paused = 30*time.Second, true
		m := newModel(asciiStyles(), rp, nil, 0, nil)
		m.base = recordedBaseline{sum}
		m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		m.Update(tickMsg{T: time.Unix(0, 0)})
		v := m.View()
		if !strings.Contains(v, "recorded baseline, whole run: 118 without breakers") {
			t.Errorf("%v: the header does not show the recorded baseline:\n%s", size, v)
		}
		if strings.Contains(v, "vs 118") {
			t.Errorf("%v: the recorded whole-run baseline reads as if at the replayed time:\n%s", size, v)
		}
		m.Update(keyMsg("b"))
		if v := m.View(); !strings.Contains(v, "no replayed baseline") || m.ep.showBase {
			t.Errorf("%v: b on a recorded baseline: bars %v, footer:\n%s", size, m.ep.showBase, v)
		}
		m.Update(keyMsg("?"))
		if v := m.View(); strings.Contains(v, "baseline bars") {
			t.Errorf("%v: the replay's help lists b:\n%s", size, v)
		}
	}
	m := newModel(asciiStyles(), newReplayFeed(synthRun(120), 1), nil, 0, nil)
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m.Update(tickMsg{T: time.Unix(0, 0)})
	m.Update(keyMsg("b"))
	if v := m.View(); !strings.Contains(v, "no baseline here") {
		t.Errorf("b in a replay without a baseline says nothing:\n%s", v)
	}
}
