package report

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"strconv"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/scoring"
)

// The chat chart's colours: the simulation's grey and red, and the
// incident window's shade.
var (
	slowGrey      = color.RGBA{R: 150, G: 150, B: 150, A: 255}
	silentRed     = color.RGBA{R: 214, G: 39, B: 40, A: 255}
	incidentShade = color.RGBA{R: 255, G: 228, B: 181, A: 255}
)

// chatPlots are the simulation's chart of a chat run as two plots on one
// time axis of conversation starts, each on its own scale: the slowest
// conversation that started in each 20 s (seconds), and the conversations
// starting then that ended silent (a count, from 0). The incident window
// is shaded on both.
func chatPlots(run ChatRun) (slow, silent *plot.Plot, err error) {
	bars := scoring.Chart(run.Rows)
	slowV, silentV := make(plotter.Values, len(bars)), make(plotter.Values, len(bars))
	maxSlow, maxSilent := 1.0, 1.0
	for i, b := range bars {
		slowV[i], silentV[i] = b.Slowest.Seconds(), float64(b.Silent)
		maxSlow, maxSilent = max(maxSlow, slowV[i]), max(maxSilent, silentV[i])
	}
	s := run.Summary
	slow, silent = plot.New(), plot.New()
	slow.Title.Text = fmt.Sprintf("%s · %s: slowest conversation per 20 s of starts", s.Policy, s.Incident)
	if s.IncidentToS > s.IncidentFromS {
		slow.Title.Text += fmt.Sprintf(" (incident %s–%s shaded)", format.Secs(s.IncidentFromS), format.Secs(s.IncidentToS))
	}
	slow.Y.Label.Text = "slowest (s)"
	silent.Title.Text = "silent endings (no answer, nobody told) per 20 s of starts"
	silent.Y.Label.Text = "silent (count)"
	silent.X.Label.Text = "conversation start (s)"
	for _, c := range []struct {
		p      *plot.Plot
		v      plotter.Values
		top    float64
		colour color.Color
	}{{slow, slowV, maxSlow * 1.05, slowGrey}, {silent, silentV, maxSilent, silentRed}} {
		if shade := incidentPolygon(s, c.top); shade != nil {
			c.p.Add(shade)
		}
		bc, err := plotter.NewBarChart(c.v, vg.Points(6))
		if err != nil {
			return nil, nil, fmt.Errorf("chat chart: %w", err)
		}
		bc.Color, bc.LineStyle.Width = c.colour, 0
		c.p.Add(bc)
		c.p.Y.Min, c.p.Y.Max = 0, c.top
		c.p.X.Min, c.p.X.Max = -0.5, math.Max(float64(len(bars))-0.5, 0.5)
		c.p.X.Tick.Marker = startTicks{}
	}
	silent.Y.Tick.Marker = countTicks{}
	return slow, silent, nil
}

// incidentPolygon is the incident window's shade up to top, on the bars'
// axis (bar i is the starts from i·20 s), nil when the run had none.
func incidentPolygon(s scoring.ChatSummary, top float64) *plotter.Polygon {
	if s.IncidentToS <= s.IncidentFromS {
		return nil
	}
	step := scoring.ChartInterval.Seconds()
	lo, hi := s.IncidentFromS/step-0.5, s.IncidentToS/step-0.5
	poly, err := plotter.NewPolygon(plotter.XYs{{X: lo, Y: 0}, {X: hi, Y: 0}, {X: hi, Y: top}, {X: lo, Y: top}})
	if err != nil {
		return nil
	}
	poly.Color, poly.LineStyle.Width = incidentShade, 0
	return poly
}

// startTicks label the bars' axis in seconds of conversation start, every
// 300 s.
type startTicks struct{}

// Ticks implements plot.Ticker.
func (startTicks) Ticks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	per := int(scoring.ChartInterval / time.Second)
	for i := 0; i <= int(hi); i += 300 / per {
		ticks = append(ticks, plot.Tick{Value: float64(i), Label: strconv.Itoa(i * per)})
	}
	return ticks
}

// countTicks label a count axis with whole numbers from 0: never a
// negative or a fraction.
type countTicks struct{}

// Ticks implements plot.Ticker.
func (countTicks) Ticks(lo, hi float64) []plot.Tick {
	step := max(math.Ceil(hi/4), 1)
	var ticks []plot.Tick
	for v := math.Max(lo, 0); v <= hi; v += step {
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.Itoa(int(v))})
	}
	return ticks
}

// ChatChart draws the simulation's chart of a chat run (chatPlots): the
// slowest conversations above, the silent endings below on their own
// count axis, the two aligned on one time axis.
func ChatChart(run ChatRun, dpi int) ([]byte, error) {
	slow, silent, err := chatPlots(run)
	if err != nil {
		return nil, err
	}
	if dpi <= 0 {
		dpi = DefaultDPI
	}
	c := vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(vg.Points(900), vg.Points(460)), vgimg.UseDPI(dpi), vgimg.UseBackgroundColor(color.White))}
	dc := draw.New(c)
	canvases := plot.Align([][]*plot.Plot{{slow}, {silent}}, draw.Tiles{Rows: 2, Cols: 1, PadY: vg.Points(4)}, dc)
	slow.Draw(canvases[0][0])
	silent.Draw(canvases[1][0])
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("chat chart: %w", err)
	}
	return buf.Bytes(), nil
}
