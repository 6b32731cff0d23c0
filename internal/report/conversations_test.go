package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/chat"
	"github.com/drill-dev/drill/internal/predict"
	"github.com/drill-dev/drill/scoring"
)

func chatRunForReport() ChatRun {
	s := time.Second
	return ChatRun{Path: "runs/01-chat.jsonl",
		Summary: scoring.ChatSummary{Policy: "agent-defaults", Incident: "mixed", Seed: 1, Clock: "virtual", Conversations: 3,
			Answered: 2, Silent: 1, TimeP99S: 203.6, TokensBilled: 1_390_000, BreakerOpens: map[string]int{"primary": 3}},
		Rows: []scoring.ConversationRow{{ID: 1, Start: 0, Time: 6 * s, Ending: event.EndingAnswered},
			{ID: 2, Start: 25 * s, Time: 203 * s, Ending: event.EndingSilent, Reason: event.StopTurnLimit},
			{ID: 3, Start: 26 * s, Time: 9 * s, Ending: event.EndingAnswered}}}
}

func TestChatCompareTable(t *testing.T) {
	a := chatRunForReport().Summary
	b := a
	b.Seed, b.Answered, b.BreakerOpens = 2, 3, map[string]int{"primary": 5}
	var out bytes.Buffer
	if err := ChatCompare(&out, []scoring.ChatSummary{a, b}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"seeds 1, 2 (low – high)", "| answered | 2 – 3 |", "| time p99 | 203.6 s |", "| tokens billed | 1.39 M |", "| breaker opens: primary | 3 – 5 |"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, out.String())
		}
	}
}

func TestChatReportWritesTheChart(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "r.md")
	if err := WriteChatReport(out, []ChatRun{chatRunForReport()}, 50); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	png, err := os.ReadFile(filepath.Join(dir, "r-charts", "chat-1.png"))
	if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Fatalf("chart: %v", err)
	}
	if !strings.Contains(string(md), "](r-charts/chat-1.png)") || !strings.Contains(string(md), "| silent (no answer, nobody told) | 1 |") {
		t.Errorf("report:\n%s", md)
	}
	if err := WriteChatReport(filepath.Join(dir, "r.txt"), nil, 50); err == nil {
		t.Error("a .txt report is not refused")
	}
}

func TestChatPredictionTable(t *testing.T) {
	p, _ := chat.Preset(chat.PresetDefaults)
	intro, table := ChatPrediction(p.Name, predict.Chat(p, predict.DefaultChatInputs()))
	var out bytes.Buffer
	if err := table.Markdown(&out); err != nil {
		t.Fatal(err)
	}
	if len(intro) != 2 || !strings.Contains(out.String(), "| silent | 600.0 s | 1801.5 s | 1801.5 s | read timeout") {
		t.Errorf("prediction:\n%s\n%s", strings.Join(intro, "\n"), out.String())
	}
}

// TestChatTraceNamesARefusal: a handover after a tool breaker refused a
// dependency names it beside the reason.
func TestChatTraceNamesARefusal(t *testing.T) {
	var b strings.Builder
	tr := scoring.ChatTrace{Conversation: scoring.ConversationRow{ID: 533, Ending: event.EndingHandedOver, Reason: event.StopEscalated},
		Handover: &event.HandoverState{Reason: event.StopEscalated, Refused: []string{"carrier"}, Attempted: []string{"get_order(…)"}}}
	if err := ChatTrace(&b, tr); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "handed over (model escalated; refused by its breaker: carrier)") {
		t.Errorf("trace:\n%s\nwant the handover to name the carrier's refusal", b.String())
	}
}
