package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/chat"
)

// withChatHelp makes cmd's help, given --workload chat, describe its policy
// flag (--policy or --policies) as the chat workload reads it: the chat
// presets (with checks added by name) and the chat default, def.
func withChatHelp(cmd *cobra.Command, def ...string) *cobra.Command {
	cmd.SetHelpFunc(func(c *cobra.Command, args []string) {
		if w, _ := c.Flags().GetString("workload"); w == event.WorkloadChat {
			for _, name := range []string{"policy", "policies"} {
				if fl := c.Flags().Lookup(name); fl != nil {
					fl.Usage = "chat policy presets: " + strings.Join(chat.PresetNames(), ", ") + ", each with checks added by name (agent-defaults+budget; checks: " +
						strings.Join([]string{chat.CheckBreaker, chat.CheckStream, chat.CheckValidity, chat.CheckLoop, chat.CheckBudget}, ", ") + ")"
					fl.DefValue = strings.Join(def, ",")
					if name == "policies" {
						fl.DefValue = "[" + fl.DefValue + "]"
					}
				}
			}
		}
		c.Parent().HelpFunc()(c, args)
	})
	return cmd
}
