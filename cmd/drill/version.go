package main

import (
	"fmt"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/drill-dev/drill/internal/cli"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/plain"
)

// versionInfo is what `drill version` prints: the versions a journal's
// header records for the run it holds.
type versionInfo struct {
	Drill    string `json:"drill_version"`
	Go       string `json:"go_version"`
	OpenAIGo string `json:"openai_go_version"`
}

func newVersionCmd() *cobra.Command {
	var jsonOut bool
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print drill's version and the Go and openai-go versions it was built with",
		Long: `Print the versions a journal's header records (drill_version, go_version,
openai_go_version): drill's own, the Go toolchain it was built with, and the
openai-go SDK module it calls models through.`,
		Example: `  drill version
  drill version --json`,
		Args: cli.UsageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			v := versionInfo{Drill: journal.DrillVersion(), Go: runtime.Version(), OpenAIGo: journal.OpenAIGoVersion()}
			out := cmd.OutOrStdout()
			if jsonOut {
				return plain.JSON(out, v)
			}
			_, err := fmt.Fprintf(out, "drill %s\ngo %s\nopenai-go %s\n", v.Drill, v.Go, v.OpenAIGo)
			return err
		},
	}
	cmd.Flags().BoolVar(&jsonOut, "json", false, "print the versions as JSON, with the journal header's keys")
	return cmd
}
