package main

import (
	"github.com/spf13/cobra"

	"github.com/drill-dev/drill/internal/outfile"
)

// inputFlags are the flags naming a file a command reads.
var inputFlags = []string{"file", "emails-file", "outage-from-journal"}

// inputsOf is every file cmd reads that its flags name, and extra (the
// journals a command reads as arguments): no output may be one of them.
func inputsOf(cmd *cobra.Command, extra ...string) []string {
	var in []string
	for _, name := range inputFlags {
		if f := cmd.Flags().Lookup(name); f != nil && f.Changed {
			in = append(in, f.Value.String())
		}
	}
	return append(in, extra...)
}

// notInput refuses an output flag's path that names one of cmd's inputs
// (outfile.NotInput), --force or not.
func notInput(cmd *cobra.Command, flag, path string, extra ...string) error {
	return outfile.NotInput(flag, path, inputsOf(cmd, extra...))
}
