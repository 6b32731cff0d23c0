package chat

import (
	"context"

	"github.com/drill-dev/drill/internal/tools"
)

// ToolRunner runs the agent's tool calls against the services behind them
// (*tools.Client for the built-in order and carrier services).
type ToolRunner interface {
	// Call runs the function name with the model's arguments; a failed
	// call is in the result (Err, and Content the error the model is
	// shown), not an error.
	Call(ctx context.Context, name, arguments string) (tools.Result, error)
}

var _ ToolRunner = (*tools.Client)(nil)
