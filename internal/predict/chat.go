package predict

import (
	"fmt"
	"math"
	"time"

	"github.com/drill-dev/drill/internal/chat"
	"github.com/drill-dev/drill/internal/format"
)

// The providers a chat prediction considers.
const (
	ProviderSilent     = "silent"     // accepts the connection and sends nothing
	ProviderTrickling  = "trickling"  // streams every answer at a trickle
	ProviderOverloaded = "overloaded" // refuses every attempt at once (a 529)
)

// ChatInputs are what a chat prediction assumes of the provider.
type ChatInputs struct {
	// TrickleTokensPerS is the trickling provider's pace.
	TrickleTokensPerS float64 `json:"trickle_tokens_per_s"`
	// AnswerTokens is an answer's length: the policy's max_tokens when it
	// sets one, else this.
	AnswerTokens int `json:"answer_tokens"`
	// Within is the wait the conversation should fit in; 0: none asked.
	Within time.Duration `json:"within_ns,omitempty"`
}

// DefaultChatInputs are the write-up's: 2 tokens a second, answers of up
// to 4,096 tokens (a common output cap).
func DefaultChatInputs() ChatInputs { return ChatInputs{TrickleTokensPerS: 2, AnswerTokens: 4096} }

// ChatCase is the worst case of one conversation against one provider: how
// long one attempt, one model call (the SDK's retries and backoff) and the
// whole conversation take, in seconds (nil: unbounded), what stops it, and
// the setting that brings the conversation within the wait asked for.
type ChatCase struct {
	Provider      string   `json:"provider"`
	AttemptS      *float64 `json:"attempt_s"`
	CallS         *float64 `json:"call_s"`
	ConversationS *float64 `json:"conversation_s"`
	StoppedBy     string   `json:"stopped_by"`
	// Within is "" when no wait was asked, "yes" when the case already
	// fits, or the setting that makes it fit.
	Within string `json:"within,omitempty"`
}

// ChatPrediction is the worst case for one conversation under a chat
// policy, from the SDK defaults of the linked openai-go.
type ChatPrediction struct {
	SDKRetries        int        `json:"sdk_retries"`
	SDKRequestTimeout float64    `json:"sdk_request_timeout_s"`
	Inputs            ChatInputs `json:"inputs"`
	Cases             []ChatCase `json:"cases"`
}

func secs(d float64) *float64 {
	if math.IsInf(d, 1) {
		return nil
	}
	v := math.Round(d*10) / 10
	return &v
}

// Chat predicts the worst case of one conversation under p against a
// silent, a trickling and an overloaded provider. The agent ends a
// conversation at its first failed model call; the budget is checked
// between calls, so it never cuts a call already running.
func Chat(p chat.Policy, in ChatInputs) ChatPrediction {
	p = p.Normalized()
	sdk := chat.SDKDefaults()
	out := ChatPrediction{SDKRetries: sdk.Retries, SDKRequestTimeout: sdk.RequestTimeout.Seconds(), Inputs: in}
	attempts := float64(p.Retries + 1)
	_, backoffHi := backoffSum(p.Retries, 0)
	backoff := backoffHi.Seconds()
	within := in.Within.Seconds()
	fits := func(v float64) bool { return in.Within > 0 && v <= within }

	// Silent: each attempt waits for bytes until the read timeout or the
	// attempt deadline, whichever is sooner; the SDK retries it.
	silent := math.Inf(1)
	stop := "nothing: the call waits forever"
	if rt := p.ReadTimeout.Seconds(); rt > 0 {
		silent, stop = rt, "read timeout"
	}
	if ad := p.AttemptDeadline.Seconds(); ad > 0 && ad < silent {
		silent, stop = ad, "attempt deadline"
	}
	call := attempts*silent + backoff
	c := ChatCase{Provider: ProviderSilent, AttemptS: secs(silent), CallS: secs(call), ConversationS: secs(call),
		StoppedBy: stop + fmt.Sprintf(", %g attempts; the failed call ends the conversation", attempts)}
	if in.Within > 0 {
		c.Within = "yes"
		if !fits(call) {
			c.Within = "read_timeout or attempt_deadline ≤ " + format.Secs(math.Max(within-backoff, 0)/attempts)
		}
	}
	out.Cases = append(out.Cases, c)

	// Trickling: every answer streams at the pace; the read timeout never
	// fires while tokens keep coming. The stream-rate check cuts an
	// attempt at its check, retried on the fallback while retries last;
	// an attempt deadline cuts it outright (not retried: the answer had
	// begun). Otherwise each call succeeds slowly and the turns add up.
	tokens := in.AnswerTokens
	if p.MaxTokens > 0 {
		tokens = p.MaxTokens
	}
	answer := float64(tokens) / in.TrickleTokensPerS
	c = ChatCase{Provider: ProviderTrickling}
	switch {
	case p.MinTokensPerS > in.TrickleTokensPerS:
		a := p.Check.Seconds()
		c.AttemptS, c.CallS, c.ConversationS = secs(a), secs(attempts*a), secs(attempts*a)
		c.StoppedBy = fmt.Sprintf("stream-rate check at %s, %g attempts; the failed call ends the conversation", format.Secs(a), attempts)
	case p.AttemptDeadline > 0 && p.AttemptDeadline.Seconds() < answer:
		a := p.AttemptDeadline.Seconds()
		c.AttemptS, c.CallS, c.ConversationS = secs(a), secs(a), secs(a)
		c.StoppedBy = "attempt deadline; the failed call ends the conversation"
	default:
		turns := float64(p.TurnLimit)
		c.StoppedBy = fmt.Sprintf("each answer's %d tokens at %g/s, for %d turns", tokens, in.TrickleTokensPerS, p.TurnLimit)
		// The budget is looked at before each call: a call starts while
		// the conversation is under it, and runs to its end.
		if b := p.Budget.Time.Seconds(); b > 0 && math.Ceil(b/answer) < turns {
			turns = math.Max(math.Ceil(b/answer), 1)
			c.StoppedBy = fmt.Sprintf("the time budget, looked at between calls of %s each (%g calls)", format.Secs(answer), turns)
		}
		conv := turns * answer
		c.AttemptS, c.CallS, c.ConversationS = secs(answer), secs(answer), secs(conv)
	}
	if in.Within > 0 {
		c.Within = "yes"
		if c.ConversationS == nil || !fits(*c.ConversationS) {
			c.Within = fmt.Sprintf("attempt_deadline ≤ %s, or min_tokens_per_s above %g with %g × stream_check ≤ %s",
				format.Secs(within), in.TrickleTokensPerS, attempts, format.Secs(within))
		}
	}
	out.Cases = append(out.Cases, c)

	// Overloaded: refused at once; the SDK's backoff is all the wait.
	c = ChatCase{Provider: ProviderOverloaded, AttemptS: secs(0), CallS: secs(backoff), ConversationS: secs(backoff),
		StoppedBy: fmt.Sprintf("%d retries with backoff; the failed call ends the conversation", p.Retries)}
	if p.Breaker != nil {
		c.StoppedBy += " (the status breaker sends calls to the fallback once it opens)"
	}
	if in.Within > 0 {
		c.Within = "yes"
		if !fits(backoff) {
			n := p.Retries
			for n > 0 {
				n--
				if _, hi := backoffSum(n, 0); hi.Seconds() <= within {
					break
				}
			}
			c.Within = fmt.Sprintf("retries ≤ %d", n)
		}
	}
	out.Cases = append(out.Cases, c)
	return out
}
