package report

import (
	"html/template"
	"io"
)

// htmlTemplate is the html/template page writeHTMLPage replaced, kept in
// the tests only (a template in the binary would disable the linker's
// dead-method elimination): the hand-written page must match it byte for
// byte.
// htmlPage is the report's HTML: one self-contained file, charts inline as
// data: URIs, no script, no font or stylesheet fetched from anywhere. The
// overview comes first and fits one screen: the hypotheses, the runs
// table, and every run's email-by-email chart on one time axis.
var htmlTemplate = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Drill report</title>
<style>
body { font-family: system-ui, sans-serif; margin: 0; padding: 0.5em 2vw 2em; color: #222; line-height: 1.4; }
h1 { margin: 0.3em 0; }
h2 { margin-top: 1.6em; border-bottom: 1px solid #ddd; }
nav ol { margin: 0.3em 0; padding-left: 1.4em; columns: 16em; }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; margin: 0.6em 0; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.5em; text-align: left; vertical-align: top; }
td { white-space: nowrap; }
th { background: #f3f3f3; font-weight: 600; }
tr:nth-child(even) td { background: #fafafa; }
td.pass { color: #1a7f37; } td.fail { color: #c62828; font-weight: 600; }
img { max-width: 100%; height: auto; display: block; margin: 0.4em 0 1em; }
.multiples { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 19em), 1fr)); gap: 0.3em 1em; }
.multiples img { margin: 0; }
.legend span { display: inline-block; margin-right: 1.2em; white-space: nowrap; }
.legend i { display: inline-block; width: 0.9em; height: 0.9em; vertical-align: -0.1em; margin-right: 0.3em; }
.note { color: #555; font-size: 0.9em; max-width: 60em; }
code { font-size: 0.95em; }
</style>
</head>
<body>
<h1>Drill report</h1>
<p>{{len .Runs}} run{{if ne (len .Runs) 1}}s{{end}}:{{range $i, $r := .Runs}}{{if $i}},{{end}} {{index $.Tags $i}} <code>{{$r.Path}}</code>{{end}}.</p>
<nav><strong>Contents</strong><ol>
<li><a href="#overview">Overview</a></li>
{{if .TradeOff}}<li><a href="#tradeoff">Trade-off</a></li>
{{end}}<li><a href="#pairs">Paired comparisons</a></li>
<li><a href="#differs">What differs between the runs</a></li>
{{range .Sections}}<li><a href="#{{.Tag}}">{{.Tag}}: {{.Label}}</a></li>
{{end}}</ol></nav>

<h2 id="overview">Overview</h2>
{{if .Hyps.Rows}}<div class="scroll"><table>
<thead><tr>{{range .Hyps.Head}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>{{range .Hyps.Rows}}<tr>{{range $k, $c := .}}{{if $k}}<td class="{{if eq (slice $c 0 4) "PASS"}}pass{{else}}fail{{end}}">{{$c}}</td>{{else}}<td>{{$c}}</td>{{end}}{{end}}</tr>
{{end}}</tbody></table></div>
{{else}}<p class="note">No hypotheses were given; <code>drill report --expect 'served.error == 0'</code> judges one on every run (PASS or FAIL).</p>{{end}}
<div class="scroll">{{template "table" .Runs_}}</div>
<p class="note">Served counts cover the emails answered (emails rejected by the worker pool or cut off by the run's end are counted apart in Status, not in error); all 4 right is over the emails answered, with a Wilson 95% interval.
Typical wait is the median wait of emails sent during the outage. Calls are HTTP requests to a model, SDK retries included. Breaker first open is measured from the start of the outage (an injected one, or the broken model's observed failure window, marked (observed)),
primary back after from its end.</p>
<p class="legend"><strong>All runs, email by email</strong> (one time axis): <span><i style="background:#1f77b4"></i>primary</span><span><i style="background:#ff7f0e"></i>backup</span><span><i style="background:#7f7f7f"></i>canned</span><span><i style="background:#d62728"></i>error</span><span><i style="background:#d0d0d0"></i>outage</span><span><i style="background:#f2bcbc"></i>breaker open</span></p>
<div class="multiples">{{range .Sections}}<a href="#{{.Tag}}"><img alt="{{.Tag}}: email by email, small" src="{{.Small}}"></a>
{{end}}</div>

{{with .TradeOff}}<h2 id="tradeoff">Trade-off</h2>
<p>{{.Intro}}</p>
{{range .Charts}}<img alt="trade-off, {{.Scenario}} outage" src="{{.Src}}">
{{end}}<h3>The front</h3>
<div class="scroll">{{template "table" .Front}}</div>{{end}}

{{if .Cost.Rows}}<h2 id="cost">Tokens and cost</h2>
<div class="scroll">{{template "table" .Cost}}</div>
<p class="note">{{.CostNote}}</p>{{end}}

<h2 id="pairs">Paired comparisons</h2>
<p>{{.PairsIntro}}</p>
{{if .Pairs.Rows}}<div class="scroll">{{template "table" .Pairs}}</div>
<p class="note">{{.PNote}}</p>{{end}}

<h2 id="differs">What differs between the runs</h2>
<p>{{.DiffIntro}}</p>
{{if .Diffs.Rows}}<div class="scroll">{{template "table" .Diffs}}</div>{{end}}

{{range .Sections}}
<h2 id="{{.Tag}}">{{.Tag}}: {{.Label}}</h2>
<ul>{{range .Facts}}<li>{{.}}</li>{{end}}</ul>
<p class="note">Email by email: each row one email, a bar from sent to answered coloured by who served it (blue primary, orange backup, grey canned, red error); the outage is shaded grey and the breaker's open periods red. Every run's charts share their scales.</p>
<img alt="{{.Tag}}: email by email" src="{{.Emails}}">
<img alt="{{.Tag}}: calls per second to each model" src="{{.Attempts}}">
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

// WriteHTMLWithTemplate writes r's page through htmlTemplate.
func WriteHTMLWithTemplate(r *Report, w io.Writer) error {
	d, err := r.htmlData()
	if err != nil {
		return err
	}
	type section struct {
		Tag, Label                     string
		Facts                          []string
		Emails, Attempts, Waits, Small template.URL
	}
	type chart struct {
		Scenario string
		Src      template.URL
	}
	type tradeOff struct {
		Intro  string
		Charts []chart
		Front  table
	}
	data := struct {
		Runs                         []*Run
		Tags                         []string
		DiffIntro, PairsIntro, PNote string
		Hyps, Diffs, Runs_, Pairs    table
		Sections                     []section
		TradeOff                     *tradeOff
		Cost                         table
		CostNote                     string
	}{
		Runs: d.Runs, Tags: d.Tags, DiffIntro: d.DiffIntro, PairsIntro: d.PairsIntro, PNote: d.PNote,
		Hyps: d.Hyps, Diffs: d.Diffs, Runs_: d.Runs_, Pairs: d.Pairs, Cost: d.Cost, CostNote: d.CostNote,
	}
	for _, s := range d.Sections {
		data.Sections = append(data.Sections, section{Tag: s.Tag, Label: s.Label, Facts: s.Facts,
			Emails: template.URL(s.Emails), Attempts: template.URL(s.Attempts), Waits: template.URL(s.Waits), Small: template.URL(s.Small)})
	}
	if d.TradeOff != nil {
		data.TradeOff = &tradeOff{Intro: d.TradeOff.Intro, Front: d.TradeOff.Front}
		for _, c := range d.TradeOff.Charts {
			data.TradeOff.Charts = append(data.TradeOff.Charts, chart{Scenario: c.Scenario, Src: template.URL(c.Src)})
		}
	}
	return htmlTemplate.Execute(w, data)
}
