package proxyfleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/drill-dev/drill/internal/control"
	"github.com/drill-dev/drill/internal/redact"
)

// commandField is the field of a commands stream entry holding the command.
const commandField = "c"

// Send appends cmd to the fleet's commands stream, which every member reads
// and applies within moments (each command id once). cmd.ID must be set.
func Send(ctx context.Context, url, fleet string, cmd control.Command) error {
	c, err := dial(url)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := sendCommand(ctx, c, keys{fleet}, cmd); err != nil {
		return fmt.Errorf("proxy fleet %s: sending the command through %s: %w", fleet, redact.URL(url), err)
	}
	return nil
}

// sendCommand appends cmd to k's commands stream.
func sendCommand(ctx context.Context, c *redis.Client, k keys, cmd control.Command) error {
	if cmd.ID == "" {
		return errors.New("a command needs an id")
	}
	b, err := json.Marshal(cmd)
	if err != nil {
		return fmt.Errorf("encoding the command: %w", err)
	}
	return c.XAdd(ctx, &redis.XAddArgs{Stream: k.commands(), MaxLen: CommandsMaxLen, Approx: true,
		Values: []any{commandField, b}}).Err()
}

// sendTimeout bounds how long Apply waits for Redis to take a command.
const sendTimeout = 2 * time.Second

// Apply applies cmd to this member's target and, once applied (or a stop
// that found nothing here), sends it to every other member through the
// commands stream; this member's own reader then meets its id again and
// skips it. It is how a command given to one member (its control API)
// reaches the fleet. A command applied here but not sent (Redis away) is
// an error saying so.
func (m *Member) Apply(cmd control.Command) error {
	err := m.opts.Target.Apply(cmd)
	if err != nil && !errors.Is(err, control.ErrNoOutage) {
		return err
	}
	ctx, cancel := context.WithTimeout(m.ctx, sendTimeout)
	defer cancel()
	if serr := sendCommand(ctx, m.c, m.k, cmd); serr != nil {
		return errors.Join(err, fmt.Errorf("applied on member %s only: sending it to fleet %s: %w", m.opts.Member, m.opts.Fleet, serr))
	}
	return err
}
