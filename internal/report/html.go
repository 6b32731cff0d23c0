package report

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
)

// htmlSection is one run's section: its facts and its charts as data: URIs.
type htmlSection struct {
	Tag, Label                     string
	Facts                          []string
	Emails, Attempts, Waits, Small string
}

// htmlTradeOff is the trade-off section of a sweep's report.
type htmlTradeOff struct {
	Intro  string
	Charts []htmlChart
	Front  table
}

// htmlChart is one trade-off chart, its image a data: URI.
type htmlChart struct {
	Scenario string
	Src      string
}

// htmlData is what the HTML page shows, every chart rendered.
type htmlData struct {
	Runs                         []*Run
	Tags                         []string
	DiffIntro, PairsIntro, PNote string
	Hyps, Diffs, Runs_, Pairs    table
	Sections                     []htmlSection
	TradeOff                     *htmlTradeOff
	Cost                         table
	CostNote                     string
	Classes                      htmlClasses
	// ChartsNote says which runs have no charts (chartsCapNote); "" when
	// every run has them.
	ChartsNote string
}

// WriteHTML writes the report as one self-contained HTML page: the charts
// are PNG images inlined as data: URIs, so it opens with no network.
func (r *Report) WriteHTML(w io.Writer) error {
	data, err := r.htmlData()
	if err != nil {
		return err
	}
	var page bytes.Buffer
	writeHTMLPage(&page, data)
	if _, err := w.Write(page.Bytes()); err != nil {
		return fmt.Errorf("report: writing HTML: %w", err)
	}
	return nil
}

// htmlData renders the charts and gathers the tables of the HTML page.
func (r *Report) htmlData() (*htmlData, error) {
	data := &htmlData{
		Runs: r.Runs, DiffIntro: r.diffIntro(), PairsIntro: r.pairsIntro(), PNote: pValueNote,
		Hyps: r.hypothesesTable(), Diffs: r.diffTable(), Runs_: r.runsTable(), Pairs: r.pairsTable(),
		Cost: r.costTable(), CostNote: costNote,
	}
	var err error
	if data.Classes, err = r.classesHTML(); err != nil {
		return nil, err
	}
	if r.TradeOff != nil {
		charts, err := r.TradeOff.RenderTradeOff(r.DPI)
		if err != nil {
			return nil, err
		}
		data.TradeOff = &htmlTradeOff{Intro: r.TradeOff.tradeOffIntro(), Front: r.TradeOff.frontTable()}
		for _, c := range charts {
			data.TradeOff.Charts = append(data.TradeOff.Charts, htmlChart{Scenario: c.Scenario, Src: dataURI(c.PNG)})
		}
	}
	sc := scalesOf(r.Runs)
	data.ChartsNote = r.chartsCapNote()
	charts, err := r.renderRunCharts(sc)
	if err != nil {
		return nil, err
	}
	for i, run := range r.Runs {
		data.Tags = append(data.Tags, runTag(i))
		s := htmlSection{Tag: runTag(i), Label: run.Label(), Facts: runFacts(run)}
		if i < len(charts) {
			c := charts[i]
			s.Emails, s.Attempts, s.Waits, s.Small = dataURI(c.Emails), dataURI(c.Attempts), dataURI(c.Waits), dataURI(c.Small)
		}
		data.Sections = append(data.Sections, s)
	}
	return data, nil
}

// dataURI inlines a PNG image.
func dataURI(png []byte) string {
	if png == nil {
		return "" // no chart
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(png)
}
