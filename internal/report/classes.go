package report

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/plain"
)

// classNote explains the per-class table and charts.
const classNote = "Each class's figures are the run's figures over the class's emails alone (the summary's classes.NAME.*): " +
	"served is primary / backup / canned / error, then handed over to a person by a route with backup: never; " +
	"p95 wait is over the class's emails sent during the outage (a handed-over email's wait is until the customer was told). " +
	"Misclassified counts emails the routes put in the class that their right answer would put in another. " +
	"The charts put every email's wait at the time it was sent, one colour per class, on the report's shared time axis."

// classTable is one row per run and class, for runs with routes; no rows
// when no run has any.
func (r *Report) classTable() table {
	t := table{Head: []string{"Run", "Class", "Policy", "Emails", "Served (p / b / c / e), handed over", "Waited for primary",
		"All 4 right", "p95 wait, outage", "Within", "Misclassified", "Classifier accuracy"}}
	for i, run := range r.Runs {
		s := run.Summary
		acc := format.Dash
		if c := s.Classifier; c != nil && c.Accuracy != nil {
			acc = format.Percent(*c.Accuracy)
		}
		for _, name := range plain.ClassOrder(s) {
			c := s.Classes[name]
			pol := format.Text(c.Policy)
			if c.Hold != "" {
				pol += ", backup never (" + c.Hold + ")"
			}
			all4 := format.Dash
			if c.All4Right != nil {
				all4 = format.Percent(*c.All4Right)
			}
			t.Rows = append(t.Rows, []string{runTag(i), name, pol, fmt.Sprint(c.Emails),
				fmt.Sprintf("%s, %d", plain.Served(c.Served), c.HandedOver), fmt.Sprint(c.WaitedForPrimary), all4,
				format.Seconds(c.P95WaitOutageS), format.Seconds(c.WithinS), fmt.Sprint(c.Misclassified), acc})
		}
	}
	return t
}

// hasClasses reports whether a run has routes.
func hasClasses(r *Run) bool { return len(r.Summary.Classes) > 0 }

// ClassWaitsChart is a run's waits by class: each answered email a point
// at the time it was sent and the height of its wait, one colour per
// class, the outage shaded, on the report's shared time axis.
func classWaitsChart(r *Run, sc Scales) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s: waits by class", r.Label())
	timeAxis(p, sc)
	p.X.Label.Text = "sent, from the start of the run (s)"
	p.Y.Label.Text = "wait (s)"
	p.Y.Min, p.Y.Max = 0, sc.MaxWait
	p.Y.Tick.Marker = niceTicks{unit: " s"}
	p.Add(bands{spans: outageSpans(r), color: colOutage})
	p.Legend.Top = true
	for k, name := range plain.ClassOrder(r.Summary) {
		var pts plotter.XYs
		for _, e := range r.Emails {
			if e.Class == name && e.Answered {
				pts = append(pts, plotter.XY{X: e.Sent.Seconds(), Y: e.Wait.Seconds()})
			}
		}
		if len(pts) == 0 {
			continue
		}
		sp, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, fmt.Errorf("report: charting class %s: %w", name, err)
		}
		col := palette[k%len(palette)]
		sp.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(2.2), Shape: draw.CircleGlyph{}}
		p.Add(sp)
		p.Legend.Add(name, swatch{col})
	}
	return p, nil
}

// classCharts renders each run's waits-by-class chart; nil for a run
// without routes.
func (r *Report) classCharts() ([][]byte, error) {
	sc := scalesOf(r.Runs)
	out := make([][]byte, len(r.Runs))
	for i, run := range r.Runs {
		if !hasClasses(run) || !r.charted(i) {
			continue
		}
		p, err := classWaitsChart(run, sc)
		if err != nil {
			return nil, err
		}
		if out[i], err = renderPNG(p, chartW, chartH, r.DPI); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// htmlClasses is the per-class section of the HTML page.
type htmlClasses struct {
	Table  table
	Tags   []string
	Charts []string // data: URIs, "" for runs without routes
}

// classesHTML gathers the per-class section; an empty table when no run
// has routes.
func (r *Report) classesHTML() (htmlClasses, error) {
	h := htmlClasses{Table: r.classTable()}
	if len(h.Table.Rows) == 0 {
		return h, nil
	}
	pngs, err := r.classCharts()
	if err != nil {
		return h, err
	}
	for i, png := range pngs {
		h.Tags = append(h.Tags, runTag(i))
		src := ""
		if png != nil {
			src = dataURI(png)
		}
		h.Charts = append(h.Charts, src)
	}
	return h, nil
}

// writeClassesHTML writes the per-class section, if any run has routes.
func writeClassesHTML(b *bytes.Buffer, h htmlClasses) {
	if len(h.Table.Rows) == 0 {
		return
	}
	b.WriteString("<h2 id=\"classes\">Classes</h2>\n<div class=\"scroll\">")
	htmlTable(b, h.Table)
	b.WriteString("</div>\n<p class=\"note\">")
	htmlText(b, classNote)
	b.WriteString("</p>\n")
	for i, src := range h.Charts {
		if src == "" {
			continue
		}
		b.WriteString("<img alt=\"")
		htmlText(b, h.Tags[i])
		b.WriteString(": waits by class\" src=\"")
		htmlURL(b, src)
		b.WriteString("\">\n")
	}
}

// writeClassCharts writes the waits-by-class charts of a Markdown report
// into dir/chartDir and keeps their sources for classesMarkdown.
func (r *Report) writeClassCharts(dir, chartDir string) error {
	r.classImages = nil
	if len(r.classTable().Rows) == 0 {
		return nil
	}
	pngs, err := r.classCharts()
	if err != nil {
		return err
	}
	r.classImages = make([]string, len(pngs))
	for i, png := range pngs {
		if png == nil {
			continue
		}
		name := fmt.Sprintf("run-%d-classes.png", i+1)
		if err := os.WriteFile(filepath.Join(dir, chartDir, name), png, 0o644); err != nil {
			return fmt.Errorf("report: writing a chart: %w", err)
		}
		r.classImages[i] = chartDir + "/" + name
	}
	return nil
}

// classesMarkdown writes the per-class section of a Markdown report.
func (r *Report) classesMarkdown(w io.Writer) {
	t := r.classTable()
	if len(t.Rows) == 0 {
		return
	}
	fmt.Fprintf(w, "## Classes\n\n")
	mdTable(w, t)
	fmt.Fprintf(w, "%s\n\n", classNote)
	for i, src := range r.classImages {
		if src != "" {
			fmt.Fprintf(w, "![%s: waits by class](%s)\n\n", runTag(i), src)
		}
	}
}
