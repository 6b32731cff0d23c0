package main

import (
	"github.com/spf13/cobra"

	"github.com/drill-dev/drill/internal/exit"
)

// usageArgs makes a cobra argument check's error a usage error.
func usageArgs(check cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error { return exit.UsageError(check(cmd, args)) }
}

// flagError is cobra's flag error function: drill's words, exit 2.
func flagError(cmd *cobra.Command, err error) error {
	return exit.FlagError(err, func(name string) string {
		if f := cmd.Flags().Lookup(name); f != nil {
			return f.Value.Type()
		}
		return ""
	})
}
