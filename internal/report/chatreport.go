package report

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/scoring"
)

// chatStopsTable is why a run's conversations ended: a row per check or
// limit (the fold's Stops) with how many it answered, handed over, left
// silent and the run's end cut off.
func chatStopsTable(s scoring.ChatSummary) plain.Table {
	t := plain.Table{Head: []string{"ended by", "reason", "answered", "handed over", "silent", "cut off"}}
	for _, st := range s.Stops {
		reason := st.Reason
		if reason == "" {
			reason = "–"
		}
		t.Rows = append(t.Rows, []string{st.Check, reason, strconv.Itoa(st.Answered), strconv.Itoa(st.HandedOver),
			strconv.Itoa(st.Silent), strconv.Itoa(st.CutOff)})
	}
	return t
}

// chatChartAlt describes a run's chart for the image's alt text.
const chatChartAlt = "slowest conversation per 20 s of starts (seconds) and silent endings (count), the incident shaded"

// WriteChatReport writes chat runs' report to out: the comparison table,
// and per run why its conversations ended and its chart; HTML
// (self-contained, real tables) for .html, Markdown with its charts beside
// it (NAME-charts/) for .md.
func WriteChatReport(out string, runs []ChatRun, dpi int) error {
	sums := make([]scoring.ChatSummary, len(runs))
	for i, r := range runs {
		sums[i] = r.Summary
	}
	charts := make([][]byte, len(runs))
	for i, r := range runs {
		png, err := ChatChart(r, dpi)
		if err != nil {
			return err
		}
		charts[i] = png
	}
	var b bytes.Buffer
	switch strings.ToLower(filepath.Ext(out)) {
	case ".html", ".htm":
		writeChatHTML(&b, sums, runs, charts)
	case ".md", ".markdown":
		if err := writeChatMarkdown(&b, out, sums, runs, charts); err != nil {
			return err
		}
	default:
		return fmt.Errorf("%w: %s", ErrFormat, out)
	}
	if err := os.WriteFile(out, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

// writeChatHTML writes the chat report's page: each incident's comparison
// as an HTML table, then per run why its conversations ended and its chart.
func writeChatHTML(b *bytes.Buffer, sums []scoring.ChatSummary, runs []ChatRun, charts [][]byte) {
	b.WriteString(strings.Replace(htmlHead, "<title>Drill report</title>", "<title>Drill chat report</title>", 1))
	b.WriteString("<h1>Chat drills</h1>\n")
	for _, t := range chatTables(sums) {
		b.WriteString("<h2>")
		htmlText(b, t.title)
		b.WriteString("</h2>\n<div class=\"scroll\"><table>\n")
		htmlTableBody(b, t.table, nil)
		b.WriteString("</table></div>\n")
	}
	for i, r := range runs {
		b.WriteString("<h2>")
		htmlText(b, filepath.Base(r.Path))
		b.WriteString("</h2>\n<h3>Why conversations ended</h3>\n<div class=\"scroll\"><table>\n")
		htmlTableBody(b, chatStopsTable(r.Summary), nil)
		b.WriteString("</table></div>\n<img alt=\"")
		htmlText(b, chatChartAlt)
		b.WriteString("\" src=\"")
		b.WriteString(dataURI(charts[i]))
		b.WriteString("\">\n")
	}
	b.WriteString("</body>\n</html>\n")
}

// writeChatMarkdown writes the chat report as Markdown, its charts in
// NAME-charts/ beside out.
func writeChatMarkdown(b *bytes.Buffer, out string, sums []scoring.ChatSummary, runs []ChatRun, charts [][]byte) error {
	chartDir := chartDirName(out)
	dir := filepath.Join(filepath.Dir(out), chartDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	b.WriteString("# Chat drills\n\n")
	if err := ChatCompare(b, sums); err != nil {
		return err
	}
	b.WriteString("\n")
	for i, r := range runs {
		name := fmt.Sprintf("chat-%d.png", i+1)
		if err := os.WriteFile(filepath.Join(dir, name), charts[i], 0o644); err != nil {
			return fmt.Errorf("report: %w", err)
		}
		fmt.Fprintf(b, "## %s\n\n### Why conversations ended\n\n", filepath.Base(r.Path))
		if err := chatStopsTable(r.Summary).Markdown(b); err != nil {
			return err
		}
		fmt.Fprintf(b, "\n![%s](%s/%s)\n\n", chatChartAlt, chartDir, name)
	}
	return nil
}
