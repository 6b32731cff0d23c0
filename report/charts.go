package report

import (
	"bytes"
	"fmt"
	"github.com/drill-dev/drill/scoring"
	"image/color"
	"slices"
	"time"

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
		out = append(out, Span{Start: w.Start, End: w.End})
	}
	return out
}

// EmailChart is the chapter's email-by-email chart: each row one email
// (the first at the top), a bar from sent to answered coloured by who served
// it, the outage shaded grey and the breaker's open periods shaded red.
func EmailChart(r *Run) *plot.Plot {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s: email by email", r.Label())
	p.X.Label.Text = "seconds from start"
	p.Y.Label.Text = "email"
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

// AttemptsChart plots attempts started per second to each model, with the
// outage shaded.
func AttemptsChart(r *Run) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s: attempts per second", r.Label())
	p.X.Label.Text = "seconds from start"
	p.Y.Label.Text = "attempts started"
	p.Y.Min = 0
	p.Add(bands{spans: outageSpans(r), color: colOutage})
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
	p.Legend.Top = true
	return p, nil
}

// WaitsHistogram is a histogram of every finished email's wait.
func WaitsHistogram(r *Run) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s: waits", r.Label())
	p.X.Label.Text = "wait, seconds (sent to answered)"
	p.Y.Label.Text = "emails"
	if len(r.Waits) == 0 {
		return p, nil
	}
	h, err := plotter.NewHist(plotter.Values(r.Waits), 30)
	if err != nil {
		return nil, fmt.Errorf("report: waits histogram of %s: %w", r.Path, err)
	}
	h.FillColor = colPrimary
	h.LineStyle.Color = color.White
	p.Add(h)
	return p, nil
}

// Chart sizes.
const (
	chartW = 8 * vg.Inch
	chartH = 3 * vg.Inch
)

// DefaultDPI is the resolution charts are drawn at unless a report says
// otherwise.
const DefaultDPI = 110

// emailChartHeight grows with the number of rows, within bounds.
func emailChartHeight(r *Run) vg.Length {
	n := min(len(r.Emails), maxRows)
	h := vg.Length(n)*vg.Points(3) + vg.Inch
	return min(max(h, 3*vg.Inch), 9*vg.Inch)
}

// renderPNG draws a plot to PNG bytes.
func renderPNG(p *plot.Plot, w, h vg.Length, dpi int) ([]byte, error) {
	if dpi <= 0 {
		dpi = DefaultDPI
	}
	c := vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(dpi), vgimg.UseBackgroundColor(color.White))}
	p.Draw(draw.New(c))
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

// RenderCharts draws a run's charts at dpi (DefaultDPI if 0).
func RenderCharts(r *Run, dpi int) (Charts, error) {
	var c Charts
	var err error
	if c.Emails, err = renderPNG(EmailChart(r), chartW, emailChartHeight(r), dpi); err != nil {
		return c, err
	}
	ap, err := AttemptsChart(r)
	if err != nil {
		return c, err
	}
	if c.Attempts, err = renderPNG(ap, chartW, chartH, dpi); err != nil {
		return c, err
	}
	wp, err := WaitsHistogram(r)
	if err != nil {
		return c, err
	}
	if c.Waits, err = renderPNG(wp, chartW, chartH, dpi); err != nil {
		return c, err
	}
	return c, nil
}
