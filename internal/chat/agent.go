package chat

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/openai/openai-go/v3"

	"github.com/drill-dev/drill/inject"
	"github.com/drill-dev/drill/internal/answer"
	"github.com/drill-dev/drill/internal/suggest"
)

// AgentProfile is the agent's size, as a support agent is built: its fixed
// prompt (the system prompt and the tool definitions, resent on every call
// with the history) and the length of its answers. The checks' budgets and
// a slow call's bill depend on it, so a team sets it to its own agent's.
type AgentProfile struct {
	// Name is the profile's name (--agent-profile).
	Name string `json:"name"`
	// PromptTokens is the size of the fixed prompt, in tokens: the system
	// prompt (instructions, support policy, reading rules, catalogue) and
	// the tool definitions. Above the built-in prompt's size, worked
	// examples (how the agent reads a message and which steps it takes)
	// fill the system prompt up to it, as a production agent's prompt
	// carries them; 0 keeps the built-in prompt alone.
	PromptTokens int `json:"prompt_tokens,omitempty"`
	// AnswerTokens is the length of a final answer the prompt asks for (its
	// REPLY LENGTH section): the agent writes its reply and, when it is
	// shorter, adds the related policy to it up to about this many tokens;
	// 0 asks no length.
	AnswerTokens int `json:"answer_tokens,omitempty"`
	// LookupTokens is the size of a lookup's result (an order's or a
	// parcel's record with its history), in tokens: what each tool call
	// adds to the history every later call resends. The built-in services
	// pad their records to it (tools.Shop.RecordTokens); 0 keeps their
	// bare records, about 40 tokens.
	LookupTokens int `json:"lookup_tokens,omitempty"`
}

// The agent profiles' names (--agent-profile).
const (
	// AgentSimulation is the support-chat simulation's agent, the default:
	// a fixed prompt of about 3,750 tokens, lookups of about 500 and
	// answers of about 300 tokens (its 150 s slow answer at 2 tokens a
	// second).
	AgentSimulation = "simulation"
	// AgentCompact is the built-in prompt alone with the agent's own
	// answer lengths and the services' bare records: about 2,900 prompt
	// tokens a call, answers of about 220.
	AgentCompact = "compact"
)

// The simulation agent's sizes follow from two of the write-up's figures
// together: conversation 350 bills 60,200 tokens over its ten calls (a
// loop resending the same lookup eight times), and the defaults bill
// 18.78 M tokens over 1,000 conversations. A loop's calls grow by what each
// lookup adds to the history, so the first fixes a lookup's size with the
// fixed prompt; the second, over drill's mix of four-call answers, loops to
// the turn limit and failed calls, fixes the fixed prompt: about 3,750
// tokens, and lookups of about 500 (docs/workloads.md works it through).
const (
	simulationPromptTokens = 3750
	simulationLookupTokens = 500
)

var agentProfiles = map[string]AgentProfile{
	AgentSimulation: {Name: AgentSimulation, PromptTokens: simulationPromptTokens, AnswerTokens: 300, LookupTokens: simulationLookupTokens},
	AgentCompact:    {Name: AgentCompact},
}

var agentProfileNames = []string{AgentSimulation, AgentCompact}

// AgentProfileNames lists the agent profiles, the default first.
func AgentProfileNames() []string { return append([]string(nil), agentProfileNames...) }

// AgentProfileByName returns the named agent profile ("" is the default).
func AgentProfileByName(name string) (AgentProfile, error) {
	if name == "" {
		name = AgentSimulation
	}
	p, ok := agentProfiles[name]
	if !ok {
		return AgentProfile{}, fmt.Errorf("unknown agent profile %q (valid: %s)%s", name, strings.Join(agentProfileNames, ", "),
			suggest.DidYouMean(name, "", agentProfileNames))
	}
	return p, nil
}

// DefaultAgentProfile is the simulation's agent.
func DefaultAgentProfile() AgentProfile { return agentProfiles[AgentSimulation] }

// Validate says what is wrong with p.
func (p AgentProfile) Validate() error {
	if p.PromptTokens < 0 || p.AnswerTokens < 0 || p.LookupTokens < 0 {
		return fmt.Errorf("agent profile %s: prompt_tokens, answer_tokens and lookup_tokens must not be negative", p.Name)
	}
	return nil
}

// estimateTokens is a text's size at four bytes a token (the fake model's
// count of a long text, and OpenAI's rule of thumb).
func estimateTokens(s string) int { return (len(s) + inject.BytesPerToken - 1) / inject.BytesPerToken }

// toolTokens is the tool definitions' size, as JSON.
func toolTokens(defs []openai.ChatCompletionToolUnionParam) int {
	b, _ := json.Marshal(defs)
	return estimateTokens(string(b))
}

// AgentSystemPrompt is the system message of an agent with profile p
// offered tools: SystemPrompt, its REPLY LENGTH when p asks one, and worked
// examples up to p's prompt size.
func AgentSystemPrompt(p AgentProfile, tools []openai.ChatCompletionToolUnionParam) string {
	var b strings.Builder
	b.WriteString(SystemPrompt())
	if p.AnswerTokens > 0 {
		fmt.Fprintf(&b, "\nREPLY LENGTH - Write each answer to the customer in about %d tokens (about %d words): what you found, what happens next, the policy that applies and the related policy the customer will want to know.\n",
			p.AnswerTokens, p.AnswerTokens*3/4)
	}
	if want := p.PromptTokens - toolTokens(tools); estimateTokens(b.String()) < want {
		b.WriteString("\nWorked examples: how to read a message and which steps to take.\n")
		for i := 0; estimateTokens(b.String()) < want; i++ {
			b.WriteString(workedExample(i))
		}
	}
	return b.String()
}

// exampleAsks are, per intent, how a customer in a worked example asks.
var exampleAsks = []struct{ intent, urgency, ask, section, needs string }{
	{"return", "normal", "I would like to send back the %s from order %s, it is not what I expected.", "RETURNS", "the order"},
	{"order_status", "high", "Where is my %s? Order %s was due yesterday and I leave on a trip on Saturday.", "DELIVERY", "the order and its delivery"},
	{"refund", "normal", "I returned the %s from order %s two weeks ago and have not seen my money yet.", "REFUNDS", "the order"},
	{"exchange", "normal", "Can I swap the %s from order %s for a larger size?", "EXCHANGES", "the order"},
	{"cancel", "high", "Please cancel order %[2]s for the %[1]s before it ships, I ordered it twice by mistake.", "CANCELLATIONS", "the order and its delivery"},
	{"change_order", "normal", "Could you change the delivery address on order %[2]s (the %[1]s) to my office?", "ORDER CHANGES", "the order and its delivery"},
	{"warranty_claim", "normal", "The %s from order %s broke after three months of normal use.", "WARRANTY", "the order"},
	{"complaint", "normal", "The %s from order %s arrived damaged and nobody answered my first email.", "COMPLAINTS", "the order"},
	{"product_question", "low", "Is the %s warm enough for late autumn? I have not ordered yet (order %s was my last one).", "PRODUCT QUESTIONS", "nothing: the policy answers it"},
	{"feedback", "low", "Just wanted to say the %s from order %s is great, thanks.", "FEEDBACK", "nothing: thank them"},
}

// workedExample is the i-th worked example of the system prompt: a
// customer's message made from the catalogue and an example order number
// (never one of the drill's own), how the shop reads it, and the steps.
// Its lines are indented, so the policy's sections stay as they are.
func workedExample(i int) string {
	e := exampleAsks[i%len(exampleAsks)]
	product := answer.Products[(i*7)%len(answer.Products)]
	order := fmt.Sprintf("DR-9%05d", 1000+i*37)
	var b strings.Builder
	fmt.Fprintf(&b, "  Example %d. The customer writes: \"%s\"\n", i+1, fmt.Sprintf(e.ask, product, order))
	fmt.Fprintf(&b, "    Reading: intent %s, urgency %s, product %s, order %s; the answer needs %s; the policy is %s.\n",
		e.intent, e.urgency, product, order, e.needs, e.section)
	fmt.Fprintf(&b, "    Steps: write the reading (no tool); get_order {\"order_id\": %q}; get_delivery_status {\"order_id\": %q}; answer from the results under %s, or hand over when a lookup it needs fails.\n",
		order, order, e.section)
	return b.String()
}
