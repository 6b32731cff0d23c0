package main

import (
	"errors"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/suggest"
)

// usageArgs makes a cobra argument check's error a usage error.
func usageArgs(check cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error { return exit.UsageError(check(cmd, args)) }
}

// flagError is cobra's flag error function: drill's words, exit 2, and for
// an unknown flag the nearest of the command's flags ("did you mean").
func flagError(cmd *cobra.Command, err error) error {
	if name, ok := strings.CutPrefix(err.Error(), "unknown flag: --"); ok {
		var names []string
		cmd.Flags().VisitAll(func(f *pflag.Flag) {
			if !f.Hidden {
				names = append(names, f.Name)
			}
		})
		if hint := suggest.DidYouMean(name, "--", names); hint != "" {
			err = errors.New(err.Error() + hint)
		}
	}
	return exit.FlagError(err, func(name string) string {
		if f := cmd.Flags().Lookup(name); f != nil {
			return f.Value.Type()
		}
		return ""
	})
}
