package report

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/internal/sweep"
	"github.com/drill-dev/drill/scoring"
)

// SweepTag marks a journal as one run of a `drill sweep` (sweep.Tag).
type SweepTag = sweep.Tag

// sweepTagOf reads a run's sweep tag from its journal header, if any.
func sweepTagOf(r *Run) (SweepTag, bool) {
	var cfg struct {
		Sweep *SweepTag `json:"sweep"`
	}
	if len(r.Meta.Header.Config) == 0 || json.Unmarshal(r.Meta.Header.Config, &cfg) != nil || cfg.Sweep == nil {
		return SweepTag{}, false
	}
	return *cfg.Sweep, true
}

// SweepPoint is one setting of a sweep in the report: its runs' trade-off
// figures over the repeats.
type SweepPoint struct {
	Setting int    // the setting's number in the sweep
	Flags   string // the setting as flags
	// Scenario is the outage the setting competes in: its kind and any
	// --fault values. Settings are compared only within a scenario.
	Scenario string
	Runs     []int // the report's runs of this setting (indexes into Report.Runs)
	// P95 is the p95 wait during the outage (s), All4 all-4-right (a
	// share), Calls the calls to the broken model during the outage.
	P95, All4, Calls scoring.Stat
	// Dominated: another setting of the scenario is clearly better on one
	// of the three figures and clearly worse on none (scoring.Dominated:
	// by more than the repeats' spread, and for all 4 right significant by
	// McNemar's test on each setting's first run's answers).
	Dominated bool
}

// TradeOff is a sweep's trade-off between waits, quality and load on the
// broken model, one point per setting.
type TradeOff struct {
	Scenarios []string     // in the order first seen
	Points    []SweepPoint // by scenario, then setting
}

// TradeOffOf groups runs recorded by `drill sweep` into settings and
// aggregates them with the fold's sweep aggregation; nil unless at least
// two settings are there.
func TradeOffOf(runs []*Run) *TradeOff {
	bySetting := map[int]*SweepPoint{}
	var order []int
	summaries := map[int][]scoring.Summary{}
	for i, r := range runs {
		tag, ok := sweepTagOf(r)
		if !ok {
			continue
		}
		p, seen := bySetting[tag.Setting]
		if !seen {
			p = &SweepPoint{Setting: tag.Setting, Flags: tag.Flags, Scenario: scoring.SweepScenario(r.Summary.OutageLabel(), tag.FaultParams())}
			bySetting[tag.Setting] = p
			order = append(order, tag.Setting)
		}
		p.Runs = append(p.Runs, i)
		summaries[tag.Setting] = append(summaries[tag.Setting], r.Summary)
	}
	if len(order) < 2 {
		return nil
	}
	// The front rule's McNemar test pairs each setting's first run's
	// answers, as drill sweep's table and dashboard do.
	settings := make([]scoring.SweepSetting, len(order))
	for k, n := range order {
		p := bySetting[n]
		settings[k] = scoring.SweepSetting{Scenario: p.Scenario, Summaries: summaries[n], All4ByEmail: runs[p.Runs[0]].all4ByAnswered()}
	}
	rows, err := scoring.AggregateSweep(settings)
	if err != nil {
		return nil // a summary always has its figures
	}
	t := &TradeOff{}
	for k, n := range order {
		p := bySetting[n]
		figs := rows[k].Figures
		p.P95, p.All4, p.Calls = figs["p95_wait_outage_s"], figs["all4_right"], figs["calls_to_broken_outage"]
		p.Dominated = rows[k].Dominated
		if !slices.Contains(t.Scenarios, p.Scenario) {
			t.Scenarios = append(t.Scenarios, p.Scenario)
		}
		t.Points = append(t.Points, *p)
	}
	slices.SortStableFunc(t.Points, func(a, b SweepPoint) int {
		return cmp.Or(cmp.Compare(slices.Index(t.Scenarios, a.Scenario), slices.Index(t.Scenarios, b.Scenario)), cmp.Compare(a.Setting, b.Setting))
	})
	return t
}

// scenario returns the indexes of the points of one scenario.
func (t *TradeOff) scenario(sc string) []int {
	var idx []int
	for i, p := range t.Points {
		if p.Scenario == sc {
			idx = append(idx, i)
		}
	}
	return idx
}

// Colours of the trade-off chart.
var (
	colFront     = color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}
	colDominated = color.RGBA{R: 0x99, G: 0x99, B: 0x99, A: 0xff}
	colSpread    = color.RGBA{R: 0x33, G: 0x33, B: 0x33, A: 0xff}
	fillFront    = color.NRGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0x90}
	fillDom      = color.NRGBA{R: 0xbb, G: 0xbb, B: 0xbb, A: 0x90}
)

// Point sizes: radius for the fewest and the most calls to the broken model.
const (
	minRadius = 3 * vg.Millimeter / 2
	maxRadius = 9 * vg.Millimeter / 2
)

// radius maps calls to a point's radius, area growing with the calls.
func radius(calls, most float64) vg.Length {
	if most <= 0 {
		return minRadius
	}
	f := math.Sqrt(max(calls, 0) / most)
	return minRadius + vg.Length(f)*(maxRadius-minRadius)
}

// tradeOffPoints draws the settings: a circle per setting sized by its
// calls, filled blue on the front and grey when dominated, with the
// setting's number beside the front's.
type tradeOffPoints struct {
	pts  []SweepPoint
	most float64 // the most calls, for sizes
}

// Plot implements plot.Plotter.
func (t tradeOffPoints) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	// Dominated first, so the front is drawn on top.
	pts := slices.Clone(t.pts)
	slices.SortStableFunc(pts, func(a, b SweepPoint) int {
		if a.Dominated == b.Dominated {
			return 0
		}
		if a.Dominated {
			return -1
		}
		return 1
	})
	font := plt.X.Tick.Label.Font
	font.Size = vg.Points(8)
	// Settings with the same figures share one point: one label for all.
	type at struct{ x, y vg.Length }
	labels := map[at][]string{}
	var where []at
	for _, p := range pts {
		if p.P95.N == 0 || p.All4.N == 0 {
			continue
		}
		x, y := trX(p.P95.Median), trY(p.All4.Median*100)
		r := radius(p.Calls.Median, t.most)
		col, fill := colDominated, fillDom
		if !p.Dominated {
			col, fill = colFront, fillFront
		}
		circle := func(r vg.Length) vg.Path {
			var path vg.Path
			path.Move(vg.Point{X: x + r, Y: y})
			path.Arc(vg.Point{X: x, Y: y}, r, 0, 2*math.Pi)
			path.Close()
			return path
		}
		c.SetColor(fill)
		c.Fill(circle(r))
		c.SetLineStyle(draw.LineStyle{Color: col, Width: vg.Points(1)})
		c.Stroke(circle(r))
		if !p.Dominated {
			k := at{x + r + vg.Points(2), y + r*0.6}
			if labels[k] == nil {
				where = append(where, k)
			}
			labels[k] = append(labels[k], fmt.Sprint(p.Setting))
		}
	}
	for _, k := range where {
		c.FillText(draw.TextStyle{Color: color.Black, Font: font, Handler: plt.TextHandler},
			vg.Point{X: k.x, Y: k.y}, strings.Join(labels[k], ", "))
	}
}

// circleKey is a legend entry: a circle of radius r, filled with fill if
// not nil, outlined with line.
type circleKey struct {
	r          vg.Length
	fill, line color.Color
}

// Thumbnail implements plot.Thumbnailer.
func (k circleKey) Thumbnail(c *draw.Canvas) {
	ctr := vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: (c.Min.Y + c.Max.Y) / 2}
	var path vg.Path
	path.Move(vg.Point{X: ctr.X + k.r, Y: ctr.Y})
	path.Arc(ctr, k.r, 0, 2*math.Pi)
	path.Close()
	if k.fill != nil {
		c.SetColor(k.fill)
		c.Fill(path)
	}
	c.SetLineStyle(draw.LineStyle{Color: k.line, Width: vg.Points(1)})
	c.Stroke(path)
}

// roundTicks puts major ticks at round values (1, 2 or 5 times a power of
// ten apart, about six of them) with a minor tick between, labelled
// without trailing zeros.
type roundTicks struct{}

// Ticks implements plot.Ticker.
func (roundTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) {
		return []plot.Tick{{Value: lo, Label: strconv.FormatFloat(lo, 'f', -1, 64)}}
	}
	step := niceRound((hi - lo) / 6)
	var ticks []plot.Tick
	for v := math.Ceil(lo/step*2) * step / 2; v <= hi+step*1e-9; v += step / 2 {
		v = math.Round(v/step*2) * step / 2
		t := plot.Tick{Value: v}
		if math.Abs(math.Remainder(v, step)) < step*1e-6 {
			t.Label = strconv.FormatFloat(roundTo(v, step), 'f', -1, 64)
		}
		ticks = append(ticks, t)
	}
	return ticks
}

// roundTo rounds v to the decimals step has, so 0.30000000000000004 prints
// as 0.3.
func roundTo(v, step float64) float64 {
	d := math.Max(0, -math.Floor(math.Log10(step)))
	p := math.Pow(10, d)
	return math.Round(v*p) / p
}

// Chart draws one scenario's trade-off: p95 wait during the outage against
// all-4-right, one point per setting at its medians with its spread over
// the repeats as error bars, point size the calls to the broken model, the
// non-dominated front joined by a line.
func (t *TradeOff) Chart(scenario string) (*plot.Plot, error) {
	var pts []SweepPoint
	for _, i := range t.scenario(scenario) {
		pts = append(pts, t.Points[i])
	}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Trade-off, %s outage: %d settings", scenario, len(pts))
	p.X.Label.Text = "p95 wait during the outage (s)"
	p.Y.Label.Text = "all 4 fields right (% of emails answered)"
	p.Add(plotter.NewGrid())
	most := 0.0
	xmin, xmax, ymin, ymax := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	var spreadsX, spreadsY []plotter.XYs
	var front plotter.XYs
	for _, pt := range pts {
		most = max(most, pt.Calls.Median)
		if pt.P95.N == 0 || pt.All4.N == 0 {
			continue
		}
		x, y := pt.P95.Median, pt.All4.Median*100
		xmin, xmax = min(xmin, pt.P95.Min), max(xmax, pt.P95.Max)
		ymin, ymax = min(ymin, pt.All4.Min*100), max(ymax, pt.All4.Max*100)
		if pt.P95.Spread() > 0 {
			spreadsX = append(spreadsX, plotter.XYs{{X: pt.P95.Min, Y: y}, {X: pt.P95.Max, Y: y}})
		}
		if pt.All4.Spread() > 0 {
			spreadsY = append(spreadsY, plotter.XYs{{X: x, Y: pt.All4.Min * 100}, {X: x, Y: pt.All4.Max * 100}})
		}
		if !pt.Dominated {
			front = append(front, plotter.XY{X: x, Y: y})
		}
	}
	if math.IsInf(xmin, 1) {
		return p, nil // no setting measured both figures
	}
	slices.SortFunc(front, func(a, b plotter.XY) int { return cmp.Or(cmp.Compare(a.X, b.X), cmp.Compare(a.Y, b.Y)) })
	if len(front) > 1 {
		l, err := plotter.NewLine(front)
		if err != nil {
			return nil, fmt.Errorf("report: trade-off chart: %w", err)
		}
		l.Color, l.Width, l.Dashes = colFront, vg.Points(1.2), []vg.Length{vg.Points(4), vg.Points(2)}
		p.Add(l)
		p.Legend.Add("non-dominated front (numbers: the setting)", l)
	}
	p.Add(tradeOffPoints{pts: pts, most: most})
	// Spreads on top of the points, so a small one stays visible.
	for _, s := range append(spreadsX, spreadsY...) {
		l, err := plotter.NewLine(s)
		if err != nil {
			return nil, fmt.Errorf("report: trade-off chart: %w", err)
		}
		l.Color, l.Width = colSpread, vg.Points(1.2)
		p.Add(l)
	}
	p.Legend.Add("dominated setting", circleKey{r: minRadius * 1.5, fill: fillDom, line: colDominated})
	if most > 0 {
		for _, n := range sizeSteps(most) {
			p.Legend.Add(fmt.Sprintf("%s calls to the broken model (point area)", format.Count(n)), circleKey{r: radius(n, most), line: colDominated})
		}
	}
	p.Legend.Add("spread over the repeats (smallest to largest)", spreadKey{})
	p.X.Tick.Marker, p.Y.Tick.Marker = roundTicks{}, roundTicks{}
	// Room around the biggest points. The legend is drawn beside the plot
	// (RenderTradeOff), never over the data.
	// Both axes start at zero, so a gap looks as large as it is: a few
	// points of all 4 right never fill the chart's height.
	padX := max((xmax-xmin)*0.08, 0.2)
	p.X.Min, p.X.Max = 0, xmax+padX
	p.Y.Min, p.Y.Max = 0, 100
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.ThumbnailWidth = 2*maxRadius + vg.Points(6)
	p.Legend.Padding = 2*maxRadius - p.Legend.TextStyle.Font.Size
	p.Legend.TextStyle.Font.Size = vg.Points(10)
	return p, nil
}

// sizeSteps are up to three round call counts for the size legend.
func sizeSteps(most float64) []float64 {
	top := niceRound(most)
	out := []float64{}
	for _, v := range []float64{top / 10, top / 2, top} {
		if v >= 1 && !slices.Contains(out, math.Round(v)) {
			out = append(out, math.Round(v))
		}
	}
	return out
}

// niceRound rounds x to 1, 2 or 5 times a power of ten.
func niceRound(x float64) float64 {
	if x <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 5, 10} {
		if x <= m*p*1.25 {
			return m * p
		}
	}
	return 10 * p
}

// Size of a trade-off chart, and of the legend column on its right.
const (
	tradeOffW       = 10 * vg.Inch
	tradeOffH       = 5 * vg.Inch
	tradeOffLegendW = 3 * vg.Inch
)

// renderBesideLegend draws p to PNG bytes with its legend in a column of
// width legendW on the right instead of over the plot.
func renderBesideLegend(p *plot.Plot, w, h, legendW vg.Length, dpi int) ([]byte, error) {
	if dpi <= 0 {
		dpi = DefaultDPI
	}
	leg := p.Legend
	p.Legend = plot.NewLegend()
	c := vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(dpi), vgimg.UseBackgroundColor(color.White))}
	dc := draw.New(c)
	p.Draw(draw.Crop(dc, 0, -legendW, 0, 0))
	legArea := draw.Crop(dc, w-legendW+vg.Points(8), 0, 0, -vg.Points(28))
	leg.Draw(legArea)
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("report: rendering a chart: %w", err)
	}
	return buf.Bytes(), nil
}

// TradeOffChart is one scenario's chart as a PNG image.
type TradeOffChart struct {
	Scenario string
	PNG      []byte
}

// RenderTradeOff draws the chart of every scenario at dpi (DefaultDPI if 0).
func (t *TradeOff) RenderTradeOff(dpi int) ([]TradeOffChart, error) {
	var out []TradeOffChart
	for _, sc := range t.Scenarios {
		p, err := t.Chart(sc)
		if err != nil {
			return nil, err
		}
		png, err := renderBesideLegend(p, tradeOffW, tradeOffH, tradeOffLegendW, dpi)
		if err != nil {
			return nil, err
		}
		out = append(out, TradeOffChart{Scenario: sc, PNG: png})
	}
	return out, nil
}

// frontTable lists the non-dominated settings of every scenario.
func (t *TradeOff) frontTable() table {
	tb := table{Head: []string{"Setting", "Outage", "Flags", "Runs", "p95 wait, outage", "All 4 right", "Calls to broken model, outage"}}
	for _, p := range t.Points {
		if p.Dominated {
			continue
		}
		tb.Rows = append(tb.Rows, []string{
			fmt.Sprint(p.Setting), p.Scenario, p.Flags, fmt.Sprint(len(p.Runs)),
			plain.StatSpread(p.P95, true, format.Secs2, " s"),
			plain.StatSpread(p.All4, true, format.Percent1, "%"),
			plain.StatSpread(p.Calls, true, format.Count, ""),
		})
	}
	return tb
}

// tradeOffIntro is the paragraph above the trade-off charts.
func (t *TradeOff) tradeOffIntro() string {
	n := 0
	for _, p := range t.Points {
		if !p.Dominated {
			n++
		}
	}
	return fmt.Sprintf("These runs form a sweep of %d settings (drill sweep). Each chart is one outage: a point per setting at the median of its repeats, "+
		"grey bars its spread (smallest to largest), the point's area the calls to the broken model during the outage. "+
		"Both axes start at zero. A setting is dominated when another of the same outage is clearly better on one of p95 wait, all 4 right and calls "+
		"and clearly worse on none: by more than the repeats' spread, and for all 4 right also significant by McNemar's exact test on the same emails (p < 0.05); "+
		"the other %d form the front, joined by the dashed line (by p95 wait) and listed below.", len(t.Points), n)
}

// markdownTradeOff writes the trade-off section, linking the charts at
// images (one per scenario); nothing when the runs are no sweep.
func (r *Report) markdownTradeOff(w io.Writer, images []string) {
	t := r.TradeOff
	if t == nil {
		return
	}
	fmt.Fprintf(w, "## Trade-off\n\n%s\n\n", t.tradeOffIntro())
	for i, src := range images {
		fmt.Fprintf(w, "![trade-off, %s outage](%s)\n\n", mdEscape(t.Scenarios[i]), src)
	}
	fmt.Fprintf(w, "### The front\n\n")
	mdTable(w, t.frontTable())
}

// spreadKey is the legend entry of the spread bars.
type spreadKey struct{}

// Thumbnail implements plot.Thumbnailer.
func (spreadKey) Thumbnail(c *draw.Canvas) {
	y := (c.Min.Y + c.Max.Y) / 2
	c.StrokeLine2(draw.LineStyle{Color: colSpread, Width: vg.Points(1.2)}, c.Min.X, y, c.Max.X, y)
}
