package proxyfleet

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/redis/go-redis/v9"

	"github.com/drill-dev/drill/internal/control"
	"github.com/drill-dev/drill/internal/redact"
)

// commandField is the field of a commands stream entry holding the command.
const commandField = "c"

// Send appends cmd to the fleet's commands stream, which every member reads
// and applies within moments (each command id once). cmd.ID must be set.
func Send(ctx context.Context, url, fleet string, cmd control.Command) error {
	if cmd.ID == "" {
		return fmt.Errorf("proxy fleet %s: a command needs an id", fleet)
	}
	c, err := dial(url)
	if err != nil {
		return err
	}
	defer c.Close()
	b, err := json.Marshal(cmd)
	if err != nil {
		return fmt.Errorf("proxy fleet: encoding the command: %w", err)
	}
	k := keys{fleet}
	err = c.XAdd(ctx, &redis.XAddArgs{Stream: k.commands(), MaxLen: CommandsMaxLen, Approx: true,
		Values: []any{commandField, b}}).Err()
	if err != nil {
		return fmt.Errorf("proxy fleet %s: sending the command through %s: %w", fleet, redact.URL(url), err)
	}
	return nil
}
