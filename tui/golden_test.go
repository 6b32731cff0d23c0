package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"
)

// Golden tests of each pane's render function at 80 and 120 columns, with
// the ASCII colour profile and a fixed clock: mid-drill (30 s, outage on,
// breaker open) and after the end. Run with -update to rewrite them.
func TestGoldenPanes(t *testing.T) {
	st := asciiStyles()
	for _, phase := range []struct {
		name string
		at   time.Duration
	}{{"mid", 30 * time.Second}, {"end", -1}} {
		for _, w := range []int{80, 120} {
			m := modelAt(t, 120, phase.at, w, 40, nil)
			s, now := m.s, m.now
			panes := map[string][]string{
				"header":  renderHeader(st, s, w, now, ""),
				"emails":  emailsAt(st, s, w, 16, now),
				"breaker": renderBreaker(st, s, w-2, 6, now),
				"calls":   renderCalls(st, s, w-2, 16, now),
				"compact": renderCalls(st, s, w-2, 4, now),
				"quality": renderQuality(st, s, w-2, 8),
				"summary": wrapSegments(summarySegments(st, s.summary), " · ", w-2),
				"detail":  renderDetail(st, s, 35, now),
			}
			for name, lines := range panes {
				t.Run(fmt.Sprintf("%s/%s/%d", phase.name, name, w), func(t *testing.T) {
					golden.RequireEqual(t, []byte(strings.Join(lines, "\n")+"\n"))
				})
			}
		}
	}
}

// Whole frames at the two sizes the issue names, plus the wide one.
func TestGoldenFrames(t *testing.T) {
	for _, tc := range []struct {
		name string
		at   time.Duration
		w, h int
	}{
		{"mid", 30 * time.Second, 80, 24},
		{"mid", 30 * time.Second, 120, 40},
		{"mid", 30 * time.Second, 160, 48},
		{"end", -1, 80, 24},
		{"end", -1, 120, 40},
	} {
		t.Run(fmt.Sprintf("%s/%dx%d", tc.name, tc.w, tc.h), func(t *testing.T) {
			m := modelAt(t, 120, tc.at, tc.w, tc.h, &fakeControls{})
			v := m.View()
			checkFrame(t, v, tc.w, tc.h)
			golden.RequireEqual(t, []byte(v+"\n"))
		})
	}
}

// emailsAt is the content of an Emails pane of w×h following the newest
// rows, as the dashboard refreshes it.
func emailsAt(st Styles, s *state, w, h int, now time.Duration) []string {
	p := newEmailsPane()
	p.SetSize(rect{w: w, h: h})
	p.sync(s)
	return p.render(st, s, now)
}
