package report

import (
	"fmt"
	"html"
	"image/color"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/internal/predict"
	"github.com/drill-dev/drill/scoring"
)

// chatFigure is one row of the chat comparison: its label and how to read
// it from a summary.
type chatFigure struct {
	label string
	value func(s scoring.ChatSummary) float64
	cell  func(v float64) string
}

func countCell(v float64) string  { return format.Count(v) }
func secsCell(v float64) string   { return format.Secs(v) }
func tokensCell(v float64) string { return format.Millions(v) }

var chatFigures = []chatFigure{
	{"answered", func(s scoring.ChatSummary) float64 { return float64(s.Answered) }, countCell},
	{"handed over", func(s scoring.ChatSummary) float64 { return float64(s.HandedOver) }, countCell},
	{"silent (no answer, nobody told)", func(s scoring.ChatSummary) float64 { return float64(s.Silent) }, countCell},
	{"cut off (the run ended first)", func(s scoring.ChatSummary) float64 { return float64(s.CutOff) }, countCell},
	{"turn-limit endings", func(s scoring.ChatSummary) float64 { return float64(s.TurnLimit) }, countCell},
	{"time p50", func(s scoring.ChatSummary) float64 { return s.TimeP50S }, secsCell},
	{"time p95", func(s scoring.ChatSummary) float64 { return s.TimeP95S }, secsCell},
	{"time p99", func(s scoring.ChatSummary) float64 { return s.TimeP99S }, secsCell},
	{"slowest", func(s scoring.ChatSummary) float64 { return s.TimeMaxS }, secsCell},
	{"over 2 minutes", func(s scoring.ChatSummary) float64 { return float64(s.Over120s) }, countCell},
	{"tokens billed", func(s scoring.ChatSummary) float64 { return float64(s.TokensBilled) }, tokensCell},
	{"model calls", func(s scoring.ChatSummary) float64 { return float64(s.ModelCalls) }, countCell},
	{"on the fallback", func(s scoring.ChatSummary) float64 { return float64(s.FallbackCalls) }, countCell},
	{"streams aborted", func(s scoring.ChatSummary) float64 { return float64(s.Aborted) }, countCell},
	{"tool calls", func(s scoring.ChatSummary) float64 { return float64(s.ToolCalls) }, countCell},
	{"tool calls refused (breaker open)", func(s scoring.ChatSummary) float64 { return float64(s.ToolsRefused) }, countCell},
	{"answered without a dependency", func(s scoring.ChatSummary) float64 { return float64(s.AnsweredWithout) }, countCell},
	{"synthetic tool probes", func(s scoring.ChatSummary) float64 { return float64(s.ToolProbes) }, countCell},
}

// chatTable is one incident's chat comparison: its title line and its
// table, a column per policy in the order first seen and a row per figure,
// then a row per breaker's openings. With several seeds a cell is the range
// across them (low – high).
type chatTable struct {
	title string
	table plain.Table
}

// chatTables are the chat comparison's tables, one per incident in the
// order first seen.
func chatTables(sums []scoring.ChatSummary) []chatTable {
	var incidents, policies []string
	var seeds []int64
	for _, s := range sums {
		if !slices.Contains(incidents, s.Incident) {
			incidents = append(incidents, s.Incident)
		}
		if !slices.Contains(policies, s.Policy) {
			policies = append(policies, s.Policy)
		}
		if !slices.Contains(seeds, s.Seed) {
			seeds = append(seeds, s.Seed)
		}
	}
	var deps []string
	for _, s := range sums {
		for d := range s.BreakerOpens {
			if !slices.Contains(deps, d) {
				deps = append(deps, d)
			}
		}
	}
	sort.Strings(deps)
	out := make([]chatTable, 0, len(incidents))
	for _, inc := range incidents {
		row := func(label string, value func(scoring.ChatSummary) float64, cell func(float64) string) []string {
			r := []string{label}
			for _, p := range policies {
				var vs []float64
				for _, s := range sums {
					if s.Incident == inc && s.Policy == p {
						vs = append(vs, value(s))
					}
				}
				switch {
				case len(vs) == 0:
					r = append(r, "–")
				case slices.Min(vs) == slices.Max(vs):
					r = append(r, cell(vs[0]))
				default:
					r = append(r, cell(slices.Min(vs))+" – "+cell(slices.Max(vs)))
				}
			}
			return r
		}
		n, clock := 0, ""
		for _, s := range sums {
			if s.Incident == inc {
				n, clock = s.Conversations, s.Clock
				break
			}
		}
		t := chatTable{
			title: fmt.Sprintf("Chat workload · incident %s · %d conversations · %s clock · %s", inc, n, clock, seedWords(seeds)),
			table: plain.Table{Head: append([]string{"figure"}, policies...)},
		}
		for _, f := range chatFigures {
			t.table.Rows = append(t.table.Rows, row(f.label, f.value, f.cell))
		}
		for _, d := range deps {
			t.table.Rows = append(t.table.Rows, row("breaker opens: "+d, func(s scoring.ChatSummary) float64 {
				return float64(s.BreakerOpens[d])
			}, countCell))
		}
		out = append(out, t)
	}
	return out
}

// WriteChatTables writes the chat comparison: each incident's title, a
// blank line and its table, written by table (aligned text or Markdown), a
// blank line between incidents.
func WriteChatTables(w io.Writer, sums []scoring.ChatSummary, table func(plain.Table) error) error {
	for k, t := range chatTables(sums) {
		sep := ""
		if k > 0 {
			sep = "\n"
		}
		if _, err := fmt.Fprintf(w, "%s%s\n\n", sep, t.title); err != nil {
			return err
		}
		if err := table(t.table); err != nil {
			return err
		}
	}
	return nil
}

// ChatCompare writes the chat comparison as Markdown (WriteChatTables).
func ChatCompare(w io.Writer, sums []scoring.ChatSummary) error {
	return WriteChatTables(w, sums, func(t plain.Table) error { return t.Markdown(w) })
}

func seedWords(seeds []int64) string {
	if len(seeds) == 1 {
		return fmt.Sprintf("seed %d", seeds[0])
	}
	parts := make([]string, len(seeds))
	for i, s := range seeds {
		parts[i] = fmt.Sprint(s)
	}
	return "seeds " + strings.Join(parts, ", ") + " (low – high)"
}

// ChatTrace writes one conversation's trace as the write-up shows
// conversation 350's: how it ended, then a line per model attempt and tool
// call with its time from the conversation's start, model or tool, and
// outcome.
func ChatTrace(w io.Writer, t scoring.ChatTrace) error {
	c := t.Conversation
	var b strings.Builder
	fmt.Fprintf(&b, "conversation %d started at %s, ended %s after %s (%d turns), %d tokens\n",
		c.ID, format.Dur(c.Start), endingWords(c), format.Dur(c.Time), c.Turns, c.Tokens)
	for _, s := range t.Steps {
		who := s.Rung
		if s.Tool != "" {
			who = "tool " + s.Tool
		}
		if who == "" {
			who = "end"
		}
		fmt.Fprintf(&b, "  %s  %-28s %s\n", format.Elapsed(s.At), who, s.Outcome)
	}
	if h := t.Handover; h != nil {
		found := slices.Sorted(maps.Keys(h.Found))
		refused := ""
		if len(h.Refused) > 0 {
			refused = "; refused by its breaker: " + strings.Join(h.Refused, ", ")
		}
		fmt.Fprintf(&b, "handed over (%s%s): found %s; attempted %s; the customer was told: %s\n",
			h.Reason, refused, strings.Join(found, ", "), strings.Join(h.Attempted, " → "), h.Told)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func endingWords(c scoring.ConversationRow) string {
	if c.Running {
		return "not (still running when the journal ends)"
	}
	if c.Reason == "" {
		return c.Ending
	}
	return c.Ending + " (" + c.Reason + ")"
}

// ChatPrediction is drill predict's chat worst cases: the lines that say
// the SDK's defaults it started from and its inputs, then a table with a
// row per provider (and whether it fits the wait asked for).
func ChatPrediction(policy string, p predict.ChatPrediction) (intro []string, t plain.Table) {
	opt := func(v *float64) string {
		if v == nil {
			return "unbounded"
		}
		return format.Secs(*v)
	}
	intro = []string{
		fmt.Sprintf("chat policy %s · %s's defaults: %d retries, request timeout %s", policy, sdkName(p.SDK), p.SDKRetries, sdkTimeout(p.SDKRequestTimeout)),
		fmt.Sprintf("worst case of one conversation (trickle %g tokens/s, answers of %d tokens unless max_tokens)", p.Inputs.TrickleTokensPerS, p.Inputs.AnswerTokens),
	}
	t.Head = []string{"provider", "attempt", "call", "conversation", "what stops it"}
	if p.Inputs.Within > 0 {
		t.Head = append(t.Head, "within "+format.Dur(p.Inputs.Within)+"?")
	}
	for _, c := range p.Cases {
		row := []string{c.Provider, opt(c.AttemptS), opt(c.CallS), opt(c.ConversationS), c.StoppedBy}
		if p.Inputs.Within > 0 {
			row = append(row, c.Within)
		}
		t.Rows = append(t.Rows, row)
	}
	return intro, t
}

// sdkName is the prediction's client library, openai-go when it names none.
func sdkName(label string) string {
	if label == "" {
		return "openai-go"
	}
	return label
}

func sdkTimeout(s float64) string {
	if s == 0 {
		return "none"
	}
	return format.Secs(s)
}

// ChatRun is one chat journal as the report shows it: its path, figures and
// conversations, all from scoring's chat fold.
type ChatRun struct {
	Path    string
	Summary scoring.ChatSummary
	Rows    []scoring.ConversationRow
}

// ReadChatRun folds a chat journal for the report.
func ReadChatRun(path string) (ChatRun, error) {
	j, err := journal.ReadFile(path)
	if err != nil {
		return ChatRun{}, err
	}
	if !scoring.IsChat(j.Events) {
		return ChatRun{}, fmt.Errorf("%s is not a chat journal", path)
	}
	f := scoring.NewChatFold(0)
	for _, e := range j.Events {
		f.Add(e)
	}
	return ChatRun{Path: path, Summary: f.Summary(), Rows: f.Rows()}, nil
}

// silentRed and slowGrey are the chat chart's colours, the simulation's.
var (
	slowGrey  = color.RGBA{R: 150, G: 150, B: 150, A: 255}
	silentRed = color.RGBA{R: 214, G: 39, B: 40, A: 255}
)

// ChatChart draws the simulation's chart of a chat run: for each 20 s of
// start times, a tall grey bar of the slowest conversation that started
// in it (seconds, up) and, under the axis, a red bar of the conversations
// starting in it that ended silent (no answer, nobody told; count, down).
func ChatChart(run ChatRun, dpi int) ([]byte, error) {
	bars := scoring.Chart(run.Rows)
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s · %s: slowest conversation per 20 s of starts (grey, s); silent endings (red, count, down)", run.Summary.Policy, run.Summary.Incident)
	p.X.Label.Text = "conversation start (s)"
	p.Y.Label.Text = "slowest (s) / silent (count, below 0)"
	slow, silent := make(plotter.Values, len(bars)), make(plotter.Values, len(bars))
	maxSlow, maxSilent := 1.0, 1.0
	for i, b := range bars {
		slow[i] = b.Slowest.Seconds()
		silent[i] = float64(b.Silent)
		maxSlow, maxSilent = max(maxSlow, slow[i]), max(maxSilent, silent[i])
	}
	// The red bars hang below the axis on a quarter of the grey bars'
	// height, one unit of them a silent ending.
	scale := maxSlow / 4 / maxSilent
	for i := range silent {
		silent[i] *= -scale
	}
	w := vg.Points(6)
	grey, err := plotter.NewBarChart(slow, w)
	if err != nil {
		return nil, fmt.Errorf("chat chart: %w", err)
	}
	grey.Color, grey.LineStyle.Width = slowGrey, 0
	red, err := plotter.NewBarChart(silent, w)
	if err != nil {
		return nil, fmt.Errorf("chat chart: %w", err)
	}
	red.Color, red.LineStyle.Width = silentRed, 0
	p.Add(grey, red)
	p.Legend.Add("slowest conversation (s)", grey)
	p.Legend.Add("silent endings (1 = "+format.Secs(scale)+" of axis)", red)
	p.X.Tick.Marker = plot.TickerFunc(func(lo, hi float64) []plot.Tick {
		var ticks []plot.Tick
		for i := 0; i <= int(hi); i += 15 {
			ticks = append(ticks, plot.Tick{Value: float64(i), Label: format.Count(float64(i) * scoring.ChartInterval.Seconds())})
		}
		return ticks
	})
	return renderPNG(p, vg.Points(900), vg.Points(300), dpi)
}

// WriteChatReport writes chat runs' report to out: the comparison table and
// each run's chart; HTML (self-contained) for .html, Markdown with its
// charts beside it (NAME-charts/) for .md.
func WriteChatReport(out string, runs []ChatRun, dpi int) error {
	sums := make([]scoring.ChatSummary, len(runs))
	for i, r := range runs {
		sums[i] = r.Summary
	}
	var table strings.Builder
	if err := ChatCompare(&table, sums); err != nil {
		return err
	}
	charts := make([][]byte, len(runs))
	for i, r := range runs {
		png, err := ChatChart(r, dpi)
		if err != nil {
			return err
		}
		charts[i] = png
	}
	var b strings.Builder
	switch strings.ToLower(filepath.Ext(out)) {
	case ".html", ".htm":
		b.WriteString("<!doctype html><html><head><meta charset=\"utf-8\"><title>drill chat report</title></head><body>\n<h1>Chat drills</h1>\n<pre>")
		b.WriteString(html.EscapeString(table.String()))
		b.WriteString("</pre>\n")
		for i, r := range runs {
			fmt.Fprintf(&b, "<h2>%s</h2>\n<img alt=\"slowest conversation per 20 s and silent endings\" src=\"%s\" style=\"max-width:100%%\">\n",
				html.EscapeString(filepath.Base(r.Path)), dataURI(charts[i]))
		}
		b.WriteString("</body></html>\n")
	case ".md", ".markdown":
		chartDir := chartDirName(out)
		dir := filepath.Join(filepath.Dir(out), chartDir)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("report: %w", err)
		}
		b.WriteString("# Chat drills\n\n" + table.String() + "\n")
		for i, r := range runs {
			name := fmt.Sprintf("chat-%d.png", i+1)
			if err := os.WriteFile(filepath.Join(dir, name), charts[i], 0o644); err != nil {
				return fmt.Errorf("report: %w", err)
			}
			fmt.Fprintf(&b, "## %s\n\n![slowest conversation per 20 s and silent endings](%s/%s)\n\n", filepath.Base(r.Path), chartDir, name)
		}
	default:
		return fmt.Errorf("%w: %s", ErrFormat, out)
	}
	if err := os.WriteFile(out, []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}
