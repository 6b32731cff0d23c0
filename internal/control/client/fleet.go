package client

import (
	"context"
	"fmt"
	"os"

	"github.com/drill-dev/drill/internal/control"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/fleet/redisstore"
	"github.com/drill-dev/drill/internal/proxyfleet"
	"github.com/drill-dev/drill/internal/redact"
)

// SendFleet sends the command make builds to the proxy fleet named fleet
// through its Redis at url (drill ctl --coordinate): every member applies
// it, each id once. The sender is as (drill ctl --as) at this host's name.
// A bad url, fleet or name is a usage error.
func SendFleet(ctx context.Context, url, fleet, as string, make func(who string) (control.Command, error)) (control.Command, error) {
	if fleet == "" {
		return control.Command{}, exit.Usagef("--coordinate needs --fleet, the proxy fleet's name")
	}
	if err := redisstore.CheckURL(url); err != nil {
		return control.Command{}, exit.Usagef("--coordinate %s: want redis://HOST:PORT/DB: %s", redact.URL(url), redact.Text(err.Error()))
	}
	if err := proxyfleet.CheckName("--fleet", fleet); err != nil {
		return control.Command{}, exit.UsageError(err)
	}
	if err := control.CheckName(as); err != nil {
		return control.Command{}, exit.UsageError(fmt.Errorf("--as: %w", err))
	}
	host, _ := os.Hostname()
	who := host
	if as != "" {
		who = as + "@" + host
	}
	c, err := make(who)
	if err != nil {
		return control.Command{}, exit.UsageError(err)
	}
	return c, proxyfleet.Send(ctx, url, fleet, c)
}
