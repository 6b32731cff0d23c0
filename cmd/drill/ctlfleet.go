package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/drill-dev/drill/internal/control"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/fleet/redisstore"
	"github.com/drill-dev/drill/internal/proxyfleet"
	"github.com/drill-dev/drill/internal/redact"
)

// sendFleet sends the command make builds to the proxy fleet through its
// Redis (drill ctl --coordinate): every member applies it, each id once.
// The sender is --as at this host's name.
func (f *ctlFlags) sendFleet(cmd *cobra.Command, make func(who string) (control.Command, error)) error {
	if f.fleet == "" {
		return exit.Usagef("--coordinate needs --fleet, the proxy fleet's name")
	}
	if err := redisstore.CheckURL(f.coordinate); err != nil {
		return exit.Usagef("--coordinate %s: want redis://HOST:PORT/DB: %s", redact.URL(f.coordinate), redact.Text(err.Error()))
	}
	if err := proxyfleet.CheckName("--fleet", f.fleet); err != nil {
		return exit.UsageError(err)
	}
	if err := control.CheckName(f.as); err != nil {
		return exit.UsageError(fmt.Errorf("--as: %w", err))
	}
	host, _ := os.Hostname()
	who := host
	if f.as != "" {
		who = f.as + "@" + host
	}
	c, err := make(who)
	if err != nil {
		return exit.UsageError(err)
	}
	if err := proxyfleet.Send(ctx(cmd), f.coordinate, f.fleet, c); err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	if f.json {
		return json.NewEncoder(out).Encode(c)
	}
	fmt.Fprintf(out, "sent to fleet %s through %s (command %s, by %s)\n", f.fleet, redact.URL(f.coordinate), c.ID, redact.Terminal(c.Who))
	return nil
}
