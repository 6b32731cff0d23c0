package plan

import (
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/inject"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/suggest"
	"github.com/drill-dev/drill/workload"
)

// ProxyOutage is the outage timeline drill proxy applies, as its flags
// give it: one outage kind with its window and --fault settings, a drill
// file's named outage, or the fault pattern a journal recorded.
type ProxyOutage struct {
	Kind                  string        // --outage
	From, To              time.Duration // --outage-from, --outage-to
	Faults                []string      // --fault
	File, Name            string        // -f, --outage-name
	Journal, JournalModel string        // --outage-from-journal, --model
}

// Register adds the proxy's outage flags to fs.
func (o *ProxyOutage) Register(fs *pflag.FlagSet) {
	d := workload.DefaultConfig()
	fs.StringVar(&o.Kind, "outage", workload.OutageNone, "outage kind: "+strings.Join(ProxyOutageKinds(), ", ")+
		" (the chat kinds "+strings.Join(inject.ChatKinds(), ", ")+" break a client's tool-calling answers; parameters and modifiers with --fault)")
	fs.DurationVar(&o.From, "outage-from", d.OutageFrom, "when the outage starts, after the proxy starts")
	fs.DurationVar(&o.To, "outage-to", d.OutageTo, "when the outage ends")
	fs.StringArrayVar(&o.Faults, "fault", nil, "the outage's parameter or modifier as KEY=VALUE, repeatable, as for drill run: e.g. --fault retry_after=20s --fault rate=0.5 (modifiers: "+
		strings.Join(inject.ModifierKeys(), ", ")+")")
	fs.StringVarP(&o.File, "file", "f", "", "a drill file whose outage timeline to apply (one named outage: --outage-name picks it when the file has several)")
	fs.StringVar(&o.Name, "outage-name", "", "with -f: the named outage of the drill file to apply")
	RegisterJournalOutage(fs, &o.Journal, &o.JournalModel)
}

// ProxyOutageKinds lists the outage kinds drill proxy takes: every kind a
// triage drill takes, the chat workload's own (overloaded,
// malformed-tool-call, loop: a client's own tool-calling traffic gets
// them), and none.
func ProxyOutageKinds() []string { return append(proxyFaultKinds(), workload.OutageNone) }

// proxyFaultKinds are the fault kinds drill proxy applies.
func proxyFaultKinds() []string { return append(inject.Kinds(), inject.ChatKinds()...) }

// Windows is the outage timeline the flags ask for, with the notes to
// print about it. Errors are usage errors (exit 2).
func (o *ProxyOutage) Windows(fs *pflag.FlagSet) ([]event.Window, []string, error) {
	if o.File != "" {
		if o.Journal != "" {
			return nil, nil, exit.Usagef("-f and --outage-from-journal do not go together: each is a timeline")
		}
		if err := NoOutageFlags(fs, "-f", "the drill file"); err != nil {
			return nil, nil, err
		}
		ws, err := FileOutage(o.File, o.Name)
		return ws, nil, err
	}
	if fs.Changed("outage-name") {
		return nil, nil, exit.Usagef("--outage-name goes with -f")
	}
	if o.Journal != "" {
		if err := NoOutageFlags(fs, "--outage-from-journal", "the journal"); err != nil {
			return nil, nil, err
		}
		return JournalOutage(o.Journal, o.JournalModel)
	}
	if fs.Changed("model") {
		return nil, nil, exit.Usagef("--model goes with --outage-from-journal")
	}
	if !slices.Contains(ProxyOutageKinds(), o.Kind) {
		return nil, nil, exit.Usagef("unknown outage %q (valid: %s)%s", o.Kind, strings.Join(ProxyOutageKinds(), ", "),
			suggest.DidYouMean(o.Kind, "", ProxyOutageKinds()))
	}
	if o.From < 0 || o.To <= o.From {
		return nil, nil, exit.Usagef("the outage must start at or after 0 and end after it starts (got %s to %s)", o.From, o.To)
	}
	if o.Kind == workload.OutageNone {
		if fs.Changed("outage-from") || fs.Changed("outage-to") || fs.Changed("fault") {
			return nil, nil, exit.Usagef("--outage-from, --outage-to and --fault need an --outage (valid: %s)", strings.Join(proxyFaultKinds(), ", "))
		}
		return nil, nil, nil
	}
	w, err := inject.ParseFault(o.Kind, o.Faults)
	if err != nil {
		return nil, nil, exit.Usagef("--fault: %v", err)
	}
	if len(w.Models) > 0 {
		return nil, nil, exit.Usagef("--fault models=...: the proxy has one upstream; limit the outage to some models with --outage-model")
	}
	w.From, w.To = o.From, o.To
	return []event.Window{w}, nil, nil
}
