package report

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"unicode"

	"github.com/drill-dev/drill/internal/format"
)

// chartDirName is the directory beside a Markdown report that holds its
// chart images, named after the file: "report.md" → "report-charts".
func chartDirName(path string) string {
	return strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)) + "-charts"
}

// WriteMarkdown writes the report as Markdown to path, with its chart
// images as PNG files in a directory beside it named after the file
// ("report.md" → "report-charts/"), linked relatively so the Markdown
// renders with its images wherever the two are copied together.
func (r *Report) WriteMarkdown(path string) error {
	chartDir := chartDirName(path)
	if err := os.MkdirAll(filepath.Join(filepath.Dir(path), chartDir), 0o755); err != nil {
		return fmt.Errorf("report: creating the chart directory: %w", err)
	}
	images := make([]runImages, len(r.Runs))
	sc := scalesOf(r.Runs)
	charts, err := r.renderRunCharts(sc)
	if err != nil {
		return err
	}
	for i, c := range charts {
		names := [4]string{
			fmt.Sprintf("run-%d-emails.png", i+1),
			fmt.Sprintf("run-%d-calls.png", i+1),
			fmt.Sprintf("run-%d-waits.png", i+1),
			fmt.Sprintf("run-%d-small.png", i+1),
		}
		var links [4]string
		for k, data := range [4][]byte{c.Emails, c.Attempts, c.Waits, c.Small} {
			if data == nil {
				continue // no chart (a run without emails)
			}
			if err := os.WriteFile(filepath.Join(filepath.Dir(path), chartDir, names[k]), data, 0o644); err != nil {
				return fmt.Errorf("report: writing a chart: %w", err)
			}
			links[k] = chartDir + "/" + names[k]
		}
		images[i] = runImages{Emails: links[0], Attempts: links[1], Waits: links[2], Small: links[3]}
	}
	var tradeOff []string
	if r.TradeOff != nil {
		charts, err := r.TradeOff.RenderTradeOff(r.DPI)
		if err != nil {
			return err
		}
		for i, c := range charts {
			name := fmt.Sprintf("tradeoff-%d.png", i+1)
			if err := os.WriteFile(filepath.Join(filepath.Dir(path), chartDir, name), c.PNG, 0o644); err != nil {
				return fmt.Errorf("report: writing a chart: %w", err)
			}
			tradeOff = append(tradeOff, chartDir+"/"+name)
		}
	}
	r.tradeOffImages = tradeOff
	if err := r.writeClassCharts(filepath.Dir(path), chartDir); err != nil {
		return err
	}
	var buf bytes.Buffer
	r.markdown(&buf, images)
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("report: writing %s: %w", path, err)
	}
	return nil
}

// runImages are where one run's charts are, as image sources.
type runImages struct {
	Emails, Attempts, Waits, Small string
}

// markdown writes the report's text, linking charts at images.
func (r *Report) markdown(w io.Writer, images []runImages) {
	fmt.Fprintf(w, "# Drill report\n\n")
	fmt.Fprintf(w, "%s:", format.Plural(len(r.Runs), "run"))
	for i, run := range r.Runs {
		fmt.Fprintf(w, " %s `%s`", runTag(i), run.Path)
		if i < len(r.Runs)-1 {
			fmt.Fprint(w, ",")
		}
	}
	fmt.Fprint(w, ".\n\n")

	fmt.Fprintf(w, "Contents: [Overview](#overview) · [Paired comparisons](#paired-comparisons) · [What differs between the runs](#what-differs-between-the-runs)")
	for i, run := range r.Runs {
		fmt.Fprintf(w, " · [%s](#%s)", runTag(i), mdAnchor(runTag(i)+": "+run.Label()))
	}
	fmt.Fprint(w, "\n\n")

	fmt.Fprintf(w, "## Overview\n\n")
	if h := r.hypothesesTable(); len(h.Rows) > 0 {
		mdTable(w, h)
	} else {
		fmt.Fprintf(w, "No hypotheses were given; `drill report --expect 'served.error == 0'` judges one on every run (PASS or FAIL).\n\n")
	}
	mdTable(w, r.runsTable())
	fmt.Fprintf(w, "Served counts cover the emails answered (emails rejected by the worker pool or cut off by the run's end are counted apart in Status, not in error); all 4 right is over the emails answered, with a Wilson 95%% interval. "+
		"Typical wait is the median wait of emails sent during the outage. Calls are HTTP requests to a model, SDK retries included. Breaker first open is measured from the start of the outage (an injected one, or the broken model's observed failure window, marked (observed)), "+
		"primary back after from its end.\n\n")
	fmt.Fprintf(w, "All runs, email by email, on one time axis (blue primary, orange backup, grey canned, red error; outage shaded grey, breaker open red):\n\n")
	for i := range r.Runs {
		if images[i].Small != "" {
			fmt.Fprintf(w, "![%s: email by email](%s) ", runTag(i), images[i].Small)
		}
	}
	fmt.Fprint(w, "\n\n")
	if note := r.chartsCapNote(); note != "" {
		fmt.Fprintf(w, "%s\n\n", note)
	}

	if c := r.costTable(); len(c.Rows) > 0 {
		fmt.Fprintf(w, "## Tokens and cost\n\n")
		mdTable(w, c)
		fmt.Fprintf(w, "%s\n\n", costNote)
	}

	r.classesMarkdown(w)

	r.markdownTradeOff(w, r.tradeOffImages)

	r.fleetMarkdown(w)

	fmt.Fprintf(w, "## Paired comparisons\n\n%s\n\n", r.pairsIntro())
	if len(r.Pairs) > 0 {
		mdTable(w, r.pairsTable())
		fmt.Fprintf(w, "%s\n\n", pValueNote)
	}

	fmt.Fprintf(w, "## What differs between the runs\n\n%s\n\n", r.diffIntro())
	if len(r.Diffs) > 0 {
		mdTable(w, r.diffTable())
	}

	for i, run := range r.Runs {
		fmt.Fprintf(w, "## %s: %s\n\n", runTag(i), mdEscape(run.Label()))
		for _, f := range runFacts(run) {
			fmt.Fprintf(w, "- %s\n", mdEscape(f))
		}
		fmt.Fprintln(w)
		if images[i].Emails != "" {
			fmt.Fprintf(w, "Email by email: each row one email, a bar from sent to answered coloured by who served it (blue primary, orange backup, grey canned, red error); the outage is shaded grey and the breaker's open periods red. Every run's charts share their scales.\n\n")
			fmt.Fprintf(w, "![%s: email by email](%s)\n\n", runTag(i), images[i].Emails)
		}
		if images[i].Attempts != "" {
			fmt.Fprintf(w, "![%s: calls per second to each model](%s)\n\n", runTag(i), images[i].Attempts)
			fmt.Fprintf(w, "![%s: histogram of waits](%s)\n\n", runTag(i), images[i].Waits)
		}
	}
}

// mdAnchor is the anchor GitHub gives a heading.
func mdAnchor(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// mdEscape escapes the characters that would break a Markdown table cell or
// start unwanted formatting.
func mdEscape(s string) string {
	s = strings.NewReplacer("|", `\|`, "*", `\*`, "_", `\_`, "`", "\\`", "\n", " ").Replace(s)
	return tagStart.ReplaceAllString(s, `\<$1`)
}

// tagStart matches a '<' that could open an HTML tag or an autolink (a
// letter, '/', '!' or '?' follows); any other '<', as in "< 0.001", is
// plain text in Markdown and is written as it is.
var tagStart = regexp.MustCompile(`<([A-Za-z/!?])`)

func mdTable(w io.Writer, t table) {
	row := func(cells []string) {
		fmt.Fprint(w, "|")
		for _, c := range cells {
			fmt.Fprintf(w, " %s |", mdEscape(c))
		}
		fmt.Fprintln(w)
	}
	row(t.Head)
	fmt.Fprint(w, "|")
	for range t.Head {
		fmt.Fprint(w, " --- |")
	}
	fmt.Fprintln(w)
	for _, r := range t.Rows {
		row(r)
	}
	fmt.Fprintln(w)
}
