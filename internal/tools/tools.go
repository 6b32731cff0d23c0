// Package tools is the chat workload's tools: the functions a conversation
// offers the model, the two services behind them (an order service and a
// carrier service, HTTP handlers answering from the built-in emails' orders)
// and the client the conversation engine calls them through.
//
// Three functions, all with the arguments {"order_id": "DR-123456"}:
//
//	get_order            -> the order service  (dependency "orders")
//	get_delivery_status  -> the carrier service (dependency "carrier")
//	get_tracking_events  -> the carrier service (dependency "carrier")
//
// The two carrier functions share one dependency: a breaker per dependency
// (not per tool) guards both.
//
// Results are the JSON text put in the role "tool" message answering the
// call: a service's answer, {"error": "not_found", …} for an order that does
// not exist (a fact, not a failure), or an error result (ErrorResult) for a
// failed call; an open breaker's result is Unavailable's text. The fake
// model's agent (internal/fakemodel, agent.go) reads all of these.
//
// The services run in-process by default (Transport: an http.RoundTripper
// that calls the handler directly, so a drill runs in fake time inside a
// testing/synctest bubble); Client takes one http.Client per service, so
// inject can wrap each service's transport with its own outage windows.
package tools

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"
)

// The function names a conversation offers the model.
const (
	GetOrder          = "get_order"
	GetDeliveryStatus = "get_delivery_status"
	GetTrackingEvents = "get_tracking_events"
)

// The dependencies (services) the functions call.
const (
	Orders  = "orders"
	Carrier = "carrier"
)

// Names lists the functions in the order a conversation uses them.
var Names = []string{GetOrder, GetDeliveryStatus, GetTrackingEvents}

// Dependency returns the service a function calls ("orders" or "carrier"),
// or "" for an unknown function.
func Dependency(name string) string {
	switch name {
	case GetOrder:
		return Orders
	case GetDeliveryStatus, GetTrackingEvents:
		return Carrier
	}
	return ""
}

// descriptions say what each function does, for the model.
var descriptions = map[string]string{
	GetOrder:          "Look up a customer's order by its order number: the product, the order's status and when it was placed.",
	GetDeliveryStatus: "Get the delivery status of an order's parcel from the carrier: status, carrier and expected delivery date.",
	GetTrackingEvents: "Get the carrier's tracking events (scans) for an order's parcel.",
}

// Definitions returns the function definitions a chat request offers, in
// Names order, each strict with one required string parameter order_id.
func Definitions() []openai.ChatCompletionToolUnionParam {
	defs := make([]openai.ChatCompletionToolUnionParam, 0, len(Names))
	for _, name := range Names {
		defs = append(defs, openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
			Name:        name,
			Description: openai.String(descriptions[name]),
			Strict:      openai.Bool(true),
			Parameters: shared.FunctionParameters{
				"type": "object",
				"properties": map[string]any{
					"order_id": map[string]any{"type": "string", "description": "The order number, as DR-123456."},
				},
				"required":             []string{"order_id"},
				"additionalProperties": false,
			},
		}))
	}
	return defs
}

// Args are a function call's arguments.
type Args struct {
	OrderID string `json:"order_id"`
}

// ErrBadArguments is the error for a tool call whose arguments do not parse
// or lack the order number.
var ErrBadArguments = errors.New("tool call arguments do not parse")

// ParseArgs parses a call's arguments (the JSON text the model wrote). It
// returns an error wrapping ErrBadArguments when they are not a JSON object
// with a non-empty string order_id.
func ParseArgs(arguments string) (Args, error) {
	var a Args
	dec := json.NewDecoder(strings.NewReader(arguments))
	if err := dec.Decode(&a); err != nil {
		return Args{}, fmt.Errorf("%w: %v", ErrBadArguments, err)
	}
	if dec.More() {
		return Args{}, fmt.Errorf("%w: unexpected data after the object", ErrBadArguments)
	}
	if strings.TrimSpace(a.OrderID) == "" {
		return Args{}, fmt.Errorf("%w: order_id is missing", ErrBadArguments)
	}
	return a, nil
}

// unavailableWhat names what each dependency provides, for Unavailable.
var unavailableWhat = map[string]string{Orders: "order lookup", Carrier: "delivery tracking"}

// Unavailable is the result an open breaker hands the model instead of
// calling the dependency: a message, not an error, e.g. "delivery tracking
// is temporarily unavailable; proceed without it or escalate".
func Unavailable(dependency string) string {
	what, ok := unavailableWhat[dependency]
	if !ok {
		what = dependency
	}
	return what + " is temporarily unavailable; proceed without it or escalate"
}

// ErrorResult is the result the model gets for a call that failed (bad
// arguments, a timeout, an error status): {"error": kind, "message": …}
// with kind "invalid_arguments", "timeout" or "service_error".
func ErrorResult(err error) string {
	kind := "service_error"
	switch {
	case errors.Is(err, ErrBadArguments):
		kind = "invalid_arguments"
	case isTimeout(err):
		kind = "timeout"
	}
	b, _ := json.Marshal(map[string]string{"error": kind, "message": err.Error()})
	return string(b)
}
