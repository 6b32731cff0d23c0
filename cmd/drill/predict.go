package main

import (
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/internal/chatrun"
	"github.com/drill-dev/drill/internal/cli"
	"github.com/drill-dev/drill/internal/drillfile"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/internal/plan"
	"github.com/drill-dev/drill/internal/predict"
	"github.com/drill-dev/drill/internal/sdkprofile"
	"github.com/drill-dev/drill/workload"
)

func newPredictCmd() *cobra.Command {
	var (
		f              plan.CLI
		outage, policy string
		sdk            string
		jsonOut        bool
		cf             plan.ChatFlags
		ci             chatrun.PredictFlags
	)
	cmd := &cobra.Command{
		Use:   "predict",
		Short: "Before running: when the breaker will trip, the worst wait and the calls to the broken model",
		Long: `Predict a drill from its settings and outage alone, without running it: the
time one failure takes to be counted (attempts × time limit plus the SDK's
backoff range with its jitter), when the Nth failure lands at the arrival rate,
the breaker's first open as a range, the worst wait of an email sent during the
outage and the calls to the broken model. It takes every flag drill run takes,
-f drill.yaml included (the file's first drill, or the one --outage and
--policy choose), and every outage kind; for a kind or window the arithmetic
does not read (it reads one window of busy, hang or slow hitting every
attempt) it says so in place of figures, as a run's predicted_note does.`,
		Example: `  drill predict --outage hang --policy breaker
  drill predict --outage hang --policy breaker --trip count,in-flight --in-flight-age 4s
  drill predict --outage busy --policy fail-fast --json
  drill predict -f drill.yaml
  drill predict --workload chat --policy agent-all-checks --within 60s`,
		Args: cli.UsageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if isChat, err := cf.Chosen(cmd.Flags()); err != nil {
				return err
			} else if isChat {
				file, _ := cmd.Flags().GetString("file")
				prof, err := predictSDK(cmd.Flags(), sdk, file)
				if err != nil {
					return err
				}
				return chatrun.Predict(cli.EnvOf(cmd), chatrun.PredictOptions{Policy: policy, Chat: cf, Inputs: ci, SDK: prof, JSON: jsonOut})
			}
			cfgs, _, err := f.Plan(cmd.Flags(), plan.Selection{Outages: []string{outage}, Policies: []string{policy},
				OutagesFlag: "outage", PoliciesFlag: "policy", Verb: "predicting"}, cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			cli.Warn(cmd.ErrOrStderr(), f.Warnings())
			cfg := cfgs[0]
			prof, err := predictSDK(cmd.Flags(), sdk, f.File())
			if err != nil {
				return err
			}
			p, err := predict.ComputeFor(cfg, prof)
			if err != nil {
				return exit.UsageError(err)
			}
			return plain.Prediction(cmd.OutOrStdout(), cfg, p, jsonOut)
		},
	}
	d := workload.DefaultConfig()
	fs := cmd.Flags()
	fs.StringVar(&outage, "outage", d.Outage, plan.OutageHelp())
	fs.StringVar(&policy, "policy", d.Policy.Name, "policy preset: primary-only, backup-only, fallback, breaker, fail-fast")
	fs.StringVar(&sdk, "sdk", sdkprofile.Go, "the client library of the service predicted for: "+strings.Join(sdkprofile.Names(), ", ")+
		" (its retries' waits, Retry-After rules and what its time limit covers; drill file: predict.sdk)")
	fs.BoolVar(&jsonOut, "json", false, "print the predicted_* figures and the arithmetic as JSON")
	f.Register(fs)
	f.RegisterDrillFile(fs)
	cf.Register(fs)
	ci.Register(fs)
	return cmd
}

// predictSDK is the SDK profile drill predict uses: --sdk, else the drill
// file's predict.sdk, else openai-go. An unknown name exits 2 with the
// valid ones.
func predictSDK(fs *pflag.FlagSet, sdk, file string) (sdkprofile.Profile, error) {
	if !fs.Changed("sdk") && file != "" {
		df, err := drillfile.Load(file)
		if err != nil {
			return sdkprofile.Profile{}, exit.UsageError(err)
		}
		if df.Predict.SDK != "" {
			sdk = df.Predict.SDK
		}
	}
	p, err := sdkprofile.Lookup(sdk)
	if err != nil {
		return p, exit.Usagef("--sdk: %v", err)
	}
	return p, nil
}
