package chat

import (
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/inject"
)

// TestFallbackRetryDrawsItsOwnFault: a stream the stream-rate check aborts
// is retried on the fallback, and each retry is an attempt of its own with
// its own draw. With the fallback slow on 30 % of its attempts, a retry
// after a slow fallback stream is slow about as often; every one was, as
// each stream's attempts were numbered from zero and drew the same fault.
func TestFallbackRetryDrawsItsOwnFault(t *testing.T) {
	cfg := fakeConfig(200, PresetDefaults, IncidentNone)
	cfg.Policy = cfg.Policy.WithStreamCheck()
	cfg.Profile.Primary.Normal = Rates{Slow: 1}
	cfg.Profile.Fallback.Normal = Rates{Slow: 0.3}
	_, events := runChat(t, cfg)
	type key struct{ conv, turn int }
	streams := map[key][]string{}
	for _, e := range events {
		if e.Kind == event.ModelCall {
			k := key{e.Chat.Conversation, e.Chat.Turn}
			streams[k] = append(streams[k], e.Rung+":"+e.Chat.Step)
		}
	}
	after, again := 0, 0
	for _, s := range streams {
		for i := 1; i+1 < len(s); i++ {
			if s[i] == "fallback:aborted" {
				after++
				if s[i+1] == "fallback:aborted" {
					again++
				}
			}
		}
	}
	if after < 20 || float64(again) > 0.6*float64(after) {
		t.Errorf("of %d fallback retries after an aborted fallback stream, %d were aborted again; want about 30 %%", after, again)
	}
}

// TestToolFailureRetryIsNoLoop: the agent calling a tool again after the
// service failed is no model stuck in a loop: with no loop fault drawn, no
// attempt is given one. A retry once marked the model stuck, and the loop
// fault then played on every later turn up to the turn limit.
func TestToolFailureRetryIsNoLoop(t *testing.T) {
	cfg := fakeConfig(150, PresetDefaults, IncidentNone)
	cfg.Profile.Primary.Normal, cfg.Profile.Fallback.Normal = Rates{}, Rates{}
	busy, err := inject.ParseFault("busy", nil)
	if err != nil {
		t.Fatal(err)
	}
	busy.From, busy.To = 0, time.Hour
	cfg.ToolOutages = map[string][]event.Window{"orders": {busy}}
	cfg.Tools = nil // the built-in services, where the outage plays
	sum, events := runChat(t, cfg)
	for _, e := range events {
		if e.Kind == event.ModelAttempt && e.Fault == ClassLoop {
			t.Fatalf("conversation %d turn %d: a loop fault no draw gave (after a tool failure)", e.Chat.Conversation, e.Chat.Turn)
		}
	}
	if sum.TurnLimit > 0 {
		t.Errorf("%d conversations reached the turn limit with no loop fault drawn", sum.TurnLimit)
	}
}

// TestMalformedFaultOnlyWhereItBroke: the malformed fault breaks tool-call
// arguments; drawn for a reply without tool calls (the interpretation, the
// answer) it changes nothing, and the attempt is not logged as its.
func TestMalformedFaultOnlyWhereItBroke(t *testing.T) {
	cfg := fakeConfig(30, PresetDefaults, IncidentNone)
	cfg.Profile.Primary.Normal, cfg.Profile.Fallback.Normal = Rates{Malformed: 1}, Rates{}
	_, events := runChat(t, cfg)
	broke := 0
	for _, e := range events {
		if e.Kind != event.ModelAttempt || e.Fault != ClassMalformed {
			continue
		}
		if e.Chat.Step != event.StepMalformed {
			t.Fatalf("conversation %d turn %d: fault malformed on a %s reply", e.Chat.Conversation, e.Chat.Turn, e.Chat.Step)
		}
		broke++
	}
	if broke == 0 {
		t.Error("no attempt was broken by the malformed fault")
	}
}
