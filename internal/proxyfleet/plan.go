package proxyfleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/drill-dev/drill/event"
)

// Plan is a fleet's shared schedule: the outage windows every member plays
// and the moment their offsets count from. The first member to join sets
// it; every later member plays it, whatever its own flags say.
type Plan struct {
	// Start is when the fleet's run started; every member's offsets count
	// from it.
	Start time.Time `json:"start"`
	// Windows is the outage timeline, offsets from Start.
	Windows []event.Window `json:"windows"`
	// Models limits the outage to requests naming these models (empty:
	// every request).
	Models []string `json:"models,omitempty"`
	// By is the member that set the plan.
	By string `json:"by"`
}

// Agree sets the fleet's plan to proposed if none is set (SET NX, kept
// PlanTTL) and returns the plan in force: proposed, or the one an earlier
// member set. joined is true when an earlier member's plan is in force.
func Agree(ctx context.Context, url, fleet string, proposed Plan) (plan Plan, joined bool, err error) {
	c, err := dial(url)
	if err != nil {
		return Plan{}, false, err
	}
	defer c.Close()
	return agree(ctx, c, keys{fleet}, proposed)
}

func agree(ctx context.Context, c *redis.Client, k keys, proposed Plan) (Plan, bool, error) {
	b, err := json.Marshal(proposed)
	if err != nil {
		return Plan{}, false, fmt.Errorf("proxy fleet: encoding the plan: %w", err)
	}
	set, err := c.SetNX(ctx, k.plan(), b, PlanTTL).Result()
	if err != nil {
		return Plan{}, false, fmt.Errorf("proxy fleet %s: setting the plan: %w", k.fleet, err)
	}
	if set {
		return proposed, false, nil
	}
	got, err := c.Get(ctx, k.plan()).Bytes()
	if errors.Is(err, redis.Nil) {
		return Plan{}, false, fmt.Errorf("proxy fleet %s: the plan expired while joining; start again", k.fleet)
	}
	if err != nil {
		return Plan{}, false, fmt.Errorf("proxy fleet %s: reading the plan: %w", k.fleet, err)
	}
	var p Plan
	if err := json.Unmarshal(got, &p); err != nil {
		return Plan{}, false, fmt.Errorf("proxy fleet %s: reading the plan: %w", k.fleet, err)
	}
	return p, true, nil
}
