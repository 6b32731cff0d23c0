package report

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"

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
