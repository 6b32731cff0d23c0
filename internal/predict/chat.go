package predict

import (
	"fmt"
	"math"
	"time"

	"github.com/drill-dev/drill/internal/chat"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/sdkprofile"
)

// The providers a chat prediction considers.
const (
	ProviderSilent     = "silent"     // accepts the connection and sends nothing
	ProviderTrickling  = "trickling"  // streams every answer at a trickle
	ProviderOverloaded = "overloaded" // refuses every attempt at once (a 529)
	ProviderIncident   = "incident"   // the chat incident's own mix of faults
)

// ChatInputs are what a chat prediction assumes of the provider and the
// models.
type ChatInputs struct {
	// TrickleTokensPerS is the trickling provider's pace.
	TrickleTokensPerS float64 `json:"trickle_tokens_per_s"`
	// AnswerTokens is an answer's length: the policy's max_tokens when it
	// sets one, else this.
	AnswerTokens int `json:"answer_tokens"`
	// HeadersS is the slowest a model sends its response headers, in
	// seconds: the stream-rate check's clock starts there, not at the
	// call's start. Default: the built-in fake model's slowest.
	HeadersS float64 `json:"headers_s"`
	// ModelTokensPerS is a healthy model's slowest pace, tokens a second:
	// how long a good answer streams. Default: the built-in fake model's.
	ModelTokensPerS float64 `json:"model_tokens_per_s"`
	// Incidents are the chat incident kinds whose cases are added, each
	// its own mix of faults; Profiles, if it holds one, is that incident's
	// profile as the drill file sets it (else the built-in one).
	Incidents []string                `json:"incidents,omitempty"`
	Profiles  map[string]chat.Profile `json:"-"`
	// Within is the wait the conversation should fit in; 0: none asked.
	Within time.Duration `json:"within_ns,omitempty"`
}

// DefaultChatInputs are the write-up's: 2 tokens a second, answers of up
// to 4,096 tokens (a common output cap); and the built-in fake models'
// slowest headers and pace.
func DefaultChatInputs() ChatInputs {
	in := ChatInputs{TrickleTokensPerS: 2, AnswerTokens: 4096}
	for _, m := range []string{chat.DefaultPrimaryModel, chat.DefaultFallbackModel} {
		lp, ok := fakemodel.Profile(m)
		if !ok {
			continue
		}
		slowest := lp.Max
		if lp.TailProb > 0 {
			slowest = max(slowest, lp.TailMax)
		}
		in.HeadersS = max(in.HeadersS, slowest.Seconds())
		if in.ModelTokensPerS == 0 || lp.TokensPerSecond < in.ModelTokensPerS {
			in.ModelTokensPerS = lp.TokensPerSecond
		}
	}
	return in
}

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
	// Incident is the incident kind of an incident case.
	Incident string `json:"incident,omitempty"`
	// Within is "" when no wait was asked, "yes" when the case already
	// fits, or the setting that makes it fit.
	Within string `json:"within,omitempty"`
}

// ChatPrediction is the worst case for one conversation under a chat
// policy, with the SDK profile's backoff (openai-go's unless --sdk says).
type ChatPrediction struct {
	// SDK is the client library predicted for ("openai-go 3.x").
	SDK               string     `json:"sdk"`
	SDKRetries        int        `json:"sdk_retries"`
	SDKRequestTimeout float64    `json:"sdk_request_timeout_s"`
	Inputs            ChatInputs `json:"inputs"`
	Cases             []ChatCase `json:"cases"`
}

// secs is a bound in seconds, rounded up to a tenth; nil when unbounded.
func secs(d float64) *float64 {
	if math.IsInf(d, 1) {
		return nil
	}
	v := math.Ceil(d*10-1e-6) / 10
	return &v
}

// Chat predicts the worst case of one conversation under p, for a service
// written with openai-go (ChatFor).
func Chat(p chat.Policy, in ChatInputs) ChatPrediction { return ChatFor(p, in, goSDK()) }

// chatCalc is one chat prediction's figures: the policy, the inputs and
// the SDK's backoff over the policy's retries.
type chatCalc struct {
	p        chat.Policy
	in       ChatInputs
	attempts float64 // one call's attempts: the retries and one
	backoff  float64 // the SDK's longest waits over the retries
	sdk      sdkprofile.Profile
}

// ChatFor predicts the worst case of one conversation under p against a
// silent, a trickling and an overloaded provider, and each of
// in.Incidents' mix of faults, for a service whose client library is sdk: its
// backoff between retries. The agent ends a conversation at its first
// failed model call; the budget is checked between calls, so it never cuts
// a call already running. A stream aborted by the stream-rate check is cut
// the check's interval after its response headers.
func ChatFor(p chat.Policy, in ChatInputs, sdk sdkprofile.Profile) ChatPrediction {
	p = p.Normalized()
	out := ChatPrediction{SDK: sdk.Label(), SDKRetries: sdk.Retries, SDKRequestTimeout: sdk.Timeout.Default.Seconds(), Inputs: in}
	if sdk.Name == sdkprofile.Go {
		d := chat.SDKDefaults()
		out.SDKRetries, out.SDKRequestTimeout = d.Retries, d.RequestTimeout.Seconds()
	}
	_, hi := sumWaits(sdk, p.Retries, sdkprofile.Settings{})
	c := chatCalc{p: p, in: in, attempts: float64(p.Retries + 1), backoff: hi.Seconds(), sdk: sdk}
	out.Cases = append(out.Cases, c.silent(), c.trickling(), c.overloaded())
	for _, kind := range in.Incidents {
		prof, ok := in.Profiles[kind]
		if !ok {
			var err error
			if prof, err = chat.IncidentProfile(kind); err != nil {
				continue // the command refused it before
			}
		}
		out.Cases = append(out.Cases, c.incident(kind, prof))
	}
	return out
}

// fits reports whether v seconds fit the wait asked for.
func (c chatCalc) fits(v float64) bool { return c.in.Within > 0 && v <= c.in.Within.Seconds() }

// tokens is an answer's length: max_tokens when the policy sets it.
func (c chatCalc) tokens() int {
	if c.p.MaxTokens > 0 {
		return c.p.MaxTokens
	}
	return c.in.AnswerTokens
}

// silent: each attempt waits for bytes until the read timeout or the
// attempt deadline, whichever is sooner; the SDK retries it.
func (c chatCalc) silent() ChatCase {
	silent := math.Inf(1)
	stop := "nothing: the call waits forever"
	if rt := c.p.ReadTimeout.Seconds(); rt > 0 {
		silent, stop = rt, "read timeout"
	}
	if ad := c.p.AttemptDeadline.Seconds(); ad > 0 && ad < silent {
		silent, stop = ad, "attempt deadline"
	}
	call := c.attempts*silent + c.backoff
	out := ChatCase{Provider: ProviderSilent, AttemptS: secs(silent), CallS: secs(call), ConversationS: secs(call),
		StoppedBy: stop + fmt.Sprintf(", %g attempts; the failed call ends the conversation", c.attempts)}
	if c.in.Within > 0 {
		out.Within = "yes"
		if !c.fits(call) {
			out.Within = "read_timeout or attempt_deadline ≤ " + format.Secs(math.Max(c.in.Within.Seconds()-c.backoff, 0)/c.attempts)
		}
	}
	return out
}

// aborted is how long a stream the stream-rate check cuts lasts: the
// slowest headers, then the check (or the attempt deadline, if sooner).
func (c chatCalc) aborted() float64 {
	a := c.in.HeadersS + c.p.Check.Seconds()
	if ad := c.p.AttemptDeadline.Seconds(); ad > 0 && ad < a {
		a = ad
	}
	return a
}

// trickling: every answer streams at the pace after the headers; the read
// timeout never fires while tokens keep coming. The stream-rate check cuts
// each stream one check after its headers, retried on the fallback while
// retries last; an attempt deadline cuts it outright (not retried: the
// answer had begun). Otherwise each call succeeds slowly and the turns add
// up, the time budget looked at between calls.
func (c chatCalc) trickling() ChatCase {
	tokens := c.tokens()
	answer := c.in.HeadersS + float64(tokens)/c.in.TrickleTokensPerS
	out := ChatCase{Provider: ProviderTrickling}
	switch {
	case c.p.MinTokensPerS > c.in.TrickleTokensPerS:
		a := c.aborted()
		out.AttemptS, out.CallS, out.ConversationS = secs(a), secs(c.attempts*a), secs(c.attempts*a)
		out.StoppedBy = fmt.Sprintf("stream-rate check %s after the headers (by %s), %g attempts; the failed call ends the conversation",
			format.Secs(c.p.Check.Seconds()), format.Secs(c.in.HeadersS), c.attempts)
	case c.p.AttemptDeadline > 0 && c.p.AttemptDeadline.Seconds() < answer:
		a := c.p.AttemptDeadline.Seconds()
		out.AttemptS, out.CallS, out.ConversationS = secs(a), secs(a), secs(a)
		out.StoppedBy = "attempt deadline; the failed call ends the conversation"
	default:
		_, conv, budgeted := c.turnsOf(answer)
		out.StoppedBy = fmt.Sprintf("each answer's %d tokens at %g/s after its headers, for %d turns", tokens, c.in.TrickleTokensPerS, c.p.TurnLimit)
		if budgeted {
			out.StoppedBy = fmt.Sprintf("the time budget, looked at between calls of up to %s: the last starts before it and runs to its end", format.Secs(answer))
		}
		out.AttemptS, out.CallS, out.ConversationS = secs(answer), secs(answer), secs(conv)
	}
	if c.in.Within > 0 {
		out.Within = "yes"
		if out.ConversationS == nil || !c.fits(*out.ConversationS) {
			out.Within = fmt.Sprintf("attempt_deadline ≤ %s, or min_tokens_per_s above %g with %g × (stream_check + %s of headers) ≤ %s",
				format.Secs(c.in.Within.Seconds()), c.in.TrickleTokensPerS, c.attempts, format.Secs(c.in.HeadersS), format.Secs(c.in.Within.Seconds()))
		}
	}
	return out
}

// turnsOf is how many calls of at most call seconds a conversation makes,
// and how long they take at most: the turn limit's, or, when the time
// budget stops it first, until the budget (looked at before each call: a
// call starts while the conversation is under it, and runs to its end) and
// one more call.
func (c chatCalc) turnsOf(call float64) (turns, conv float64, budgeted bool) {
	turns = float64(c.p.TurnLimit)
	conv = turns * call
	if b := c.p.Budget.Time.Seconds(); b > 0 && b+call < conv {
		return math.Ceil(b/call) + 1, b + call, true
	}
	return turns, conv, false
}

// overloaded: refused at once; the SDK's backoff is all the wait.
func (c chatCalc) overloaded() ChatCase {
	out := ChatCase{Provider: ProviderOverloaded, AttemptS: secs(0), CallS: secs(c.backoff), ConversationS: secs(c.backoff),
		StoppedBy: fmt.Sprintf("%d retries with backoff; the failed call ends the conversation", c.p.Retries)}
	if c.p.Breaker != nil {
		out.StoppedBy += " (the status breaker sends calls to the fallback once it opens)"
	}
	if c.in.Within > 0 {
		out.Within = "yes"
		if !c.fits(c.backoff) {
			n := c.p.Retries
			for n > 0 {
				n--
				if _, hi := sumWaits(c.sdk, n, sdkprofile.Settings{}); hi.Seconds() <= c.in.Within.Seconds() {
					break
				}
			}
			out.Within = fmt.Sprintf("retries ≤ %d", n)
		}
	}
	return out
}

// Case returns the prediction's case for provider, if it has one.
func (p ChatPrediction) Case(provider string) (ChatCase, bool) {
	for _, c := range p.Cases {
		if c.Provider == provider {
			return c, true
		}
	}
	return ChatCase{}, false
}
