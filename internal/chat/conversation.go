package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/drill-dev/drill/breaker"
	"github.com/drill-dev/drill/chain"
	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/inject"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/tools"
)

// errAborted ends a stream the stream-rate check cut.
var errAborted = errors.New("stream under the rate floor: aborted")

// toldCustomer is what a customer handed over is told.
const toldCustomer = "We are passing your conversation to a member of our team, with everything we found so far; they will reply to you shortly."

// conversation is one customer's conversation with the agent.
type conversation struct {
	r     *Run
	id    int
	email emails.Email
	start time.Time

	msgs               []openai.ChatCompletionMessageParamUnion
	turns, toolCalls   int
	prompt, completion int
	malformed          int
	lastCall           string // the previous tool call, name(args)
	sameInRow          int    // identical tool calls in a row, lastCall's
	found              map[string]string
	attempted          []string
	refused            []string // dependencies a tool breaker refused
	interpreted        bool
	// stuck are the rungs whose model has repeated a tool call in this
	// conversation and keeps doing so (Profile.LoopPersists).
	stuck map[string]bool
}

// toolCall is one tool call a model call asked for.
type toolCall struct{ id, name, args string }

func (t toolCall) key() string { return t.name + "(" + t.args + ")" }

// callResult is how one model call ended.
type callResult struct {
	step               string
	content            string
	calls              []toolCall
	malformed          int // the calls whose arguments do not parse
	prompt, completion int
	outcome            event.Outcome
	err                error
}

func (c *conversation) elapsed() time.Duration { return time.Since(c.start) }

func (c *conversation) chat() *event.Chat {
	return &event.Chat{Conversation: c.id, Turn: c.turns, Elapsed: c.elapsed()}
}

// run plays the conversation to its ending: the agent's loop of model calls
// and tool calls, bounded by the turn limit and the checks that are on.
func (c *conversation) run(ctx context.Context) {
	c.start = time.Now()
	c.found, c.stuck = map[string]string{}, map[string]bool{}
	c.msgs = []openai.ChatCompletionMessageParamUnion{openai.SystemMessage(c.r.system),
		openai.UserMessage(c.email.Subject + "\n\n" + c.email.Body)}
	c.r.log.Append(event.Event{Kind: event.ConversationStart, Email: c.email.ID, Chat: &event.Chat{Conversation: c.id}})
	pol := c.r.cfg.Policy
	for {
		if ctx.Err() != nil {
			c.end(event.EndingCutOff, event.StopCanceled)
			return
		}
		if c.turns >= pol.TurnLimit {
			c.stop(event.StopTurnLimit, false)
			return
		}
		if pol.Budget.Time > 0 && c.elapsed() >= pol.Budget.Time {
			c.stop(event.StopBudgetTime, false)
			return
		}
		if pol.Budget.Tokens > 0 && c.prompt+c.completion >= pol.Budget.Tokens {
			c.stop(event.StopBudgetTokens, false)
			return
		}
		c.turns++
		res := c.callModel(ctx)
		c.prompt += res.prompt
		c.completion += res.completion
		switch res.step {
		case event.StepFailed, event.StepAborted:
			if ctx.Err() != nil {
				c.end(event.EndingCutOff, event.StopCanceled)
			} else {
				c.stop(event.StopModelFailed, false)
			}
			return
		case event.StepInterpret:
			c.msgs = append(c.msgs, openai.AssistantMessage(res.content))
		case event.StepAnswer:
			c.msgs = append(c.msgs, openai.AssistantMessage(res.content))
			if escalates(res.content) {
				c.stop(event.StopEscalated, true)
				return
			}
			c.end(event.EndingAnswered, "")
			return
		case event.StepMalformed:
			c.malformed += res.malformed // each unparsable call counts, parallel ones too
			if pol.Validity > 0 && c.malformed >= pol.Validity {
				c.stop(event.StopInvalid, true)
				return
			}
			c.toolTurn(ctx, res.calls)
		default: // a tool call, or the same one again
			if pol.LoopGuard > 0 && c.sameInRow >= pol.LoopGuard {
				c.stop(event.StopLoop, true)
				return
			}
			c.toolTurn(ctx, res.calls)
		}
	}
}

// stop ends a conversation without an answer for reason: handed over when
// a check that hands over stopped it (checked) or the budget policy is on,
// silent otherwise.
func (c *conversation) stop(reason string, checked bool) {
	if checked || c.r.cfg.Policy.Budget.On() {
		state := &event.HandoverState{Found: c.found, Attempted: c.attempted, Refused: c.refused, Reason: reason, Told: toldCustomer}
		ch := c.chat()
		ch.Reason, ch.State = reason, state
		c.r.log.Append(event.Event{Kind: event.ConversationHandover, Email: c.email.ID, Chat: ch})
		c.end(event.EndingHandedOver, reason)
		return
	}
	c.end(event.EndingSilent, reason)
}

func (c *conversation) end(ending, reason string) {
	ch := c.chat()
	ch.Ending, ch.Reason, ch.Turns, ch.ToolCalls = ending, reason, c.turns, c.toolCalls
	ch.PromptTokens, ch.CompletionTokens = c.prompt, c.completion
	c.r.log.Append(event.Event{Kind: event.ConversationEnd, Email: c.email.ID, Chat: ch})
	c.r.ended.Add(1)
}

// callModel makes one model call: on the primary unless its breaker is
// open (or half-open with its trial call out); a stream the stream-rate
// check aborts is retried on the fallback while the call's retries last.
// The breaker's ticket only routes the call and holds the trial's slot:
// every primary attempt's outcome reaches the breaker through Observe.
func (c *conversation) callModel(ctx context.Context) callResult {
	left := c.r.cfg.Policy.Retries + 1
	var total callResult
	for {
		rung := RungPrimary
		var route *breaker.Ticket
		if total.step == event.StepAborted {
			rung = RungFallback
		} else if c.r.modelBreaker != nil {
			if tk, err := c.r.modelBreaker.Allow(); err != nil {
				rung = RungFallback
			} else {
				route = &tk
			}
		}
		res, used := c.stream(ctx, rung, left-1, c.r.cfg.Policy.Retries+1-left)
		if route != nil {
			c.r.modelBreaker.Done(*route, breaker.Ignored)
		}
		res.prompt += total.prompt
		res.completion += total.completion
		total = res
		left -= used
		if res.step != event.StepAborted || left <= 0 || ctx.Err() != nil {
			return total
		}
	}
}

// stream makes one SDK call (its own retries included) on rung and reads
// its stream; it returns how the call ended and the attempts it used.
// usedBefore is the attempts the model call used on streams before this
// one (a stream aborted and retried on the fallback): its attempts are
// numbered on from them, so each draws its own fault.
func (c *conversation) stream(ctx context.Context, rung string, retries, usedBefore int) (callResult, int) {
	pol := c.r.cfg.Policy
	tr := &callTrace{conv: c.id, turn: c.turns, email: c.email.ID, start: c.start, rung: rung, stuck: c.stuck[rung], usedBefore: usedBefore}
	cctx, cancel := context.WithCancelCause(withTrace(ctx, tr))
	defer cancel(nil)
	stream := c.r.client.Chat.Completions.NewStreaming(cctx, c.params(rung), option.WithMaxRetries(max(retries, 0)))
	defer stream.Close()

	var received atomic.Int64 // bytes of content and tool-call arguments
	if pol.MinTokensPerS > 0 && stream.Err() == nil {
		started := time.Now()
		var check func()
		var t *time.Timer
		check = func() {
			rate := float64(received.Load()) / inject.BytesPerToken / time.Since(started).Seconds()
			if rate < pol.MinTokensPerS {
				cancel(errAborted)
				return
			}
			t.Reset(pol.Check)
		}
		t = time.AfterFunc(pol.Check, check)
		defer t.Stop()
	}

	var res callResult
	var content strings.Builder
	var calls []toolCall
	usage := false
	for stream.Next() {
		chunk := stream.Current()
		if chunk.Usage.PromptTokens > 0 || chunk.Usage.CompletionTokens > 0 {
			res.prompt, res.completion, usage = int(chunk.Usage.PromptTokens), int(chunk.Usage.CompletionTokens), true
		}
		if len(chunk.Choices) == 0 {
			continue
		}
		d := chunk.Choices[0].Delta
		content.WriteString(d.Content)
		n := len(d.Content)
		for _, tc := range d.ToolCalls {
			for int(tc.Index) >= len(calls) {
				calls = append(calls, toolCall{})
			}
			k := &calls[tc.Index]
			if tc.ID != "" {
				k.id = tc.ID
			}
			k.name += tc.Function.Name
			k.args += tc.Function.Arguments
			n += len(tc.Function.Arguments)
		}
		received.Add(int64(n))
	}
	err := stream.Err()
	last := tr.last()
	if !usage && last != nil && last.status == 200 {
		// Cut before its usage chunk: billed anyway, estimated at four
		// bytes a token.
		res.prompt, res.completion = int(last.promptBytes/inject.BytesPerToken), int(received.Load()/inject.BytesPerToken)
	}
	res.content, res.calls = content.String(), calls
	c.classify(ctx, cctx, &res, err, rung, last)
	if last != nil && last.status == 200 {
		c.finishAttempt(tr, last, res, err)
	}
	ch := c.chat()
	ch.Step, ch.PromptTokens, ch.CompletionTokens = res.step, res.prompt, res.completion
	c.r.log.Append(event.Event{Kind: event.ModelCall, Email: c.email.ID, Rung: rung, Model: c.r.model(rung), Outcome: res.outcome,
		Attempt: tr.count() - 1, Detail: errText(res.err), Chat: ch})
	return res, max(tr.count(), 1)
}

// params is the request of one call on rung: the conversation so far, the
// tools, and the tool choice of its step (none until the question is
// interpreted).
func (c *conversation) params(rung string) openai.ChatCompletionNewParams {
	params := openai.ChatCompletionNewParams{
		Model:         c.r.model(rung),
		Messages:      c.msgs,
		Tools:         c.r.tools,
		StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
	}
	if n := c.r.cfg.Policy.MaxTokens; n > 0 {
		params.MaxCompletionTokens = openai.Int(int64(n))
	}
	choice := "auto"
	if !c.interpreted {
		choice = "none"
	}
	params.ToolChoice = openai.ChatCompletionToolChoiceOptionUnionParam{OfAuto: openai.String(choice)}
	return params
}

// classify sets the call's step and outcome from how its stream ended
// (err; cctx's cause says whether the stream-rate check cut it) and what
// it asked for, and keeps the conversation's count of the same tool call
// in a row (and whether the model on rung is stuck in a loop).
func (c *conversation) classify(ctx, cctx context.Context, res *callResult, err error, rung string, last *attempt) {
	switch {
	case err != nil && errors.Is(context.Cause(cctx), errAborted):
		res.step, res.outcome, res.err = event.StepAborted, event.SlowStream, errAborted
	case err != nil:
		res.step, res.outcome, res.err = event.StepFailed, chain.Classify(ctx, err), err
	case len(res.calls) > 0:
		res.step, res.outcome = event.StepToolCall, event.OK
		for _, k := range res.calls {
			if !json.Valid([]byte(k.args)) {
				res.step, res.outcome = event.StepMalformed, event.Invalid
				res.malformed++
			}
		}
		if res.step == event.StepToolCall {
			key := callsKey(res.calls)
			if key == c.lastCall {
				c.sameInRow++
				res.step = event.StepRepeat
				// Only the loop fault sticks: the agent calling a tool again
				// after it failed is no model stuck in a loop.
				if c.r.cfg.Profile.LoopPersists && last != nil && last.class == ClassLoop {
					c.stuck[rung] = true
				}
			} else {
				c.lastCall, c.sameInRow = key, 1
			}
		}
	case !c.interpreted:
		res.step, res.outcome = event.StepInterpret, event.OK
		c.interpreted = true
	default:
		res.step, res.outcome = event.StepAnswer, event.OK
	}
}

// finishAttempt logs the attempt that got a 200 and gives the primary's
// breaker its verdict: an aborted stream and an unparsable tool call are
// failures when the checks that see them are on.
func (c *conversation) finishAttempt(tr *callTrace, a *attempt, res callResult, err error) {
	if a.rung == RungPrimary && c.r.modelBreaker != nil {
		r := chain.CountResult(c.r.modelBreaker.Settings().Counting, res.outcome)
		if res.step == event.StepMalformed && r == breaker.Ignored {
			// Without the validity check an unparsable tool call is a
			// 200 the status breaker records as an answer, as the
			// write-up's breaker does (a triage chain ignores it).
			r = breaker.Success
		}
		c.r.modelBreaker.Observe(r)
	}
	fault := a.class
	if fault == ClassMalformed && len(res.calls) == 0 {
		// The reply had no tool call to break: it passed through as it was,
		// and is not the fault's (as a loop with nothing to repeat).
		fault = ""
	}
	ch := c.chat()
	ch.Step, ch.PromptTokens, ch.CompletionTokens = res.step, res.prompt, res.completion
	c.r.log.Append(event.Event{Kind: event.ModelAttempt, Email: c.email.ID, Rung: a.rung, Model: a.model, Outcome: res.outcome,
		Status: a.status, Fault: fault, Detail: errText(err), Chat: ch})
}

// callsKey is a model call's tool calls as one comparable text.
func callsKey(calls []toolCall) string {
	keys := make([]string, len(calls))
	for i, k := range calls {
		keys[i] = k.key()
	}
	return strings.Join(keys, ";")
}

// toolTurn appends the model's tool calls and runs them, appending each
// result (or, for arguments that do not parse, an error) for the model.
func (c *conversation) toolTurn(ctx context.Context, calls []toolCall) {
	params := make([]openai.ChatCompletionMessageToolCallUnionParam, len(calls))
	for i, k := range calls {
		params[i] = openai.ChatCompletionMessageToolCallUnionParam{OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
			ID: k.id, Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: k.name, Arguments: k.args}}}
	}
	c.msgs = append(c.msgs, openai.ChatCompletionMessageParamUnion{OfAssistant: &openai.ChatCompletionAssistantMessageParam{ToolCalls: params}})
	for _, k := range calls {
		c.attempted = append(c.attempted, k.key())
		var result string
		if !json.Valid([]byte(k.args)) {
			// Not sent to the service: the agent cannot read the call.
			result = tools.ErrorResult(fmt.Errorf("%s: %w", k.name, tools.ErrBadArguments))
		} else {
			result = c.runTool(ctx, k)
		}
		c.msgs = append(c.msgs, openai.ToolMessage(result, k.id))
	}
}

// runTool runs one tool call through its breaker, if the tools have
// breakers, and logs it; a failure is a result for the model, not an error
// of the conversation. An open breaker is a result too: the dependency's
// unavailable message, and no call.
func (c *conversation) runTool(ctx context.Context, k toolCall) string {
	c.toolCalls++
	dep := tools.Dependency(k.name)
	ch := c.chat()
	ch.Tool, ch.Dependency, ch.Args = k.name, dep, k.args
	var br *breaker.Breaker
	var ticket breaker.Ticket
	if g := c.r.toolGuard; g != nil {
		br = g.breakers[g.cfg.key(k.name)]
		t, err := br.Allow()
		if err != nil {
			if !slices.Contains(c.refused, dep) {
				c.refused = append(c.refused, dep)
			}
			c.r.log.Append(event.Event{Kind: event.ToolCall, Email: c.email.ID, Outcome: event.BreakerOpen, Chat: ch})
			return tools.Unavailable(dep)
		}
		ticket = t
	}
	res, err := c.r.cfg.Tools.Call(ctx, k.name, k.args)
	if err != nil {
		res = tools.Result{Dependency: dep, Err: err, Content: tools.ErrorResult(err)}
	}
	outcome := toolOutcome(ctx, res, err)
	if br != nil {
		r := breaker.Success
		switch {
		case outcome == event.Canceled || outcome == event.HTTP4xx:
			r = breaker.Ignored
		case outcome != event.OK:
			r = breaker.Failure
		}
		br.Done(ticket, r)
	}
	if outcome == event.OK {
		c.found[k.name] = res.Content
	}
	ch.Elapsed = c.elapsed()
	c.r.log.Append(event.Event{Kind: event.ToolCall, Email: c.email.ID, Outcome: outcome, Status: res.Status, Detail: errText(res.Err), Chat: ch})
	return res.Content
}

// escalates reports whether an answer hands the customer to a person: the
// agent's handover sentence (the fake model's, which a real agent's prompt
// asks for too).
func escalates(answer string) bool { return fakemodel.IsHandover(answer) }
