package main

import (
	"github.com/spf13/cobra"

	"github.com/drill-dev/drill/internal/cli"
	"github.com/drill-dev/drill/internal/sweeprun"
)

func newRecommendCmd() *cobra.Command {
	rf := &sweeprun.RecommendFlags{}
	cmd := &cobra.Command{
		Use:   "recommend",
		Short: "Search policy settings per class of email and recommend the one to ship",
		Long: `For each class of email (a drill file's routes:, or the built-in classes), search
policy settings against the outages to hold against and a day with no outage,
on the virtual clock with repeats, and keep the settings whose measured p95
wait during every outage is within what the class's customers can wait
(--within, or the route's within:), whose quality clears --min-all4-right, and
that keep the normal day: with no outage at most --normal-max-fallback of the
class's emails left to the backup or a person, and all 4 right no worse than
--normal-min-all4-right (default: the primary alone's 95 % interval). Of those
it recommends the best quality in its worst outage, then the shortest p95
wait, and says why; it lists the other settings that met the bounds and why
each rejected one failed, with drill predict's arithmetic beside the measured
figures and a drill-file snippet to paste. A class whose route says backup:
never keeps it; the built-in safety and billing-error classes are kept off the
backup. Exit 1, with the reason and the closest setting, when a class's bounds
cannot be met. docs/routes.md.`,
		Example: `  drill recommend --within 5s --outages busy,hang
  drill recommend -f examples/routes.yaml --json
  drill recommend --within 5s --route safety=breaker,never,person --grid primary-timeout=1s,2s,3s
  drill recommend --within 5s --normal-max-fallback 10% --normal-min-all4-right 0.9`,
		Args: cli.UsageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error { return sweeprun.Recommend(sweepEnv(cmd), rf) },
	}
	rf.Register(cmd.Flags())
	return cmd
}
