package report

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"slices"
	"time"

	"github.com/drill-dev/drill/scoring"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/drill-dev/drill/event"
)

// Colours of who served an email, and of the shaded periods.
var (
	colPrimary = color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}
	colBackup  = color.RGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff}
	colCanned  = color.RGBA{R: 0x7f, G: 0x7f, B: 0x7f, A: 0xff}
	colError   = color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff}
	colPending = color.RGBA{R: 0xc8, G: 0xc8, B: 0xc8, A: 0xff}
	colOutage  = color.NRGBA{R: 0x60, G: 0x60, B: 0x60, A: 0x30}
	colBreaker = color.NRGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0x40}
	colAlert   = color.RGBA{R: 0x94, G: 0x67, B: 0xbd, A: 0xff}
	palette    = []color.Color{colPrimary, colBackup, color.RGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff}, color.RGBA{R: 0x94, G: 0x67, B: 0xbd, A: 0xff}, colCanned}
)

// servedColor is the colour of an email's bar.
func servedColor(servedBy string, finished bool) color.Color {
	if !finished {
		return colPending
	}
	switch servedBy {
	case event.ServedPrimary:
		return colPrimary
	case event.ServedBackup:
		return colBackup
	case event.ServedCanned:
		return colCanned
	default:
		return colError
	}
}

// maxRows is the most email rows a chart draws; bigger runs are thinned to
// every k-th email so the chart stays legible and quick to draw.
const maxRows = 2000

// emailBars draws one horizontal bar per email, from sent to answered.
type emailBars struct {
	rows []Email
	end  time.Duration // where unfinished emails' bars stop
	n    int           // highest email row
}

// Plot implements plot.Plotter.
func (b emailBars) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	h := vg.Length(0.8) * (trY(1) - trY(2))
	if h < 0 {
		h = -h
	}
	h = max(h, 0.6)
	for _, e := range b.rows {
		end := e.Done
		if !e.Finished {
			end = b.end
		}
		x0, x1 := trX(e.Sent.Seconds()), trX(end.Seconds())
		if x1-x0 < 1 {
			x1 = x0 + 1 // an instant answer still shows
		}
		y := trY(float64(e.ID))
		c.FillPolygon(servedColor(e.ServedBy, e.Finished), c.ClipPolygonXY([]vg.Point{
			{X: x0, Y: y - h/2}, {X: x1, Y: y - h/2}, {X: x1, Y: y + h/2}, {X: x0, Y: y + h/2},
		}))
	}
}

// DataRange implements plot.DataRanger.
func (b emailBars) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmax = b.end.Seconds()
	for _, e := range b.rows {
		if e.Finished {
			xmax = max(xmax, e.Done.Seconds())
		}
	}
	return 0, xmax, 0.5, float64(b.n) + 0.5
}

// bands shades periods of the run across the whole height of the plot.
type bands struct {
	spans []Span
	color color.Color
}

var _ plot.Plotter = bands{}

// Plot implements plot.Plotter.
func (s bands) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, _ := plt.Transforms(&c)
	for _, sp := range s.spans {
		x0, x1 := trX(sp.Start.Seconds()), trX(sp.End.Seconds())
		c.FillPolygon(s.color, c.ClipPolygonXY([]vg.Point{
			{X: x0, Y: c.Min.Y}, {X: x1, Y: c.Min.Y}, {X: x1, Y: c.Max.Y}, {X: x0, Y: c.Max.Y},
		}))
	}
}

// swatch is a legend entry: a filled square.
type swatch struct{ color color.Color }

// Thumbnail implements plot.Thumbnailer.
func (s swatch) Thumbnail(c *draw.Canvas) {
	c.FillPolygon(s.color, []vg.Point{
		{X: c.Min.X, Y: c.Min.Y}, {X: c.Max.X, Y: c.Min.Y}, {X: c.Max.X, Y: c.Max.Y}, {X: c.Min.X, Y: c.Max.Y},
	})
}

func outageSpans(r *Run) []Span {
	out := make([]Span, 0, len(r.Windows))
	for _, w := range r.Windows {
		out = append(out, Span{Start: w.From, End: w.To})
	}
	return out
}

// EmailChart is the chapter's email-by-email chart: each row one email
// (the first at the top), a bar from sent to answered coloured by who served
// it, the outage shaded grey and the breaker's open periods shaded red.
func EmailChart(r *Run) *plot.Plot { return emailChart(r, scalesOf([]*Run{r})) }

func emailChart(r *Run, sc Scales) *plot.Plot {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s: email by email", r.Label())
	timeAxis(p, sc)
	p.Y.Label.Text = "email (first at the top)"
	p.Y.Tick.Marker = niceTicks{}
	p.Y.Scale = plot.InvertedScale{Normalizer: plot.LinearScale{}}
	rows := r.Emails
	n := 0
	for _, e := range r.Emails {
		n = max(n, e.ID)
	}
	if len(rows) > maxRows {
		step := (len(rows) + maxRows - 1) / maxRows
		thin := make([]Email, 0, maxRows)
		for i := 0; i < len(rows); i += step {
			thin = append(thin, rows[i])
		}
		rows = thin
		p.Title.Text += fmt.Sprintf(" (every %dth email)", step)
	}
	p.Add(bands{spans: outageSpans(r), color: colOutage})
	p.Add(bands{spans: r.BreakerOpen, color: colBreaker})
	p.Add(emailBars{rows: rows, end: r.End, n: n})
	addAlertMarks(p, r)
	p.Legend.Top = true
	p.Legend.Add("primary", swatch{colPrimary})
	p.Legend.Add("backup", swatch{colBackup})
	if r.Summary.Served.Canned > 0 {
		p.Legend.Add("canned", swatch{colCanned})
	}
	if r.Summary.Served.Error > 0 {
		p.Legend.Add("error", swatch{colError})
	}
	if len(r.Windows) > 0 {
		p.Legend.Add("outage", swatch{colOutage})
	}
	if len(r.BreakerOpen) > 0 {
		p.Legend.Add("breaker open", swatch{colBreaker})
	}
	return p
}

// alertMarks draws each alert received as a dashed vertical line at the
// moment it arrived, named at the top of the plot.
type alertMarks struct{ notes []scoring.AlertNote }

var _ plot.Plotter = alertMarks{}

// Plot implements plot.Plotter.
func (a alertMarks) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, _ := plt.Transforms(&c)
	line := draw.LineStyle{Color: colAlert, Width: vg.Points(1.2), Dashes: []vg.Length{vg.Points(4), vg.Points(2)}}
	font := plt.X.Tick.Label
	font.Color = colAlert
	for _, n := range a.notes {
		x := trX(n.At.Seconds())
		if x < c.Min.X || x > c.Max.X {
			continue
		}
		c.StrokeLine2(line, x, c.Min.Y, x, c.Max.Y)
		c.FillText(font, vg.Point{X: x + vg.Points(2), Y: c.Max.Y - font.Height("A")}, n.Name+" "+n.Status)
	}
}

// addAlertMarks puts the run's alerts on a chart's time axis, with a
// legend entry, when any came.
func addAlertMarks(p *plot.Plot, r *Run) {
	if len(r.Alerts) == 0 {
		return
	}
	p.Add(alertMarks{notes: r.Alerts})
	p.Legend.Add("alert received", swatch{colAlert})
}

// AttemptsChart plots the calls started per second to each model (every
// HTTP request, SDK retries included), with the outage and the breaker's
// open periods shaded.
func AttemptsChart(r *Run) (*plot.Plot, error) { return callsChart(r, scalesOf([]*Run{r})) }

func callsChart(r *Run, sc Scales) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s: calls per second", r.Label())
	timeAxis(p, sc)
	p.Y.Label.Text = "calls started per second"
	p.Y.Min, p.Y.Max = 0, float64(niceCeil(sc.MaxCallsPerSec))
	p.Y.Tick.Marker = niceTicks{}
	p.Add(bands{spans: outageSpans(r), color: colOutage})
	p.Add(bands{spans: r.BreakerOpen, color: colBreaker})
	models := make([]string, 0, len(r.Attempts))
	for m := range r.Attempts {
		models = append(models, m)
	}
	slices.Sort(models)
	// The x axis spans the run; offsets out of range (a corrupt journal)
	// neither panic nor allocate without bound.
	secs := int(min(max(r.End/time.Second, 0), scoring.MaxSeriesSeconds)) + 1
	for i, m := range models {
		counts := r.Attempts[m]
		xys := make(plotter.XYs, secs)
		for s := range secs {
			xys[s].X = float64(s)
			if s < len(counts) {
				xys[s].Y = float64(counts[s])
			}
		}
		// The last step ends where the run ended, at the level of the
		// last whole second: a partial second is not a drop to zero.
		if secs >= 2 {
			xys[secs-1] = plotter.XY{X: r.End.Seconds(), Y: xys[secs-2].Y}
		}
		l, err := plotter.NewLine(xys)
		if err != nil {
			return nil, fmt.Errorf("report: attempts chart of %s: %w", r.Path, err)
		}
		l.StepStyle = plotter.PostStep
		l.Color = palette[i%len(palette)]
		l.Width = vg.Points(1.2)
		p.Add(l)
		p.Legend.Add(m, l)
	}
	addAlertMarks(p, r)
	p.Legend.Add("outage", swatch{colOutage})
	if len(r.BreakerOpen) > 0 {
		p.Legend.Add("breaker open", swatch{colBreaker})
	}
	p.Legend.Top = true
	return p, nil
}

// WaitsHistogram is a histogram of every finished email's wait.
func WaitsHistogram(r *Run) (*plot.Plot, error) { return waitsHistogram(r, scalesOf([]*Run{r})) }

// waitsHistogram bins waits into the report's shared bins, so every run's
// histogram has the same x scale and the same y scale.
func waitsHistogram(r *Run, sc Scales) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s: waits", r.Label())
	p.X.Label.Text = "wait, sent to answered (s)"
	p.Y.Label.Text = "emails"
	p.X.Min, p.X.Max = 0, sc.MaxWait
	p.X.Tick.Marker = niceTicks{unit: " s"}
	p.Y.Min, p.Y.Max = 0, float64(niceCeil(sc.MaxWaitBin))
	p.Y.Tick.Marker = niceTicks{}
	if len(r.Waits) == 0 {
		return p, nil
	}
	h := &plotter.Histogram{Bins: waitBins(r.Waits, sc), FillColor: colPrimary}
	h.LineStyle.Color = color.White
	h.LineStyle.Width = vg.Points(0.5)
	p.Add(h)
	return p, nil
}

// waitBins counts waits into sc's bins.
func waitBins(waits []float64, sc Scales) []plotter.HistogramBin {
	n := max(int(math.Ceil(sc.MaxWait/sc.BinWidth)), 1)
	bins := make([]plotter.HistogramBin, n)
	for i := range bins {
		bins[i].Min, bins[i].Max = float64(i)*sc.BinWidth, float64(i+1)*sc.BinWidth
	}
	for _, w := range waits {
		i := min(max(int(w/sc.BinWidth), 0), n-1)
		bins[i].Weight++
	}
	return bins
}

// Scales are the axes every run's charts share in one report, so runs can
// be compared by eye: one time axis, one calls-per-second scale, one set
// of wait bins.
type Scales struct {
	End            float64 // seconds: the longest run's end
	MaxCallsPerSec int     // the busiest second of any model in any run
	MaxWait        float64 // seconds: the right edge of the wait histograms
	BinWidth       float64 // seconds per wait bin
	MaxWaitBin     int     // the fullest wait bin of any run
}

// scalesOf computes the scales shared by runs.
func scalesOf(runs []*Run) Scales {
	sc := Scales{MaxCallsPerSec: 1, MaxWaitBin: 1}
	maxWait := 0.0
	for _, r := range runs {
		sc.End = max(sc.End, min(r.End.Seconds(), scoring.MaxSeriesSeconds))
		for _, e := range r.Emails {
			if e.Finished {
				sc.End = max(sc.End, min(e.Done.Seconds(), scoring.MaxSeriesSeconds))
			}
		}
		for _, counts := range r.Attempts {
			for _, c := range counts {
				sc.MaxCallsPerSec = max(sc.MaxCallsPerSec, c)
			}
		}
		for _, w := range r.Waits {
			maxWait = max(maxWait, w)
		}
	}
	sc.End = niceStepCeil(max(sc.End, 1))
	sc.MaxWait = niceStepCeil(max(maxWait, 1))
	sc.BinWidth = niceStep(sc.MaxWait / 30)
	for _, r := range runs {
		for _, b := range waitBins(r.Waits, sc) {
			sc.MaxWaitBin = max(sc.MaxWaitBin, int(b.Weight))
		}
	}
	return sc
}

// timeAxis sets a chart's x axis to the shared time axis in seconds.
func timeAxis(p *plot.Plot, sc Scales) {
	p.X.Label.Text = "time from the start of the run (s)"
	p.X.Min, p.X.Max = 0, sc.End
	p.X.Tick.Marker = niceTicks{unit: " s"}
}

// niceStep is the round step (1, 2 or 5 times a power of ten) at or above x.
func niceStep(x float64) float64 {
	if x <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= x*(1-1e-9) {
			return m * p
		}
	}
	return 10 * p
}

// niceStepCeil rounds x up to a multiple of a round step about a tenth of it.
func niceStepCeil(x float64) float64 {
	st := niceStep(x / 10)
	return math.Ceil(x/st-1e-9) * st
}

// niceCeil rounds v up to 1, 2 or 5 times a power of ten.
func niceCeil(v int) int { return int(niceStep(float64(max(v, 1)))) }

// niceTicks puts major ticks at round values (a step of 1, 2 or 5 times a
// power of ten, 4 to 10 of them), labelled with the unit, and minor ticks
// halfway.
type niceTicks struct{ unit string }

// Ticks implements plot.Ticker.
func (t niceTicks) Ticks(lo, hi float64) []plot.Tick {
	if hi <= lo {
		return []plot.Tick{{Value: lo, Label: t.label(lo)}}
	}
	step := niceStep((hi - lo) / 8)
	var ticks []plot.Tick
	for v := math.Ceil(lo/step-1e-9) * step; v <= hi+step*1e-9; v += step {
		ticks = append(ticks, plot.Tick{Value: v, Label: t.label(v)})
		if m := v + step/2; m < hi {
			ticks = append(ticks, plot.Tick{Value: m})
		}
	}
	return ticks
}

func (t niceTicks) label(v float64) string {
	if math.Abs(v) < 1e-9 {
		v = 0
	}
	return fmt.Sprintf("%g%s", math.Round(v*1000)/1000, t.unit)
}

// Chart sizes: full-width charts, and the small multiples of the overview.
const (
	chartW = 12 * vg.Inch
	chartH = 3.2 * vg.Inch
	smallW = 5 * vg.Inch
	smallH = 3.2 * vg.Inch
)

// SmallEmailChart is run's email-by-email chart as a small multiple: on the
// report's shared time axis, small enough to set every run side by side.
func SmallEmailChart(r *Run, tag string, dpi int, sc Scales) ([]byte, error) {
	if len(r.Emails) == 0 {
		return nil, nil // a proxy's run: no emails to chart
	}
	p := emailChart(r, sc)
	p.Title.Text = tag + " " + r.Label()
	p.Legend = plot.NewLegend() // one legend for all, in the page
	return renderPNG(p, smallW, smallH, dpi)
}

// DefaultDPI is the resolution charts are drawn at unless a report says
// otherwise.
const DefaultDPI = 110

// emailChartHeight grows with the number of rows, within bounds.
func emailChartHeight(r *Run) vg.Length {
	n := min(len(r.Emails), maxRows)
	h := vg.Length(n)*vg.Points(3) + vg.Inch
	return min(max(h, 3*vg.Inch), 9*vg.Inch)
}

// renderPNG draws a plot to PNG bytes, its legend (if any) in a column to
// the right of the data, never over it.
func renderPNG(p *plot.Plot, w, h vg.Length, dpi int) ([]byte, error) {
	if dpi <= 0 {
		dpi = DefaultDPI
	}
	c := vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(dpi), vgimg.UseBackgroundColor(color.White))}
	dc := draw.New(c)
	leg := p.Legend
	p.Legend = plot.NewLegend()
	leg.Padding = vg.Points(4)
	lw := leg.Rectangle(dc).Size().X
	if lw > 0 {
		lw += vg.Points(12)
		p.Draw(draw.Crop(dc, 0, -lw, 0, 0))
		leg.Left, leg.Top = true, true
		leg.Padding = vg.Points(4)
		// Start the legend level with the top of the data area.
		top := vg.Length(0)
		if p.Title.Text != "" {
			top = p.Title.TextStyle.Rectangle(p.Title.Text).Size().Y + p.Title.Padding
		}
		leg.Draw(draw.Crop(dc, w-lw+vg.Points(8), 0, 0, -top))
	} else {
		p.Draw(dc)
	}
	p.Legend = leg
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("report: rendering a chart: %w", err)
	}
	return buf.Bytes(), nil
}

// Charts are one run's three charts as PNG images.
type Charts struct {
	Emails, Attempts, Waits []byte
}

// RenderCharts draws a run's charts at dpi (DefaultDPI if 0), on scales
// of its own.
func RenderCharts(r *Run, dpi int) (Charts, error) { return renderCharts(r, dpi, scalesOf([]*Run{r})) }

// renderCharts draws a run's charts on the report's shared scales.
func renderCharts(r *Run, dpi int, sc Scales) (Charts, error) {
	var c Charts
	var err error
	if len(r.Emails) > 0 { // a proxy's run has none to chart
		if c.Emails, err = renderPNG(emailChart(r, sc), chartW, emailChartHeight(r), dpi); err != nil {
			return c, err
		}
	}
	ap, err := callsChart(r, sc)
	if err != nil {
		return c, err
	}
	if c.Attempts, err = renderPNG(ap, chartW, chartH, dpi); err != nil {
		return c, err
	}
	wp, err := waitsHistogram(r, sc)
	if err != nil {
		return c, err
	}
	if c.Waits, err = renderPNG(wp, chartW, chartH, dpi); err != nil {
		return c, err
	}
	return c, nil
}
