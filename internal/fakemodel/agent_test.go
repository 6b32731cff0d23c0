package fakemodel_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/tools"
)

// step is one model call of a conversation: the tool calls asked for, or
// the content.
type step struct {
	calls   []string // "name(args)"
	content string
	finish  string
	usage   openai.CompletionUsage
}

// converse runs a conversation about email e the way the chat workload
// does: the first call with tool_choice "none" (interpret), then "auto"
// until the model answers; each tool call is answered by result. It stops
// after 10 calls.
func converse(t *testing.T, c openai.Client, model string, e emails.Email, stream bool, result func(name, args string) string) []step {
	t.Helper()
	return converseWith(t, c, model, "You are the outdoor-gear shop's support agent. Use the tools to look up orders and deliveries.", e, stream, result)
}

// converseWith is converse with the given system prompt.
func converseWith(t *testing.T, c openai.Client, model, system string, e emails.Email, stream bool, result func(name, args string) string) []step {
	t.Helper()
	msgs := []openai.ChatCompletionMessageParamUnion{
		openai.SystemMessage(system),
		openai.UserMessage(e.Text()),
	}
	var steps []step
	for turn := 0; turn < 10; turn++ {
		params := openai.ChatCompletionNewParams{Model: model, Messages: msgs, Tools: tools.Definitions()}
		params.ToolChoice.OfAuto = openai.String("auto")
		if turn == 0 {
			params.ToolChoice.OfAuto = openai.String("none")
		}
		var msg openai.ChatCompletionMessage
		var st step
		if stream {
			params.StreamOptions.IncludeUsage = openai.Bool(true)
			s := c.Chat.Completions.NewStreaming(context.Background(), params)
			var acc openai.ChatCompletionAccumulator
			for s.Next() {
				acc.AddChunk(s.Current())
			}
			if err := s.Err(); err != nil {
				t.Fatalf("turn %d: %v", turn, err)
			}
			msg, st.finish, st.usage = acc.Choices[0].Message, acc.Choices[0].FinishReason, acc.Usage
		} else {
			resp, err := c.Chat.Completions.New(context.Background(), params)
			if err != nil {
				t.Fatalf("turn %d: %v", turn, err)
			}
			msg, st.finish, st.usage = resp.Choices[0].Message, resp.Choices[0].FinishReason, resp.Usage
		}
		msgs = append(msgs, msg.ToParam())
		if len(msg.ToolCalls) == 0 {
			st.content = msg.Content
			steps = append(steps, st)
			if turn > 0 {
				return steps
			}
			continue
		}
		for _, tc := range msg.ToolCalls {
			st.calls = append(st.calls, tc.Function.Name+"("+tc.Function.Arguments+")")
			msgs = append(msgs, openai.ToolMessage(result(tc.Function.Name, tc.Function.Arguments), tc.ID))
		}
		steps = append(steps, st)
	}
	return steps
}

// services answers tool calls from the in-process services.
func services(t *testing.T) func(name, args string) string {
	cl := tools.NewInProcess(emails.All(), 0, nil)
	return func(name, args string) string {
		r, err := cl.Call(context.Background(), name, args)
		if err != nil {
			t.Fatal(err)
		}
		return r.Content
	}
}

func email(t *testing.T, id int) emails.Email {
	t.Helper()
	e, ok := emails.ByID(id)
	if !ok {
		t.Fatalf("no email %d", id)
	}
	return e
}

func TestAgentFourCalls(t *testing.T) {
	for name, c := range clients(t, fakemodel.Options{NoLatency: true}) {
		for _, stream := range []bool{false, true} {
			t.Run(name+map[bool]string{false: "/whole", true: "/streamed"}[stream], func(t *testing.T) {
				steps := converse(t, c, fakemodel.ModelMini, email(t, 1), stream, services(t))
				if len(steps) != 4 {
					t.Fatalf("%d calls, want 4: %+v", len(steps), steps)
				}
				if !strings.Contains(steps[0].content, "intent return") || !strings.Contains(steps[0].content, "DR-104233") || steps[0].finish != "stop" {
					t.Errorf("interpretation %+v", steps[0])
				}
				want := [][]string{nil, {`get_order({"order_id":"DR-104233"})`}, {`get_delivery_status({"order_id":"DR-104233"})`}, nil}
				for i, w := range want {
					if strings.Join(steps[i].calls, " ") != strings.Join(w, " ") {
						t.Errorf("call %d asked for %v, want %v", i+1, steps[i].calls, w)
					}
					if w != nil && steps[i].finish != "tool_calls" {
						t.Errorf("call %d finish %q, want tool_calls", i+1, steps[i].finish)
					}
				}
				final := steps[3].content
				t.Logf("interpretation (%d tokens): %s\nfinal (%d tokens): %s", steps[0].usage.CompletionTokens, steps[0].content, steps[3].usage.CompletionTokens, final)
				t.Logf("tool calls: %d and %d completion tokens", steps[1].usage.CompletionTokens, steps[2].usage.CompletionTokens)
				if !strings.Contains(final, "Ember 5 Sleeping Bag") || !strings.Contains(final, "Delivery:") || fakemodel.IsHandover(final) {
					t.Errorf("final answer %q", final)
				}
				for i := 1; i < len(steps); i++ {
					if steps[i].usage.PromptTokens <= steps[i-1].usage.PromptTokens {
						t.Errorf("call %d prompt %d tokens, not more than call %d's %d: the history is resent", i+1, steps[i].usage.PromptTokens, i, steps[i-1].usage.PromptTokens)
					}
				}
				for i, s := range steps {
					if s.usage.CompletionTokens <= 0 || s.usage.TotalTokens != s.usage.PromptTokens+s.usage.CompletionTokens {
						t.Errorf("call %d usage %+v", i+1, s.usage)
					}
				}
			})
		}
	}
}

// callsOf lists the calls of every step, one string per step.
func callsOf(steps []step) []string {
	out := make([]string, len(steps))
	for i, s := range steps {
		out[i] = strings.Join(s.calls, " ")
	}
	return out
}

func TestAgentParallelToolCalls(t *testing.T) {
	c := clients(t, fakemodel.Options{NoLatency: true})["in-process"]
	// Email 2 asks why the tracking has not updated: the agent asks for
	// the status and the events in one turn.
	steps := converse(t, c, fakemodel.ModelMini, email(t, 2), true, services(t))
	if len(steps) != 4 {
		t.Fatalf("%d calls, want 4: %q", len(steps), callsOf(steps))
	}
	if got := steps[2].calls; len(got) != 2 || !strings.HasPrefix(got[0], "get_delivery_status(") || !strings.HasPrefix(got[1], "get_tracking_events(") {
		t.Errorf("third call asked for %q, want the status and the events", got)
	}
	if !strings.Contains(steps[3].content, "Latest tracking event") {
		t.Errorf("final answer %q does not use the events", steps[3].content)
	}

	// parallel_tool_calls false: one call per turn.
	msgs := []openai.ChatCompletionMessageParamUnion{openai.UserMessage(email(t, 2).Text())}
	params := openai.ChatCompletionNewParams{Model: fakemodel.ModelMini, Messages: msgs, Tools: tools.Definitions(), ParallelToolCalls: openai.Bool(false)}
	resp, err := c.Chat.Completions.New(context.Background(), params)
	if err != nil {
		t.Fatal(err)
	}
	msgs = append(msgs, resp.Choices[0].Message.ToParam(), openai.ToolMessage(services(t)(tools.GetOrder, `{"order_id":"DR-118402"}`), resp.Choices[0].Message.ToolCalls[0].ID))
	params.Messages = msgs
	resp, err = c.Chat.Completions.New(context.Background(), params)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(resp.Choices[0].Message.ToolCalls); n != 1 {
		t.Errorf("parallel_tool_calls false: %d calls in one turn", n)
	}
}

func TestAgentCarrierUnavailable(t *testing.T) {
	c := clients(t, fakemodel.Options{NoLatency: true})["in-process"]
	svc := services(t)
	breaker := func(name, args string) string {
		if tools.Dependency(name) == tools.Carrier {
			return tools.Unavailable(tools.Carrier)
		}
		return svc(name, args)
	}
	// Where is my order (email 4): the delivery is the question -> handover.
	steps := converse(t, c, fakemodel.ModelMini, email(t, 4), false, breaker)
	if len(steps) != 4 || !fakemodel.IsHandover(steps[3].content) {
		t.Errorf("order status without the carrier: %q, final %q; want a handover after 4 calls", callsOf(steps), steps[len(steps)-1].content)
	}
	// A return (email 1) does not need the delivery: an answer without it.
	steps = converse(t, c, fakemodel.ModelMini, email(t, 1), false, breaker)
	final := steps[len(steps)-1].content
	if len(steps) != 4 || fakemodel.IsHandover(final) || !strings.Contains(final, "without it") {
		t.Errorf("return without the carrier: %q, final %q; want an answer without the delivery", callsOf(steps), final)
	}
}

func TestAgentRetriesFailedCarrierCalls(t *testing.T) {
	c := clients(t, fakemodel.Options{NoLatency: true})["in-process"]
	svc := services(t)
	timeout := func(name, args string) string {
		if tools.Dependency(name) == tools.Carrier {
			return `{"error":"timeout","message":"get_delivery_status: context deadline exceeded"}`
		}
		return svc(name, args)
	}
	steps := converse(t, c, fakemodel.ModelMini, email(t, 4), false, timeout)
	got := callsOf(steps)
	// interpret, order, status, events (the same carrier), status, handover.
	if len(steps) != 6 || !strings.HasPrefix(got[2], "get_delivery_status") || !strings.HasPrefix(got[3], "get_tracking_events") ||
		!strings.HasPrefix(got[4], "get_delivery_status") || !fakemodel.IsHandover(steps[5].content) {
		t.Errorf("calls %q, final %q", got, steps[len(steps)-1].content)
	}
}

func TestAgentRetriesBadArguments(t *testing.T) {
	c := clients(t, fakemodel.Options{NoLatency: true})["in-process"]
	svc := services(t)
	first := true
	garbled := func(name, args string) string {
		if name == tools.GetOrder && first {
			first = false
			_, err := tools.ParseArgs(`{"order_id": "DR-1`)
			return tools.ErrorResult(err)
		}
		return svc(name, args)
	}
	steps := converse(t, c, fakemodel.ModelMini, email(t, 1), false, garbled)
	got := callsOf(steps)
	if len(steps) != 5 || got[1] != got[2] || !strings.HasPrefix(got[3], "get_delivery_status") {
		t.Errorf("calls %q: want get_order asked again after its arguments failed", got)
	}
}

func TestAgentAsksForTheOrderNumber(t *testing.T) {
	c := clients(t, fakemodel.Options{NoLatency: true})["in-process"]
	steps := converse(t, c, fakemodel.ModelMini, email(t, 19), false, services(t))
	if len(steps) != 2 || !strings.Contains(steps[0].content, "no order number") || !strings.Contains(steps[1].content, "order number") {
		t.Errorf("steps %+v: want an interpretation and a question for the order number", steps)
	}
}

func TestAgentUnknownOrder(t *testing.T) {
	c := clients(t, fakemodel.Options{NoLatency: true})["in-process"]
	e := email(t, 1)
	e.Body = strings.ReplaceAll(e.Body, "DR-104233", "DR-999999")
	steps := converse(t, c, fakemodel.ModelMini, e, false, services(t))
	if len(steps) != 3 || !strings.Contains(steps[2].content, "could not find an order") {
		t.Errorf("steps %q, final %q", callsOf(steps), steps[len(steps)-1].content)
	}
}

// TestAgentConversationInFakeTime: a whole conversation, with the model's
// latency and the services' own, runs in fake time inside a synctest
// bubble, and takes the same time on every run with the same seed.
func TestAgentConversationInFakeTime(t *testing.T) {
	took := func() time.Duration {
		var d time.Duration
		synctest.Test(t, func(t *testing.T) {
			srv := fakemodel.New(fakemodel.Options{Seed: 7})
			c := openai.NewClient(option.WithBaseURL("http://fake/v1/"), option.WithAPIKey("k"),
				option.WithHTTPClient(&http.Client{Transport: srv.Transport()}))
			cl := tools.NewInProcess(emails.All(), 200*time.Millisecond, nil)
			start := time.Now()
			steps := converse(t, c, fakemodel.ModelMini, email(t, 1), true, func(name, args string) string {
				r, err := cl.Call(t.Context(), name, args)
				if err != nil {
					t.Fatal(err)
				}
				return r.Content
			})
			d = time.Since(start)
			if len(steps) != 4 {
				t.Errorf("%d calls, want 4", len(steps))
			}
		})
		return d
	}
	first, second := took(), took()
	// Four model calls of about a second each, two lookups of 200 ms.
	if first != second || first < 2*time.Second || first > 20*time.Second {
		t.Errorf("conversation took %v then %v of fake time; want the same, a few seconds", first, second)
	}
	t.Logf("conversation: %v of fake time", first)
}

// TestAgentSDKAllowedTools: openai-go's allowed_tools tool_choice limits the
// agent to those functions.
func TestAgentSDKAllowedTools(t *testing.T) {
	for name, c := range clients(t, fakemodel.Options{NoLatency: true}) {
		t.Run(name, func(t *testing.T) {
			params := openai.ChatCompletionNewParams{Model: fakemodel.ModelNano, Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(email(t, 1).Text())},
				Tools: tools.Definitions()}
			params.ToolChoice.OfAllowedTools = &openai.ChatCompletionAllowedToolChoiceParam{AllowedTools: openai.ChatCompletionAllowedToolsParam{
				Mode:  openai.ChatCompletionAllowedToolsModeRequired,
				Tools: []map[string]any{{"type": "function", "function": map[string]any{"name": tools.GetDeliveryStatus}}},
			}}
			resp, err := c.Chat.Completions.New(context.Background(), params)
			if err != nil {
				t.Fatal(err)
			}
			if tc := resp.Choices[0].Message.ToolCalls; len(tc) != 1 || tc[0].Function.Name != tools.GetDeliveryStatus {
				t.Errorf("calls %+v, want get_delivery_status, the one allowed", tc)
			}
		})
	}
}

// policyPrompt is a support agent's system prompt with a policy in
// sections, as the chat workload's carries.
const policyPrompt = `You are the shop's support agent. Follow the policy.

RETURNS - Unused items can be returned within 30 days of delivery for a full refund. Returns are
  free: we email a prepaid label.

DELIVERY - Standard delivery takes 3 to 5 working days. A parcel with no scan for 5 working days is
  traced with the carrier.

HANDOVER - A member of the support team picks the conversation up and replies within one working day.
`

func TestAgentRepliesWithThePolicyThatApplies(t *testing.T) {
	c := clients(t, fakemodel.Options{NoLatency: true})["in-process"]
	steps := converseWith(t, c, fakemodel.ModelMini, policyPrompt, email(t, 1), true, services(t))
	if len(steps) != 4 {
		t.Fatalf("%d calls, want 4: %+v", len(steps), steps)
	}
	interp, final := steps[0], steps[3]
	if !strings.Contains(interp.content, "The policy that applies is RETURNS: Unused items can be returned within 30 days of delivery for a full refund.") {
		t.Errorf("interpretation does not name the returns policy: %q", interp.content)
	}
	for _, want := range []string{"Hi Priya,", "Ember 5 Sleeping Bag", "Delivery:", "I have started the return",
		"Unused items can be returned within 30 days of delivery for a full refund. Returns are free: we email a prepaid label.", "Kind regards,"} {
		if !strings.Contains(final.content, want) {
			t.Errorf("final answer lacks %q: %q", want, final.content)
		}
	}
	if strings.Contains(final.content, "Standard delivery") || strings.Contains(final.content, "working day.") {
		t.Errorf("final answer quotes a policy that does not apply: %q", final.content)
	}
	// A paragraph of reading, a reply of a few hundred tokens, short tool
	// calls.
	if n := interp.usage.CompletionTokens; n < 100 || n > 300 {
		t.Errorf("interpretation %d tokens, want a paragraph (100-300)", n)
	}
	if n := final.usage.CompletionTokens; n < 150 || n > 500 {
		t.Errorf("final answer %d tokens, want a support reply's few hundred (150-500)", n)
	}
	for _, s := range steps[1:3] {
		if n := s.usage.CompletionTokens; n > 40 {
			t.Errorf("tool call %v: %d tokens, want a short call", s.calls, n)
		}
	}
	if steps[3].usage.PromptTokens <= steps[0].usage.PromptTokens+interp.usage.CompletionTokens {
		t.Errorf("prompt tokens %d then %d: want the history resent", steps[0].usage.PromptTokens, steps[3].usage.PromptTokens)
	}
}

func TestAgentHandoverReplySaysWhatHappensNext(t *testing.T) {
	c := clients(t, fakemodel.Options{NoLatency: true})["in-process"]
	svc := services(t)
	down := func(name, args string) string {
		if name == tools.GetOrder {
			return svc(name, args)
		}
		return "delivery tracking is temporarily unavailable; proceed without it or escalate"
	}
	steps := converseWith(t, c, fakemodel.ModelMini, policyPrompt, email(t, 2), true, down)
	final := steps[len(steps)-1].content
	if !fakemodel.IsHandover(final) || !strings.Contains(final, "replies within one working day") || !strings.Contains(final, "Hi John,") {
		t.Errorf("handover reply %q: want the handover sentence, the policy's HANDOVER section and a greeting", final)
	}
}

func TestAgentCannotCancelWhatHasShipped(t *testing.T) {
	c := clients(t, fakemodel.Options{NoLatency: true})["in-process"]
	status := "shipped"
	result := func(name, args string) string {
		if name == tools.GetOrder {
			return `{"order_id":"DR-143310","product":"Bearproof Canister","status":"` + status + `","placed":"2026-11-10"}`
		}
		return `{"order_id":"DR-143310","carrier":"NorthPost","status":"in_transit","eta":"2026-11-15"}`
	}
	shipped := converseWith(t, c, fakemodel.ModelMini, policyPrompt, email(t, 23), true, result)
	status = "processing"
	notYet := converseWith(t, c, fakemodel.ModelMini, policyPrompt, email(t, 23), true, result)
	if got := shipped[len(shipped)-1].content; !strings.Contains(got, "already left our warehouse") {
		t.Errorf("shipped order: %q, want it said that it can no longer be stopped", got)
	}
	if got := notYet[len(notYet)-1].content; !strings.Contains(got, "asked for the order to be cancelled") {
		t.Errorf("order not shipped: %q, want the cancellation asked for", got)
	}
}

// TestAgentWritesTheLengthItsPromptAsks: a system prompt whose REPLY
// LENGTH asks about 300 tokens gets a final answer of about 300 (the
// related policy added to it), where the same prompt without it gets the
// agent's own, shorter reply.
func TestAgentWritesTheLengthItsPromptAsks(t *testing.T) {
	const related = `
REFUNDS - A refund goes back to the payment method used for the order. When an item was returned, the
  refund follows within 5 working days of it reaching our warehouse. A double charge is refunded the
  same day it is confirmed. A price drop within 14 days of delivery is refunded as the difference.
  Shipping is refunded when the mistake was ours.

EXCHANGES - An item can be exchanged for another size, colour or model within 30 days of delivery. We
  reserve the replacement as soon as the exchange is opened and ship it when the carrier first scans
  the returned item. The exchange label is free; if the new item costs more we charge the difference.

WARRANTY - Every product is covered for 2 years from delivery against defects in materials and
  workmanship; tents, packs and sleeping bags for 5 years. We repair or replace the item, or refund it
  when neither is possible, and we pay the shipping both ways.
`
	c := clients(t, fakemodel.Options{NoLatency: true})["in-process"]
	plain := converseWith(t, c, fakemodel.ModelMini, policyPrompt+related, email(t, 1), true, services(t))
	sized := converseWith(t, c, fakemodel.ModelMini, policyPrompt+related+"\nREPLY LENGTH - Write each answer to the customer in about 300 tokens.\n", email(t, 1), true, services(t))
	if len(plain) != 4 || len(sized) != 4 {
		t.Fatalf("%d and %d calls, want 4 each", len(plain), len(sized))
	}
	own, got := plain[3].usage.CompletionTokens, sized[3].usage.CompletionTokens
	if own >= 270 {
		t.Fatalf("the agent's own reply is %d tokens: the test needs a shorter one", own)
	}
	if got < 285 || got > 330 {
		t.Errorf("asked for about 300 tokens, the answer has %d (its own %d):\n%s", got, own, sized[3].content)
	}
	if !strings.Contains(sized[3].content, "from our refunds policy") || !strings.HasPrefix(sized[3].content, plain[3].content[:40]) {
		t.Errorf("the longer answer should be the reply with the related policy added:\n%s", sized[3].content)
	}
}
