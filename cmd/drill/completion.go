package main

import (
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/breaker"
	"github.com/drill-dev/drill/chain"
	"github.com/drill-dev/drill/inject"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/redact"
	"github.com/drill-dev/drill/workload"
)

// flagValues are the values shell completion offers for each flag name,
// on whichever command has it. The lists come from the packages that
// check the values, so completion and validation never disagree.
func flagValues() map[string]func(toComplete string) []string {
	fixed := func(vs ...string) func(string) []string { return func(string) []string { return vs } }
	models := []string{fakemodel.ModelMini, fakemodel.ModelNano}
	return map[string]func(string) []string{
		"outage":           fixed(workload.OutageKinds()...),
		"outages":          list(workload.OutageKinds()),
		"policy":           fixed(workload.PresetNames()...),
		"policies":         list(workload.PresetNames()),
		"primary-model":    fixed(models...),
		"backup-model":     fixed(models...),
		"model":            fixed(append(models, "all")...),
		"time-limit-scope": fixed(string(chain.ScopeAttempt), string(chain.ScopeRequest)),
		"breaker-scope":    fixed(breaker.Scopes()...),
		"probe":            fixed(breaker.ProbeKinds()...),
		"retry-after":      fixed(breaker.RetryAfterModes()...),
		"stale":            fixed(breaker.StaleModes()...),
		"clock":            fixed(clocks...),
		"fault":            faultKeys,
	}
}

// list completes a comma-separated list flag: the values not given yet,
// after the ones already typed.
func list(all []string) func(string) []string {
	return func(toComplete string) []string {
		done := strings.Split(toComplete, ",")
		prefix := strings.Join(done[:len(done)-1], ",")
		if prefix != "" {
			prefix += ","
		}
		have := map[string]bool{}
		for _, d := range done {
			have[d] = true
		}
		var out []string
		for _, v := range all {
			if !have[v] {
				out = append(out, prefix+v)
			}
		}
		return out
	}
}

// faultKeys completes --fault: every kind's parameters and the modifiers,
// as KEY=.
func faultKeys(string) []string {
	seen := map[string]bool{}
	var out []string
	add := func(k string) {
		if !seen[k] {
			seen[k] = true
			out = append(out, k+"=")
		}
	}
	for _, kind := range inject.Kinds() {
		keys, err := inject.Keys(kind)
		if err != nil {
			continue
		}
		for _, k := range keys {
			add(k)
		}
	}
	for _, k := range inject.ModifierKeys() {
		add(k)
	}
	return out
}

// registerCompletions registers value completion for every flag of cmd and
// its subcommands that flagValues knows.
func registerCompletions(cmd *cobra.Command) {
	values := flagValues()
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
