package report

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/scoring"
)

// chatRunWithStops is a run whose fold says why its conversations ended
// and when its incident was.
func chatRunWithStops() ChatRun {
	r := chatRunForReport()
	r.Summary.IncidentFromS, r.Summary.IncidentToS = 300, 600
	r.Summary.Stops = []scoring.ChatStop{{Check: "none: answered", Answered: 2},
		{Reason: event.StopLoop, Check: "loop guard", HandedOver: 4}, {Reason: event.StopTurnLimit, Check: "turn limit", Silent: 1}}
	for i := range 40 { // a start every 20 s, over the whole incident
		r.Rows = append(r.Rows, scoring.ConversationRow{ID: 10 + i, Start: time.Duration(i) * scoring.ChartInterval,
			Time: 30 * time.Second, Ending: event.EndingAnswered})
	}
	return r
}

// TestChatReportHTMLHasRealTables: the chat comparison and why each run's
// conversations ended are HTML tables, not Markdown in a <pre>.
func TestChatReportHTMLHasRealTables(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.html")
	if err := WriteChatReport(out, []ChatRun{chatRunWithStops()}, 40); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	for _, bad := range []string{"<pre>", "| answered |", "|---"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page holds %q: want HTML tables, not Markdown", bad)
		}
	}
	for _, want := range []string{"<th>figure</th><th>agent-defaults</th>", "<td>answered</td><td>2</td>",
		"Why conversations ended", "<th>ended by</th>", "<td>loop guard</td><td>repeated tool call</td><td>0</td><td>4</td>",
		"<td>turn limit</td><td>turn limit</td><td>0</td><td>0</td><td>1</td>"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}

// TestChatChartAxesInTheirOwnUnits: the silent endings are counted on an
// axis of their own from 0 (no negative tick), the slowest in seconds.
func TestChatChartAxesInTheirOwnUnits(t *testing.T) {
	slow, silent, err := chatPlots(chatRunWithStops())
	if err != nil {
		t.Fatal(err)
	}
	if silent.Y.Min != 0 || !strings.Contains(silent.Y.Label.Text, "count") || !strings.Contains(slow.Y.Label.Text, "(s)") {
		t.Errorf("silent axis from %g labelled %q, slowest labelled %q: want a count from 0, and seconds", silent.Y.Min, silent.Y.Label.Text, slow.Y.Label.Text)
	}
	for _, tk := range silent.Y.Tick.Marker.Ticks(silent.Y.Min, silent.Y.Max) {
		if tk.Value < 0 || strings.Contains(tk.Label, "-") || strings.Contains(tk.Label, ".") {
			t.Errorf("silent count tick %q at %g: want whole counts from 0", tk.Label, tk.Value)
		}
	}
}

// TestChatChartShadesTheIncident: the incident window is shaded on the
// chart; a run without an incident has no shade.
func TestChatChartShadesTheIncident(t *testing.T) {
	shaded := func(r ChatRun) int {
		b, err := ChatChart(r, 40)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		return countColour(img, incidentShade)
	}
	r := chatRunWithStops()
	if n := shaded(r); n < 100 {
		t.Errorf("%d shaded pixels: want the incident window shaded", n)
	}
	r.Summary.IncidentFromS, r.Summary.IncidentToS = 0, 0
	if n := shaded(r); n != 0 {
		t.Errorf("%d shaded pixels without an incident: want none", n)
	}
}

func countColour(img image.Image, c interface{ RGBA() (r, g, b, a uint32) }) int {
	wr, wg, wb, _ := c.RGBA()
	n := 0
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			if r>>8 == wr>>8 && g>>8 == wg>>8 && b>>8 == wb>>8 {
				n++
			}
		}
	}
	return n
}
