package cli

import (
	"errors"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/suggest"
)

// UsageArgs makes a cobra argument check's error a usage error.
func UsageArgs(check cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error { return exit.UsageError(check(cmd, args)) }
}

// pathFlags are the flags that name a file or directory, on any command.
var pathFlags = []string{"record", "output", "emails-file", "file", "log"}

// EmptyPaths refuses a path flag given an empty value (--record ""): taken
// as given, it would quietly mean "not recording", "no file".
func EmptyPaths(cmd *cobra.Command, _ []string) error {
	for _, name := range pathFlags {
		if f := cmd.Flags().Lookup(name); f != nil && f.Changed && f.Value.String() == "" {
			return exit.Usagef("--%s needs a path; an empty one was given", name)
		}
	}
	return nil
}

// CommandArgs is the check of a command that takes no arguments of its
// own, only subcommands: an argument is a command that does not exist,
// answered with the nearest command and the list of them.
func CommandArgs(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	var names []string
	for _, c := range cmd.Commands() {
		if c.IsAvailableCommand() {
			names = append(names, c.Name())
		}
	}
	return exit.Usagef("unknown command %q%s (commands: %s)", args[0], suggest.DidYouMean(args[0], "", names), strings.Join(names, ", "))
}

// FlagError is cobra's flag error function: drill's words, exit 2, and for
// an unknown flag the nearest of the command's flags ("did you mean").
func FlagError(cmd *cobra.Command, err error) error {
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
