package report_test

import (
	"bytes"
	"encoding/base64"
	"html"
	"image/png"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/drill-dev/drill/internal/history"
	"github.com/drill-dev/drill/internal/report"
)

// TestHistoryPage: the history page has each drill's table with the
// regression flagged, the regression in words, a trend chart per headline
// figure (real PNGs) and the expectations.
func TestHistoryPage(t *testing.T) {
	run := func(month time.Month, calls float64) history.Run {
		return history.Run{Date: time.Date(2026, month, 2, 9, 30, 0, 0, time.UTC), Figures: map[string]any{
			"calls_to_broken_outage": calls, "breaker_first_open_s": 3.3, "all4_right": 0.89,
		}}
	}
	g := history.Group{Key: "busy × breaker", Runs: []history.Run{run(time.January, 30), run(time.February, 31), run(time.March, 72)}}
	tr := history.Trend{Groups: []history.Group{g}, Judgements: history.Judge([]history.Group{g}, mustExpect(t, "calls_to_broken_outage <= previous * 1.2"))}
	var buf bytes.Buffer
	if err := report.WriteHistoryHTML(&buf, tr, testDPI); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	for _, want := range []string{
		"busy × breaker (3 runs)", "<th>2026-03-02</th>", `<td class="flag">72 !</td>`,
		"Regression: 2026-03-02 calls_to_broken_outage 72, beyond the 2 runs before (30–31).",
		`<td class="fail">FAIL</td>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	imgs := regexp.MustCompile(`src="data:image/png;base64,([^"]+)"`).FindAllStringSubmatch(page, -1)
	if len(imgs) != len(g.Headline()) {
		t.Fatalf("%d charts, want one per headline figure of the drill (%d)", len(imgs), len(g.Headline()))
	}
	for _, m := range imgs {
		b, err := base64.StdEncoding.DecodeString(html.UnescapeString(m[1]))
		if err == nil {
			_, err = png.Decode(bytes.NewReader(b))
		}
		if err != nil {
			t.Fatalf("a chart is no PNG: %v", err)
		}
	}
}

func mustExpect(t *testing.T, s ...string) []history.Expectation {
	t.Helper()
	es, err := history.ParseExpectations(s)
	if err != nil {
		t.Fatal(err)
	}
	return es
}
