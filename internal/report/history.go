package report

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"os"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/history"
	"github.com/drill-dev/drill/scoring"
)

// historyIntro opens drill history's page (-o FILE.html): per drill, the
// trend table the terminal shows and each headline figure's trend per run
// date as a chart, regressions in red; then the expectations. One
// self-contained file, written as the report's page is (htmlpage.go).
const historyIntro = ` each figure per run date. A value marked ! is a regression: worse than every earlier run of its drill by more than those runs vary among themselves (at least 5 % of the bound), once two earlier runs measured it.</p>
`

// writeHistoryPage writes the history page: each drill's trend table,
// regressions and charts, then the expectations judged against history.
func writeHistoryPage(b *bytes.Buffer, groups []historyGroup, expectations table) {
	b.WriteString(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Drill history</title>
<style>
` + pageCSS + `td.flag { color: #c62828; font-weight: 600; }
</style>
</head>
<body>
<h1>Drill history</h1>
`)
	fmt.Fprintf(b, "<p>%s,", format.Plural(len(groups), "drill"))
	b.WriteString(historyIntro)
	for _, g := range groups {
		b.WriteString("\n<h2>")
		htmlText(b, g.Key)
		b.WriteString("</h2>\n<div class=\"scroll\"><table>\n")
		t := table{Head: append([]string{"figure"}, g.Dates...)}
		for _, r := range g.Rows {
			row := []string{r.Figure}
			for _, c := range r.Cells {
				row = append(row, c.Text)
			}
			t.Rows = append(t.Rows, row)
		}
		htmlTableBody(b, t, func(row, col int, _ string) string {
			if col > 0 && g.Rows[row].Cells[col-1].Flag {
				return "flag"
			}
			return ""
		})
		b.WriteString("</table></div>\n")
		if len(g.Regressions) > 0 {
			b.WriteString("<ul>")
			for _, r := range g.Regressions {
				b.WriteString("<li>")
				htmlText(b, r)
				b.WriteString("</li>")
			}
			b.WriteString("</ul>")
		}
		b.WriteString("\n<p class=\"note\">Each headline figure per run date; a red ring marks a regression. A run without a value (a breaker that never opened) has no point.</p>\n<div class=\"multiples\">")
		for _, c := range g.Charts {
			b.WriteString(`<img alt="`)
			htmlText(b, c.Scenario)
			b.WriteString(`" src="`)
			htmlURL(b, c.Src)
			b.WriteString("\">\n")
		}
		b.WriteString("</div>\n")
	}
	if len(expectations.Rows) > 0 {
		b.WriteString("<h2>Expectations against history</h2>\n<div class=\"scroll\"><table>\n")
		htmlTableBody(b, expectations, func(_, col int, cell string) string {
			switch {
			case col == 2 && cell == "PASS":
				return "pass"
			case col == 2 && cell == "FAIL":
				return "fail"
			}
			return ""
		})
		b.WriteString("</table></div>")
	}
	b.WriteString("\n</body>\n</html>\n")
}

type historyGroup struct {
	Key         string
	Dates       []string
	Rows        []historyRow
	Regressions []string
	Charts      []htmlChart
}

type historyRow struct {
	Figure string
	Cells  []historyCell
}

type historyCell struct {
	Text string
	Flag bool
}

// colRegression marks a regressed value on a trend chart.
var colRegression = color.RGBA{R: 0xc6, G: 0x28, B: 0x28, A: 0xff}

// Trend chart size: small multiples, a row of them per screen.
const (
	trendW = 4.2 * vg.Inch
	trendH = 2.4 * vg.Inch
)

// WriteHistoryHTML writes drill history's trend as one self-contained HTML
// page, charts drawn at dpi (0: DefaultDPI).
func WriteHistoryHTML(w io.Writer, t history.Trend, dpi int) error {
	var data struct {
		Groups       []historyGroup
		Expectations table
	}
	for _, g := range t.Groups {
		hg, err := historyGroupOf(g, dpi)
		if err != nil {
			return err
		}
		data.Groups = append(data.Groups, hg)
	}
	if len(t.Judgements) > 0 {
		data.Expectations.Head = []string{"expectation", "drill", "result", "measured", "bound"}
		for _, j := range t.Judgements {
			result, measured, bound := j.Cells()
			data.Expectations.Rows = append(data.Expectations.Rows, []string{j.Expectation, j.Group, result, measured, bound})
		}
	}
	var b bytes.Buffer
	writeHistoryPage(&b, data.Groups, data.Expectations)
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("report: writing the history: %w", err)
	}
	return nil
}

// WriteHistoryFile writes the history page to path.
func WriteHistoryFile(path string, t history.Trend, dpi int) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if err := WriteHistoryHTML(f, t, dpi); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("report: writing %s: %w", path, err)
	}
	return nil
}

// historyGroupOf lays out one drill's history: the table, the regressions
// in words, and a trend chart per headline figure.
func historyGroupOf(g history.Group, dpi int) (historyGroup, error) {
	dates := history.Dates(g)
	hg := historyGroup{Key: fmt.Sprintf("%s (%s)", g.Key, format.Plural(len(g.Runs), "run")), Dates: dates}
	flagged := map[string]map[int]bool{}
	for _, r := range g.Regressions() {
		if flagged[r.Figure.Name] == nil {
			flagged[r.Figure.Name] = map[int]bool{}
		}
		flagged[r.Figure.Name][r.Run] = true
		hg.Regressions = append(hg.Regressions, fmt.Sprintf("Regression: %s %s %s, beyond the %s before (%s–%s).",
			dates[r.Run], r.Figure.Name, history.Value(r.Figure, r.Value), format.Plural(r.Earlier, "run"),
			history.Value(r.Figure, r.Low), history.Value(r.Figure, r.High)))
	}
	for _, f := range g.Headline() {
		row := historyRow{Figure: f.Name}
		for i, r := range g.Runs {
			c := historyCell{Text: history.Value(f, r.Figures[f.Name]), Flag: flagged[f.Name][i]}
			if c.Flag {
				c.Text += history.RegressionMark
			}
			row.Cells = append(row.Cells, c)
		}
		hg.Rows = append(hg.Rows, row)
		png, err := trendChart(g, f, dates, flagged[f.Name], dpi)
		if err != nil {
			return historyGroup{}, err
		}
		hg.Charts = append(hg.Charts, htmlChart{Scenario: g.Key + ": " + f.Name, Src: dataURI(png)})
	}
	return hg, nil
}

// trendChart draws one figure of a drill per run date: a line through the
// runs that measured it, regressions as red rings.
func trendChart(g history.Group, f history.Figure, dates []string, flagged map[int]bool, dpi int) ([]byte, error) {
	p := plot.New()
	p.Title.Text = f.Name
	ticks := make([]plot.Tick, len(dates))
	for i, d := range dates {
		ticks[i] = plot.Tick{Value: float64(i), Label: d}
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.Y.Label.Text = trendUnit(f)
	var pts, bad plotter.XYs
	for i, r := range g.Runs {
		v, ok := history.Number(r.Figures[f.Name])
		if !ok {
			continue // null (the breaker never opened): the table says so
		}
		if f.Unit == scoring.UnitShare {
			v *= 100
		}
		pts = append(pts, plotter.XY{X: float64(i), Y: v})
		if flagged[i] {
			bad = append(bad, plotter.XY{X: float64(i), Y: v})
		}
	}
	if len(pts) > 0 {
		line, points, err := plotter.NewLinePoints(pts)
		if err != nil {
			return nil, fmt.Errorf("report: trend of %s: %w", f.Name, err)
		}
		line.Color, points.Color = colPrimary, colPrimary
		points.Shape = draw.CircleGlyph{}
		p.Add(line, points)
	}
	if len(bad) > 0 {
		s, err := plotter.NewScatter(bad)
		if err != nil {
			return nil, fmt.Errorf("report: trend of %s: %w", f.Name, err)
		}
		s.Color, s.Shape, s.Radius = colRegression, draw.RingGlyph{}, vg.Points(6)
		p.Add(s) // no legend: it would narrow the row of dates; the page says what a red ring is
	}
	// The whole row of dates, and values from zero: a trend is read
	// against the scale, not against its own wiggle.
	p.X.Min, p.X.Max = -0.5, float64(len(dates))-0.5
	p.Y.Min = min(p.Y.Min, 0)
	if len(pts) == 0 || p.Y.Max <= p.Y.Min {
		p.Y.Max = p.Y.Min + 1
	}
	return renderPNG(p, trendW, trendH, dpi)
}

// trendUnit is a figure's axis label.
func trendUnit(f history.Figure) string {
	switch f.Unit {
	case scoring.UnitSeconds:
		return "seconds"
	case scoring.UnitShare:
		return "%"
	case scoring.UnitMoney:
		return "cost"
	}
	return "count"
}
