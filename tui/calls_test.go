package tui

import (
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// The Calls pane's charts, breaker strips and time axis share their
// columns, y ticks are round, and retries are a second series (a glyph of
// their own), not digits.
func TestCallsChartAxes(t *testing.T) {
	m := replayModel(t, 999*time.Second, 160, 48)
	st, s := m.st, m.s
	for _, w := range []int{50, 68, 120} {
		lines := renderCalls(st, s, w, 30, m.now)
		var chart, strip, axis []string
		for _, l := range lines {
			l = ansi.Strip(l)
			switch {
			case strings.Contains(l, "┤") || strings.Contains(l, "│"):
				chart = append(chart, l)
			case strings.HasPrefix(l, "prim "):
				strip = append(strip, l)
			case strings.Contains(l, "└"):
				axis = append(axis, l)
			}
		}
		if len(chart) == 0 || len(strip) != 1 || len(axis) != 1 {
			t.Fatalf("width %d: %d chart rows, %d strips, %d axes:\n%s", w, len(chart), len(strip), len(axis), strings.Join(lines, "\n"))
		}
		for _, l := range chart {
			if n := ansi.StringWidth(l); n != w {
				t.Errorf("width %d: chart row is %d cells: %q", w, n, l)
			}
			if lab := strings.TrimSpace(strings.SplitN(l, "┤", 2)[0]); strings.Contains(l, "┤") {
				v, err := strconv.Atoi(lab)
				if err != nil || v != 0 && !isRound(v) {
					t.Errorf("width %d: y tick %q is not round", w, lab)
				}
			}
			if regexp.MustCompile(`[│┤].*[0-9]`).MatchString(l) {
				t.Errorf("width %d: digits inside the chart: %q", w, l)
			}
		}
		if !strings.Contains(strings.Join(chart, ""), "░") {
			t.Errorf("width %d: no retries series in a run with 75 retries", w)
		}
		// The strip starts where the chart's columns start.
		if ansi.StringWidth(strip[0]) > w || strings.Index(axis[0], "└") != gutter-1 {
			t.Errorf("width %d: strip %q or axis %q off the chart's columns", w, strip[0], axis[0])
		}
		for _, tick := range regexp.MustCompile(`\d+`).FindAllString(axis[0], -1) {
			if v, _ := strconv.Atoi(tick); v%5 != 0 {
				t.Errorf("width %d: time tick %s is not round", w, tick)
			}
		}
		if !strings.Contains(axis[0], "└0 s ") {
			t.Errorf("width %d: the time axis has no unit: %q", w, axis[0])
		}
	}
}

func isRound(v int) bool {
	for v >= 10 && v%10 == 0 {
		v /= 10
	}
	return v == 1 || v == 2 || v == 5
}

// The Calls charts are drawn by ntcharts: the tui package imports it and
// go.mod requires it directly.
func TestChartsUseNtcharts(t *testing.T) {
	mod, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^\s+github.com/NimbleMarkets/ntcharts v0\.\d+\.\d+$`).Match(mod) {
		t.Error("go.mod does not require github.com/NimbleMarkets/ntcharts directly")
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "calls.go", nil, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, imp := range f.Imports {
		found = found || strings.HasPrefix(strings.Trim(imp.Path.Value, `"`), "github.com/NimbleMarkets/ntcharts/")
	}
	if !found {
		t.Error("calls.go draws its charts without ntcharts")
	}
}

// Each column of a Calls chart holds the busiest second of its slice of
// the time axis (max per column, bucketed before it is pushed), with that
// second's retries; columns past now are not live.
func TestBucketCallsMaxPerColumn(t *testing.T) {
	m := replayModel(t, 999*time.Second, 160, 48)
	s := m.s
	calls := s.fold.AttemptsPerSecond("primary")
	axis := axisFor(s, m.now)
	for _, gw := range []int{20, 45, 150} {
		tc := timeCols{gw: gw, axis: axis}
		cols := bucketCalls(s, "primary", tc, m.now)
		if len(cols) != gw {
			t.Fatalf("gw %d: %d columns", gw, len(cols))
		}
		seen := 0
		for c, col := range cols {
			lo, hi := tc.seconds(c)
			want := 0
			for sec := lo; sec < hi && sec < len(calls); sec++ {
				want = max(want, calls[sec])
			}
			if col.v != want {
				t.Errorf("gw %d column %d: %d calls, want the slice's busiest second %d", gw, c, col.v, want)
			}
			if col.r > col.v {
				t.Errorf("gw %d column %d: %d retries among %d calls", gw, c, col.r, col.v)
			}
			seen = max(seen, col.v)
		}
		if peak := slices.Max(calls); seen != peak {
			t.Errorf("gw %d: the busiest column shows %d, the busiest second had %d", gw, seen, peak)
		}
	}
	// The y ticks label the top edge of the top row, the middle and 0.
	ticks := yTicks(8, 10)
	for i, want := range map[int]string{7: "10", 3: "5", 0: "0", 5: ""} {
		if got := ticks(i, 0); got != want {
			t.Errorf("tick of row %d: %q, want %q", i, got, want)
		}
	}
}

// TestTimeAxesAgree: the Emails pane's column head and the Breaker and
// Calls panes' time axes of one drill read the same extent with the same
// formatter (80 at the right end of each), at 80 and 120 columns.
func TestTimeAxesAgree(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}, {160, 48}} {
		m := modelAt(t, 120, 45*time.Second, size[0], size[1], nil)
		ends := map[string]int{}
		for _, l := range strings.Split(m.View(), "\n") {
			for _, seg := range strings.Split(l, "│") {
				seg = strings.TrimRight(strings.Trim(seg, "┃"), " ")
				isAxis := strings.Contains(seg, "└")
				isHead := strings.Contains(seg, "# from")
				if !isAxis && !isHead {
					continue
				}
				f := strings.Fields(seg)
				if len(f) < 2 {
					continue
				}
				ends[f[len(f)-1]]++
			}
		}
		if len(ends) != 1 || ends["80"] < 2 {
			t.Errorf("%dx%d: the time axes end at %v, want every one at 80:\n%s", size[0], size[1], ends, m.View())
		}
	}
}
