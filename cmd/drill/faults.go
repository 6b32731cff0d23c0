package main

import (
	"strings"

	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/inject"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/workload"
)

// faultFlags are the outage's parameters and modifiers (--fault KEY=VALUE,
// repeatable) and the streaming workload (--stream), shared by run and
// compare.
type faultFlags struct {
	settings []string
	stream   bool
}

func (f *faultFlags) register(fs *pflag.FlagSet) {
	fs.StringArrayVar(&f.settings, "fault", nil, "the outage's parameter or modifier as KEY=VALUE, repeatable: e.g. --fault retry_after=20s --fault rate=0.5 (keys per kind: the README's fault catalogue; modifiers: "+
		strings.Join(inject.ModifierKeys(), ", ")+")")
	fs.BoolVar(&f.stream, "stream", false, "make every model call a streamed chat completion (with stream_options.include_usage); events record time to first token and tokens per second")
}

// apply sets cfg's outage window from the --fault settings, and streaming.
// An unknown key or a bad value is a usage error listing the valid keys.
func (f *faultFlags) apply(cfg *workload.Config) error {
	cfg.Stream = f.stream
	if len(f.settings) == 0 {
		return nil
	}
	if cfg.Outage == workload.OutageNone {
		return exit.Usagef("--fault sets the outage's parameters, and --outage is none")
	}
	w, err := inject.ParseFault(cfg.Outage, f.settings)
	if err != nil {
		return exit.Usagef("--fault: %v", err)
	}
	w.From, w.To = cfg.OutageFrom, cfg.OutageTo
	cfg.Outages = []inject.Window{w}
	return nil
}

// outageHelp is the --outage flag's help: every fault kind and none.
func outageHelp() string {
	return "outage kind: " + strings.Join(workload.OutageKinds(), ", ") + " (parameters and modifiers with --fault)"
}
