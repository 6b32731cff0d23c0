package report

import (
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
)

// htmlPage is the report's HTML: one self-contained file, charts inline as
// data: URIs, no script, no font or stylesheet fetched from anywhere.
var htmlPage = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Drill report</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 72em; padding: 0 1em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; font-size: 0.92em; }
th, td { border: 1px solid #ccc; padding: 0.3em 0.6em; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
tr:nth-child(even) td { background: #fafafa; }
img { max-width: 100%; height: auto; display: block; margin: 0.5em 0 1.5em; }
.note { color: #555; font-size: 0.92em; }
code { font-size: 0.95em; }
</style>
</head>
<body>
<h1>Drill report</h1>
<p>{{len .Runs}} run{{if ne (len .Runs) 1}}s{{end}}:{{range $i, $r := .Runs}}{{if $i}},{{end}} {{index $.Tags $i}} <code>{{$r.Path}}</code>{{end}}.</p>

{{if .Hyps.Rows}}<h2>Hypotheses</h2>
{{template "table" .Hyps}}{{end}}

<h2>What differs between the runs</h2>
<p>{{.DiffIntro}}</p>
{{if .Diffs.Rows}}{{template "table" .Diffs}}{{end}}

<h2>All runs</h2>
{{template "table" .Runs_}}
<p class="note">Served counts cover the emails done (emails cancelled by the run's end are in Status, not in error); all 4 right is over the emails answered, with a Wilson 95% interval.
Typical wait is the median wait of emails sent during the outage. Breaker first open is measured from the start of the outage (an injected one, or the broken model's observed failure window, marked (observed)),
primary back after from its end.</p>

{{if .Cost.Rows}}<h2>Tokens and cost</h2>
{{template "table" .Cost}}
<p class="note">{{.CostNote}}</p>{{end}}

<h2>Paired comparisons</h2>
<p>{{.PairsIntro}}</p>
{{if .Pairs.Rows}}{{template "table" .Pairs}}{{end}}

{{range .Sections}}
<h2>{{.Tag}}: {{.Label}}</h2>
<ul>{{range .Facts}}<li>{{.}}</li>{{end}}</ul>
<p class="note">Email by email: each row one email, a bar from sent to answered coloured by who served it (blue primary, orange backup, grey canned, red error); the outage is shaded grey and the breaker's open periods red.</p>
<img alt="{{.Tag}}: email by email" src="{{.Emails}}">
<img alt="{{.Tag}}: attempts per second to each model" src="{{.Attempts}}">
<img alt="{{.Tag}}: histogram of waits" src="{{.Waits}}">
{{end}}
</body>
</html>
{{define "table"}}<table>
<thead><tr>{{range .Head}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>{{range .Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</tbody>
</table>{{end}}
`))

type htmlSection struct {
	Tag, Label              string
	Facts                   []string
	Emails, Attempts, Waits template.URL
}

// WriteHTML writes the report as one self-contained HTML page: the charts
// are PNG images inlined as data: URIs, so it opens with no network.
func (r *Report) WriteHTML(w io.Writer) error {
	data := struct {
		Runs                  []*Run
		Tags                  []string
		DiffIntro, PairsIntro string
		Hyps, Diffs, Runs_    table
		Pairs                 table
		Sections              []htmlSection
		Cost                  table
		CostNote              string
	}{
		Runs: r.Runs, DiffIntro: r.diffIntro(), PairsIntro: r.pairsIntro(), Hyps: r.hypothesesTable(),
		Diffs: r.diffTable(), Runs_: r.runsTable(), Pairs: r.pairsTable(), Cost: r.costTable(), CostNote: costNote,
	}
	for i, run := range r.Runs {
		data.Tags = append(data.Tags, runTag(i))
		c, err := RenderCharts(run, r.DPI)
		if err != nil {
			return err
		}
		data.Sections = append(data.Sections, htmlSection{
			Tag: runTag(i), Label: run.Label(), Facts: runFacts(run),
			Emails: dataURI(c.Emails), Attempts: dataURI(c.Attempts), Waits: dataURI(c.Waits),
		})
	}
	if err := htmlPage.Execute(w, data); err != nil {
		return fmt.Errorf("report: writing HTML: %w", err)
	}
	return nil
}

// dataURI inlines a PNG image.
func dataURI(png []byte) template.URL {
	return template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(png))
}
