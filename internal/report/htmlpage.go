package report

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/drill-dev/drill/internal/format"
)

// The report's HTML is written by hand rather than through html/template:
// executing a template reaches reflect.Value.MethodByName, which makes the
// linker keep every exported method of every type in the binary (25 MB of
// drill's 70). The escaping below is html/template's for the contexts the
// page uses (text and quoted attributes; URLs in attributes), and a test
// checks the page against the template it replaced, byte for byte.

// pageCSS styles the report's pages (WriteHTML, WriteHistoryHTML).
const pageCSS = `body { font-family: system-ui, sans-serif; margin: 0; padding: 0.5em 2vw 2em; color: #222; line-height: 1.4; }
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
`

// htmlHead is the page up to its body's first line: one self-contained
// file, no script, no font or stylesheet fetched from anywhere.
const htmlHead = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Drill report</title>
<style>
` + pageCSS + `</style>
</head>
<body>
`

// htmlRunsNote explains the runs table; htmlLegend is the overview
// charts' legend.
const htmlRunsNote = `<p class="note">Served counts cover the emails answered (emails rejected by the worker pool or cut off by the run's end are counted apart in Status, not in error); all 4 right is over the emails answered, with a Wilson 95% interval.
Typical wait is the median wait of emails sent during the outage. Calls are HTTP requests to a model, SDK retries included. Breaker first open is measured from the start of the outage (an injected one, or the broken model's observed failure window, marked (observed)),
primary back after from its end.</p>
<p class="legend"><strong>All runs, email by email</strong> (one time axis): <span><i style="background:#1f77b4"></i>primary</span><span><i style="background:#ff7f0e"></i>backup</span><span><i style="background:#7f7f7f"></i>canned</span><span><i style="background:#d62728"></i>error</span><span><i style="background:#d0d0d0"></i>outage</span><span><i style="background:#f2bcbc"></i>breaker open</span></p>
`

// htmlNoHypotheses stands in the overview when no hypothesis was given.
const htmlNoHypotheses = `<p class="note">No hypotheses were given; <code>drill report --expect 'served.error == 0'</code> judges one on every run (PASS or FAIL).</p>`

// htmlEmailsNote explains a run's email-by-email chart.
const htmlEmailsNote = `<p class="note">Email by email: each row one email, a bar from sent to answered coloured by who served it (blue primary, orange backup, grey canned, red error); the outage is shaded grey and the breaker's open periods red. Every run's charts share their scales.</p>
`

// writeHTMLPage writes the report's page. The overview comes first and
// fits one screen: the hypotheses, the runs table, and every run's
// email-by-email chart on one time axis.
func writeHTMLPage(b *bytes.Buffer, d *htmlData) {
	writeHTMLContents(b, d)
	writeHTMLOverview(b, d)
	writeHTMLTradeOff(b, d)
	writeHTMLComparisons(b, d)
	writeHTMLRunSections(b, d)
	b.WriteString("\n</body>\n</html>\n\n")
}

// writeHTMLContents writes the page's head, the list of runs and the
// table of contents.
func writeHTMLContents(b *bytes.Buffer, d *htmlData) {
	b.WriteString(htmlHead)
	b.WriteString("<h1>Drill report</h1>\n<p>")
	b.WriteString(format.Plural(len(d.Runs), "run") + ":")
	for i, r := range d.Runs {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(" ")
		htmlText(b, d.Tags[i])
		b.WriteString(" <code>")
		htmlText(b, r.Path)
		b.WriteString("</code>")
	}
	b.WriteString(".</p>\n<nav><strong>Contents</strong><ol>\n<li><a href=\"#overview\">Overview</a></li>\n")
	if d.TradeOff != nil {
		b.WriteString("<li><a href=\"#tradeoff\">Trade-off</a></li>\n")
	}
	b.WriteString("<li><a href=\"#pairs\">Paired comparisons</a></li>\n<li><a href=\"#differs\">What differs between the runs</a></li>\n")
	for _, s := range d.Sections {
		b.WriteString("<li><a href=\"#")
		htmlFragment(b, s.Tag)
		b.WriteString("\">")
		htmlText(b, s.Tag)
		b.WriteString(": ")
		htmlText(b, s.Label)
		b.WriteString("</a></li>\n")
	}
}

// writeHTMLOverview writes the overview: the hypotheses, the runs' table
// and the small multiples.
func writeHTMLOverview(b *bytes.Buffer, d *htmlData) {
	b.WriteString("</ol></nav>\n\n<h2 id=\"overview\">Overview</h2>\n")
	if len(d.Hyps.Rows) > 0 {
		b.WriteString("<div class=\"scroll\"><table>\n")
		htmlTableBody(b, d.Hyps, func(_, col int, cell string) string {
			switch {
			case col == 0:
				return ""
			case strings.HasPrefix(cell, "PASS"):
				return "pass"
			case strings.HasPrefix(cell, "FAIL"):
				return "fail"
			}
			return "" // "—": not judged on that run
		})
		b.WriteString("</table></div>\n")
	} else {
		b.WriteString(htmlNoHypotheses)
	}
	b.WriteString("\n<div class=\"scroll\">")
	htmlTable(b, d.Runs_)
	b.WriteString("</div>\n")
	b.WriteString(htmlRunsNote)
	writeMultiplesHTML(b, d)
}

// writeHTMLTradeOff writes a sweep's trade-off charts and front, if the
// runs form one.
func writeHTMLTradeOff(b *bytes.Buffer, d *htmlData) {
	if to := d.TradeOff; to != nil {
		b.WriteString("<h2 id=\"tradeoff\">Trade-off</h2>\n<p>")
		htmlText(b, to.Intro)
		b.WriteString("</p>\n")
		for _, c := range to.Charts {
			b.WriteString("<img alt=\"trade-off, ")
			htmlText(b, c.Scenario)
			b.WriteString(" outage\" src=\"")
			htmlURL(b, c.Src)
			b.WriteString("\">\n")
		}
		b.WriteString("<h3>The front</h3>\n<div class=\"scroll\">")
		htmlTable(b, to.Front)
		b.WriteString("</div>")
	}
}

// writeHTMLComparisons writes the tokens and cost, the classes, the paired
// comparisons and what differs between the runs.
func writeHTMLComparisons(b *bytes.Buffer, d *htmlData) {
	b.WriteString("\n\n")
	if len(d.Cost.Rows) > 0 {
		b.WriteString("<h2 id=\"cost\">Tokens and cost</h2>\n<div class=\"scroll\">")
		htmlTable(b, d.Cost)
		b.WriteString("</div>\n<p class=\"note\">")
		htmlText(b, d.CostNote)
		b.WriteString("</p>")
	}
	writeClassesHTML(b, d.Classes)
	b.WriteString("\n\n<h2 id=\"pairs\">Paired comparisons</h2>\n<p>")
	htmlText(b, d.PairsIntro)
	b.WriteString("</p>\n")
	if len(d.Pairs.Rows) > 0 {
		b.WriteString("<div class=\"scroll\">")
		htmlTable(b, d.Pairs)
		b.WriteString("</div>\n<p class=\"note\">")
		htmlText(b, d.PNote)
		b.WriteString("</p>")
	}
	b.WriteString("\n\n<h2 id=\"differs\">What differs between the runs</h2>\n<p>")
	htmlText(b, d.DiffIntro)
	b.WriteString("</p>\n")
	if len(d.Diffs.Rows) > 0 {
		b.WriteString("<div class=\"scroll\">")
		htmlTable(b, d.Diffs)
		b.WriteString("</div>")
	}
	b.WriteString("\n\n")
}

// writeHTMLRunSections writes each run's section: its facts and charts.
func writeHTMLRunSections(b *bytes.Buffer, d *htmlData) {
	for _, s := range d.Sections {
		b.WriteString("\n<h2 id=\"")
		htmlText(b, s.Tag)
		b.WriteString("\">")
		htmlText(b, s.Tag)
		b.WriteString(": ")
		htmlText(b, s.Label)
		b.WriteString("</h2>\n<ul>")
		for _, f := range s.Facts {
			b.WriteString("<li>")
			htmlText(b, f)
			b.WriteString("</li>")
		}
		b.WriteString("</ul>\n")
		if s.Emails != "" {
			b.WriteString(htmlEmailsNote)
		}
		for _, img := range []struct{ alt, src string }{
			{": email by email", s.Emails},
			{": calls per second to each model", s.Attempts},
			{": histogram of waits", s.Waits},
		} {
			if img.src == "" {
				continue
			}
			b.WriteString("<img alt=\"")
			htmlText(b, s.Tag)
			b.WriteString(img.alt)
			b.WriteString("\" src=\"")
			htmlURL(b, img.src)
			b.WriteString("\">\n")
		}
	}
}

// htmlTable writes one of the report's tables.
func htmlTable(b *bytes.Buffer, t table) {
	b.WriteString("<table>\n")
	htmlTableBody(b, t, nil)
	b.WriteString("\n</table>")
}

// htmlTableBody writes a table's head and rows, up to and with </tbody>:
// every table of the report's and the history's pages. class, if not nil,
// names a body cell's CSS class ("" for none) from its row, column and text.
func htmlTableBody(b *bytes.Buffer, t table, class func(row, col int, cell string) string) {
	b.WriteString("<thead><tr>")
	for _, h := range t.Head {
		b.WriteString("<th>")
		htmlText(b, h)
		b.WriteString("</th>")
	}
	b.WriteString("</tr></thead>\n<tbody>")
	for i, row := range t.Rows {
		b.WriteString("<tr>")
		for k, c := range row {
			cl := ""
			if class != nil {
				cl = class(i, k, c)
			}
			if cl != "" {
				b.WriteString(`<td class="` + cl + `">`)
			} else {
				b.WriteString("<td>")
			}
			htmlText(b, c)
			b.WriteString("</td>")
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody>")
}

// htmlText writes s escaped for HTML text or a quoted attribute, as
// html/template escapes a string there.
func htmlText(b *bytes.Buffer, s string) {
	written := 0
	for i := 0; i < len(s); i++ {
		var rep string
		switch s[i] {
		case 0:
			rep = "\uFFFD"
		case '"':
			rep = "&#34;"
		case '&':
			rep = "&amp;"
		case '\'':
			rep = "&#39;"
		case '+':
			rep = "&#43;"
		case '<':
			rep = "&lt;"
		case '>':
			rep = "&gt;"
		default:
			continue
		}
		b.WriteString(s[written:i])
		b.WriteString(rep)
		written = i + 1
	}
	b.WriteString(s[written:])
}

// htmlURL writes a URL the report made itself (a data: URI) into a quoted
// attribute: normalized (bytes a URL may not hold percent-encoded), then
// escaped for the attribute.
func htmlURL(b *bytes.Buffer, u string) { htmlText(b, urlEscape(u, true)) }

// htmlFragment writes s as a URL fragment (after "#") in a quoted
// attribute: everything but unreserved bytes percent-encoded.
func htmlFragment(b *bytes.Buffer, s string) { htmlText(b, urlEscape(s, false)) }

// urlEscape percent-encodes the bytes of s that a URL may not hold; with
// norm, RFC 3986's reserved bytes and valid escapes are kept as they are.
func urlEscape(s string, norm bool) string {
	var out strings.Builder
	written := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', strings.IndexByte("-._~", c) >= 0:
			continue
		case norm && strings.IndexByte("!#$&*+,/:;=?@[]", c) >= 0:
			continue
		case norm && c == '%' && i+2 < len(s) && isHexDigit(s[i+1]) && isHexDigit(s[i+2]):
			continue
		}
		out.WriteString(s[written:i])
		fmt.Fprintf(&out, "%%%02x", c)
		written = i + 1
	}
	if written == 0 {
		return s
	}
	out.WriteString(s[written:])
	return out.String()
}

func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// writeMultiplesHTML writes every charted run's small email-by-email chart,
// each linking to its section, and the note on runs without charts.
func writeMultiplesHTML(b *bytes.Buffer, d *htmlData) {
	b.WriteString("<div class=\"multiples\">")
	for _, s := range d.Sections {
		if s.Small == "" {
			continue // a run without emails, or past MaxChartedRuns
		}
		b.WriteString("<a href=\"#")
		htmlFragment(b, s.Tag)
		b.WriteString("\"><img alt=\"")
		htmlText(b, s.Tag)
		b.WriteString(": email by email, small\" src=\"")
		htmlURL(b, s.Small)
		b.WriteString("\"></a>\n")
	}
	b.WriteString("</div>\n\n")
	if d.ChartsNote != "" {
		b.WriteString("<p class=\"note\">")
		htmlText(b, d.ChartsNote)
		b.WriteString("</p>\n")
	}
}
