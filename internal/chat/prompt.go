package chat

import (
	_ "embed"
	"strings"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/internal/answer"
	"github.com/drill-dev/drill/internal/fakemodel"
)

// supportPolicy is the shop's customer support policy (support.md): what
// the agent may promise on returns, refunds, exchanges, delivery,
// cancellations, changes and warranty, when it hands over, and its tone.
//
//go:embed support.md
var supportPolicy string

// SystemPrompt returns the built-in agent's system message (the compact
// agent's; AgentSystemPrompt adds a profile's length and worked examples),
// as a support agent's is
// built: its instructions (the loop, the tools, when and how to hand
// over), the shop's support policy, and the shop's rules for reading a
// customer's message with the catalogue (the triage prompt's rules,
// emails.Rules). The tool definitions go with every call beside it, and
// the whole history is resent each turn.
func SystemPrompt() string {
	var b strings.Builder
	b.WriteString(`You are the customer support agent of Northfield Outfitters, an outdoor-gear shop, answering customers in the shop's support chat.

How you work:
1. First read the customer's message and write down your reading of it: what they need from us (the intent), the order number, the product, the urgency and why, which policy section applies, and your plan. Do not call a tool in this step.
2. Look up the order with get_order, using the order number as DR-123456. If the customer gave none, ask for it and stop.
3. Look up where the parcel is with get_delivery_status (and get_tracking_events when the customer asks about tracking).
4. Answer the customer from what the tools returned and the policy below: greet them, say what you found, what happens next and when, the policy that applies, and sign off.

Rules for tools: call each tool once with the same arguments; never invent an order, a date or a tracking event the tools did not return. A tool result that says a service is unavailable is final: go on without it, or hand over when the answer needs it. A failed call may be tried again, at most twice.

When you cannot answer (the policy's ESCALATION section), say exactly: "`)
	b.WriteString(fakemodel.HandoverSentence)
	b.WriteString(`", and tell the customer what happens next.

`)
	b.WriteString(supportPolicy)
	b.WriteString("\nHow to read a customer's message: the shop's rules.\n\n")
	b.WriteString(emails.Rules())
	b.WriteString("\nCatalogue products: ")
	b.WriteString(strings.Join(answer.Products, "; "))
	b.WriteString("\n")
	return b.String()
}
