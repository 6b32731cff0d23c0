package cli

import (
	"context"
	"io"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Env is what a command's run takes of its cobra command: the context
// (Ctrl-C ends it), the flags as parsed, stdout and stderr.
type Env struct {
	Ctx context.Context
	// Flags are the command's flags, parsed: which were given, the files
	// they name.
	Flags *pflag.FlagSet
	// Out and Err are the command's stdout and stderr.
	Out, Err io.Writer
}

// EnvOf is cmd's Env.
func EnvOf(cmd *cobra.Command) Env {
	return Env{Ctx: cmd.Context(), Flags: cmd.Flags(), Out: cmd.OutOrStdout(), Err: cmd.ErrOrStderr()}
}
