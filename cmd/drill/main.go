// Command drill runs outage drills on an LLM-calling workload: 120 support
// emails through a fallback chain guarded by circuit breakers, with outages
// injected under the real openai-go SDK. This package only parses flags,
// wires packages together and maps errors to exit codes.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/drill-dev/drill/internal/chat"
	"github.com/drill-dev/drill/internal/cli"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/redact"
	"github.com/drill-dev/drill/internal/vclock"
)

// version is drill's version, set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

func init() { journal.Version = version }

func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "drill",
		Short: "Outage drills for an LLM-calling workload, live in the terminal",
		Long: `drill sends 120 support emails through a fallback chain (primary model, backup
model, canned reply) guarded by circuit breakers, injects outages at the HTTP
transport under the real openai-go SDK, and shows what happens.

With no command, drill runs the default drill (busy outage 15–40 s, breaker
policy, built-in fake model) in the live dashboard.

Exit codes: 0 ok (every hypothesis held), 1 failure (a hypothesis failed, or
a run nothing answered), 2 usage error, 3 aborted by an abort condition,
130 interrupted (Ctrl-C). "go run" prints its own "exit status N" and exits
1 for any of them: build drill (go install ./cmd/drill) to see the codes.`,
		Example: `  drill                                         # the default drill, live
  drill run --outage hang --policy fail-fast    # one outage against one policy
  drill run --outage hang --clock virtual --no-tui --json
  drill compare --outages busy,hang --record runs/
  drill report runs/ -o report.html             # every journal in runs/
  drill replay runs/07-hang-breaker.jsonl --at 45s
  drill init && drill run -f drill.yaml         # a drill file with hypotheses
  source <(drill completion bash)               # completion, flag values too`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       version,
		Args:          cli.CommandArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runDefault(cmd)
		},
	}
	root.SetFlagErrorFunc(cli.FlagError)
	root.PersistentPreRunE = cli.EmptyPaths
	root.AddCommand(withChatHelp(newRunCmd(), chat.PresetDefaults), withChatHelp(newCompareCmd(), chat.PresetNames()...),
		newReplayCmd(), newReportCmd(), newEvalCmd(), newFakeModelCmd(), withChatHelp(newPredictCmd(), chat.PresetDefaults))
	root.AddCommand(newInitCmd(), newValidateCmd())
	root.AddCommand(newProxyCmd(), newVersionCmd(), newSDKsCmd(), newCtlCmd())
	root.AddCommand(newWatchCmd(), newJournalCmd())
	root.AddCommand(newFleetCmd(), newFleetWorkerCmd())
	registerCompletions(root)
	root.AddCommand(withChatHelp(newSweepCmd(), chat.PresetDefaults), newRecommendCmd())
	root.AddCommand(newHistoryCmd())
	strictCompletion(root)
	return root
}

func main() {
	vclock.Main() // a --clock virtual child process runs its drills and exits here
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// After the first Ctrl-C, a second one kills drill at once.
	go func() { <-ctx.Done(); stop() }()
	root := newRootCmd()
	// What the commands print came partly from input (names, journals):
	// never an escape sequence or a secret (the dashboards draw on the
	// terminal directly).
	root.SetOut(redact.NewTerminalWriter(os.Stdout))
	err := root.ExecuteContext(ctx)
	switch {
	case errors.Is(err, exit.ErrInterrupted):
		fmt.Fprintln(os.Stderr, "drill: interrupted")
	case err != nil:
		fmt.Fprintln(os.Stderr, "drill:", redact.TerminalLines(err.Error()))
	}
	stop()
	os.Exit(exit.Code(err))
}
