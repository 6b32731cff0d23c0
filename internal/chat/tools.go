package chat

import (
	"context"

	"github.com/openai/openai-go/v3"
)

// ToolRunner runs the agent's tool calls against the services behind them.
type ToolRunner interface {
	// Run calls tool name with the model's arguments and returns the
	// result to hand the model.
	Run(ctx context.Context, name, args string) (string, error)
}

// The tools the agent offers the model, and the dependencies (services)
// they call: the two carrier tools share one dependency.
const (
	ToolGetOrder          = "get_order"
	ToolGetDelivery       = "get_delivery_status"
	ToolGetTracking       = "get_tracking_events"
	DependencyOrders      = "orders"
	DependencyCarrier     = "carrier"
	dependencyUnknownTool = "unknown"
)

// Dependency is the service tool calls: tools that call the same service
// share a dependency (and, with scope dependency, one breaker).
func Dependency(tool string) string {
	switch tool {
	case ToolGetOrder:
		return DependencyOrders
	case ToolGetDelivery, ToolGetTracking:
		return DependencyCarrier
	}
	return dependencyUnknownTool
}

// toolParams are the tools' definitions as the request sends them: each
// takes the order number.
func toolParams() []openai.ChatCompletionToolUnionParam {
	def := func(name, desc string) openai.ChatCompletionToolUnionParam {
		return openai.ChatCompletionFunctionTool(openai.FunctionDefinitionParam{
			Name:        name,
			Description: openai.String(desc),
			Parameters: openai.FunctionParameters{
				"type":                 "object",
				"properties":           map[string]any{"order_id": map[string]any{"type": "string", "description": "the order number"}},
				"required":             []string{"order_id"},
				"additionalProperties": false,
			},
		})
	}
	return []openai.ChatCompletionToolUnionParam{
		def(ToolGetOrder, "Look up an order: its products, status and carrier."),
		def(ToolGetDelivery, "The carrier's delivery status of an order."),
		def(ToolGetTracking, "The carrier's tracking events of an order."),
	}
}
