package main

import (
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/internal/cli"
	"github.com/drill-dev/drill/internal/complete"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/redact"
)

// registerCompletions registers value completion for every flag of cmd and
// its subcommands that flagValues knows.
func registerCompletions(cmd *cobra.Command) {
	values := complete.FlagValues(cli.Clocks)
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		fn, ok := values[f.Name]
		if !ok {
			return
		}
		directive := cobra.ShellCompDirectiveNoFileComp
		if f.Name == "fault" {
			directive |= cobra.ShellCompDirectiveNoSpace
		}
		// Registering twice (a flag shared by commands) is an error cobra
		// reports and that changes nothing: ignore it.
		_ = cmd.RegisterFlagCompletionFunc(f.Name, func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			if f.Name == "outages" || f.Name == "policies" {
				return fn(toComplete), directive | cobra.ShellCompDirectiveNoSpace
			}
			return fn(toComplete), directive
		})
	})
	for _, c := range cmd.Commands() {
		registerCompletions(c)
	}
}

// strictCompletion makes `drill completion SHELL` with a shell cobra does
// not generate a usage error (exit 2) listing the shells, where cobra's
// default command printed its help and exited 0. It adds cobra's default
// completion command first, so that there is one to make strict.
func strictCompletion(root *cobra.Command) {
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() != "completion" {
			continue
		}
		var shells []string
		for _, sc := range c.Commands() {
			shells = append(shells, sc.Name())
		}
		c.Args = cobra.ArbitraryArgs
		c.RunE = func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return cmd.Help()
			}
			return exit.Usagef("completion: unknown shell %q (valid: %s)", redact.Terminal(args[0]), strings.Join(shells, ", "))
		}
	}
}
