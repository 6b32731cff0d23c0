package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/drill-dev/drill/internal/cli"
	"github.com/drill-dev/drill/internal/plain"
)

func newSDKsCmd() *cobra.Command {
	var (
		tf      cli.TableFormat
		jsonOut bool
	)
	cmd := &cobra.Command{
		Use:   "sdks",
		Short: "What each OpenAI client library does against each fault, from its SDK profile",
		Long: `Print the SDK profiles drill predict --sdk and drill proxy read: first, per
fault, what one call of openai-go, the openai npm package and openai-python
does when every attempt meets it (attempts, waits, the error and when), with
each SDK's default retries; then what each profile was read from and says
(retries, backoff, Retry-After rules, what the time limit covers, what is
retried, what was measured rather than read).`,
		Example: `  drill sdks
  drill sdks --format md
  drill sdks --json`,
		Args: cli.UsageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			out := cmd.OutOrStdout()
			if jsonOut {
				return plain.SDKJSON(out)
			}
			md := tf.Width(out) < 0
			if err := tf.WriteTable(out, plain.SDKBehaviour(md)); err != nil {
				return err
			}
			if _, err := fmt.Fprintln(out); err != nil {
				return err
			}
			return tf.WriteTable(out, plain.SDKFacts(md))
		},
	}
	cli.RegisterTableFormat(cmd.Flags(), &tf)
	cmd.Flags().BoolVar(&jsonOut, "json", false, "print every profile and what one call does in each case as JSON")
	return cmd
}
