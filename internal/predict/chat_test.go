package predict

import (
	"testing"
	"time"

	"github.com/drill-dev/drill/internal/chat"
)

func TestChatWorstCases(t *testing.T) {
	def, _ := chat.Preset(chat.PresetDefaults)
	p := Chat(def, DefaultChatInputs())
	if p.SDKRetries != 2 || p.SDKRequestTimeout != 0 {
		t.Fatalf("SDK defaults %+v", p)
	}
	silent, trickle, over := p.Cases[0], p.Cases[1], p.Cases[2]
	// Three 600 s waits plus the backoff's upper bound (0.5 + 1 s).
	if *silent.CallS != 1801.5 || *silent.ConversationS != 1801.5 {
		t.Errorf("silent: %+v", silent)
	}
	// 4,096 tokens at 2 a second after the fake model's slowest headers
	// (5 s), ten turns: the write-up's 5.7 hours.
	if *trickle.CallS != 2053 || *trickle.ConversationS != 20530 {
		t.Errorf("trickling: %+v", trickle)
	}
	if *over.ConversationS != 1.5 {
		t.Errorf("overloaded: %+v", over)
	}

	all, _ := chat.Preset(chat.PresetAllChecks)
	in := DefaultChatInputs()
	in.Within = 60 * time.Second
	p = Chat(all, in)
	// Each of three streams cut 3 s after headers that came as late as 5 s.
	if c := p.Cases[1]; *c.ConversationS != 24 || c.Within != "yes" {
		t.Errorf("all checks, trickling: %+v", c)
	}
	if c := p.Cases[0]; c.Within != "read_timeout or attempt_deadline ≤ 19.5 s" {
		t.Errorf("all checks, silent: %+v: the stream check never sees a stream that never starts", c)
	}
	none := def
	none.ReadTimeout = 0
	if c := Chat(none, DefaultChatInputs()).Cases[0]; c.CallS != nil {
		t.Errorf("no read timeout: a silent provider waits forever, got %+v", c)
	}
}
