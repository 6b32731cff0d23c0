package main

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/drill-dev/drill/internal/control"
	"github.com/drill-dev/drill/internal/control/client"
	"github.com/drill-dev/drill/internal/redact"
)

// sendFleet sends the command make builds to the proxy fleet through its
// Redis (drill ctl --coordinate) and says so.
func (f *ctlFlags) sendFleet(cmd *cobra.Command, make func(who string) (control.Command, error)) error {
	c, err := client.SendFleet(ctx(cmd), f.coordinate, f.fleet, f.as, make)
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	if f.json {
		return json.NewEncoder(out).Encode(c)
	}
	fmt.Fprintf(out, "sent to fleet %s through %s (command %s, by %s)\n", f.fleet, redact.URL(f.coordinate), c.ID, redact.Terminal(c.Who))
	return nil
}
