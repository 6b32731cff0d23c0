package plan

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/chat"
	"github.com/drill-dev/drill/internal/drillfile"
	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/workload"
)

// barWidth is the width of a timeline bar, in columns.
const barWidth = 60

// WriteTimeline writes what the file will play: the workload, the models,
// the runs, each outage's windows on a time bar (# the fault hits every
// attempt, + some of them, . none), the hypotheses and the abort
// conditions.
func WriteTimeline(w io.Writer, f *drillfile.File) error {
	d := workload.DefaultConfig()
	emails, rate, seed, follow := d.Emails, d.Rate, d.Seed, d.Follow
	if f.Workload.Emails != nil {
		emails = int(*f.Workload.Emails)
	}
	if f.Workload.Rate != nil {
		rate = *f.Workload.Rate
	}
	if f.Workload.Seed != nil {
		seed = int64(*f.Workload.Seed)
	}
	switch {
	case f.Workload.Follow != nil:
		follow = int(*f.Workload.Follow)
	case follow > emails:
		follow = 0
	}
	last := time.Duration(float64(emails-1) / rate * float64(time.Second))
	end := last
	for _, win := range f.Outages {
		end = max(end, win.To)
	}
	lastText, endText := format.FileSecs(last), format.FileSecs(end)
	var b strings.Builder
	fmt.Fprintf(&b, "drill file %s\n", f.Path)
	fmt.Fprintf(&b, "workload: %d emails at %g/s (the last sent at %s), seed %d", emails, rate, lastText, seed)
	if follow > 0 {
		fmt.Fprintf(&b, ", following email %d", follow)
	}
	if f.Workload.Stream {
		b.WriteString(", streamed")
	}
	if f.Workload.MaxDuration != nil {
		fmt.Fprintf(&b, ", ceiling %s", f.Workload.MaxDuration)
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "models:   primary %s, backup %s\n",
		modelText(f.Models.Primary, d.PrimaryModel), modelText(f.Models.Backup, d.BackupModel))
	outs, pols := f.Scenarios(), f.PolicyList()
	var names []string
	for _, p := range pols {
		names = append(names, policyText(p))
	}
	fmt.Fprintf(&b, "policies: %s\n", strings.Join(names, "; "))
	writeRoutes(&b, f)
	fmt.Fprintf(&b, "runs:     %s × %s = %s (drill run plays the first; drill compare plays them all)\n",
		format.Plural(len(outs), "outage"), format.Plural(len(pols), "policy"), format.Plural(len(outs)*len(pols), "run"))
	for _, o := range outs {
		fmt.Fprintf(&b, "\noutage %s\n", o.Name)
		if len(o.Windows) == 0 {
			b.WriteString("  no fault: every model answers\n")
			continue
		}
		fmt.Fprintf(&b, "  %-*s%s\n", barWidth-len(endText), "0s", endText)
		ws := make([]event.Window, len(o.Windows))
		for i, win := range o.Windows {
			ws[i] = win.Window
		}
		b.WriteString("  " + bar(ws, end) + "\n")
		for _, win := range o.Windows {
			fmt.Fprintf(&b, "  %s\n", windowText(win.Window, win.Name))
		}
	}
	writeHypotheses(&b, f.Hypotheses)
	if len(f.Abort) > 0 {
		b.WriteString("\nabort as soon as:\n")
		for _, a := range f.Abort {
			fmt.Fprintf(&b, "  %s\n", a)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// bar draws the windows over [0, end): each column is the fault's state at
// the column's middle (# every attempt hit, + some, . none); the newest
// window wins where windows overlap, and a flapping window in an off
// period leaves no fault.
func bar(ws []event.Window, end time.Duration) string {
	cols := make([]byte, barWidth)
	for c := range cols {
		at := time.Duration((float64(c) + 0.5) / barWidth * float64(end))
		cols[c] = '.'
		for k := len(ws) - 1; k >= 0; k-- {
			w := ws[k]
			if !w.Contains(at) {
				continue
			}
			switch {
			case !w.On(at):
			case w.Partial():
				cols[c] = '+'
			default:
				cols[c] = '#'
			}
			break
		}
	}
	return string(cols)
}

// windowText describes one window of the timeline; name is its outage's
// name, shown when it is not the fault kind.
func windowText(w event.Window, name string) string {
	models := "primary"
	if len(w.Models) > 0 {
		models = strings.Join(w.Models, " and ")
	}
	// Durations are written as the drill file writes them (15s, 1m30s), to
	// the millisecond: a window read from a journal carries the offsets of
	// the events it was found from, nanoseconds and all.
	from, to := drillfile.Duration(w.From.Round(time.Millisecond)), drillfile.Duration(w.To.Round(time.Millisecond))
	s := fmt.Sprintf("%s–%s  %s on %s", from, to, w.Kind, models)
	if name != "" && name != w.Kind {
		s += fmt.Sprintf(" (%s)", name)
	}
	rate := w.Rate
	if rate == 0 {
		rate = 1 // every attempt
	}
	switch {
	case w.Ramp:
		s += fmt.Sprintf(", hitting 0%% of attempts rising to %g%% at %s", 100*rate, to)
	case rate < 1:
		s += fmt.Sprintf(", hitting %g%% of attempts", 100*rate)
	}
	if w.Flap != nil {
		on, off := drillfile.Duration(w.Flap.On), drillfile.Duration(w.Flap.Off)
		s += fmt.Sprintf(", flapping %s on / %s off", on, off)
	}
	for _, k := range slices.Sorted(maps.Keys(w.Params)) {
		s += fmt.Sprintf(", %s=%s", k, w.Params[k])
	}
	return s
}

func modelText(m drillfile.Model, def string) string {
	name := m.Model
	if name == "" {
		name = def
	}
	if m.IsFake() {
		return name + " (fake model)"
	}
	return fmt.Sprintf("%s at %s (key from $%s)", name, m.RedactedURL(), m.KeyEnv())
}

func policyText(p drillfile.Policy) string {
	var set []string
	add := func(k string, v any, ok bool) {
		if ok {
			set = append(set, fmt.Sprintf("%s %v", k, v))
		}
	}
	if p.Preset == "" {
		add("backup", deref(p.Backup), true)
		add("breaker", deref(p.Breaker), true)
		add("canned", deref(p.Canned), true)
	}
	set = append(set, p.Overrides.Set()...)
	s := p.PolicyName()
	if p.Preset != "" && p.Preset != s {
		s += " (" + p.Preset + ")"
	}
	if len(set) > 0 {
		s += " with " + strings.Join(set, ", ")
	}
	return s
}

func deref(b *bool) bool {
	return b != nil && *b
}

// WriteChatTimeline writes what a chat drill file (a chat: section, or
// `workload: chat`) will play, built by the same ChatConfigs drill compare
// --workload chat uses: the conversations, each incident's window and the
// services' outages in it, each policy's checks, the tool breakers and the
// runs. A setting that does not check is a usage error.
func WriteChatTimeline(w io.Writer, f *drillfile.File) error {
	fs := pflag.NewFlagSet("validate", pflag.ContinueOnError)
	var c ChatFlags
	c.Register(fs)
	fs.Int64("seed", chat.DefaultConfig().Seed, "")
	c.file = f.Chat
	cfgs, err := ChatConfigs(fs, c, chat.PresetNames())
	if err != nil {
		return err
	}
	first := cfgs[0]
	var incidents, policies []string
	seeds := map[int64]bool{}
	byIncident := map[string]chat.Config{}
	byPolicy := map[string]chat.Policy{}
	for _, cfg := range cfgs {
		if _, ok := byIncident[cfg.Incident]; !ok {
			incidents = append(incidents, cfg.Incident)
			byIncident[cfg.Incident] = cfg
		}
		if _, ok := byPolicy[cfg.Policy.Name]; !ok {
			policies = append(policies, cfg.Policy.Name)
			byPolicy[cfg.Policy.Name] = cfg.Policy
		}
		seeds[cfg.Seed] = true
	}
	var b strings.Builder
	fmt.Fprintf(&b, "drill file %s\n", f.Path)
	last := time.Duration(float64(first.Conversations-1) / first.Rate * float64(time.Second))
	seedList := slices.Sorted(maps.Keys(seeds))
	fmt.Fprintf(&b, "workload: chat, %d conversations at %g/s (the last started at %s), %s %s\n",
		first.Conversations, first.Rate, format.FileSecs(last), format.Noun(len(seedList), "seed"), joinInts(seedList))
	b.WriteString("policies:\n")
	for _, name := range policies {
		p := byPolicy[name]
		checks := strings.Join(p.Checks(), "; ")
		if checks == "" {
			checks = "no check"
		}
		fmt.Fprintf(&b, "  %-*s read timeout %s, %d retries, turn limit %d; %s\n",
			maxLen(policies), name, format.GoDuration(p.ReadTimeout), p.Retries, p.TurnLimit, checks)
	}
	if tb := first.ToolBreakers; tb != nil {
		fmt.Fprintf(&b, "tool breakers: scope %s, %s, cooldown %s, synthetic probes\n",
			tb.Scope, tb.Settings.WithDefaults().Trip, format.GoDuration(tb.Settings.WithDefaults().Cooldown))
	}
	fmt.Fprintf(&b, "runs:     %s × %s × %s = %s (drill run plays the first; drill compare plays them all)\n",
		format.Plural(len(incidents), "incident"), format.Plural(len(policies), "policy"), format.Plural(len(seedList), "seed"), format.Plural(len(cfgs), "run"))
	for _, inc := range incidents {
		cfg := byIncident[inc]
		prof := cfg.Profile
		fmt.Fprintf(&b, "\nincident %s\n", inc)
		if inc == chat.IncidentNone {
			b.WriteString("  no incident: the models keep a normal day's rates\n")
		} else {
			fmt.Fprintf(&b, "  %s–%s  the models' incident rates\n", format.GoDuration(prof.IncidentFrom), format.GoDuration(prof.IncidentTo))
		}
		for _, dep := range slices.Sorted(maps.Keys(cfg.ToolOutages)) {
			for _, win := range cfg.ToolOutages[dep] {
				fmt.Fprintf(&b, "  %s–%s  %s on the %s service\n", format.GoDuration(win.From), format.GoDuration(win.To), win.Kind, dep)
			}
		}
	}
	writeHypotheses(&b, f.Hypotheses)
	_, err = io.WriteString(w, b.String())
	return err
}

func joinInts(v []int64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ", ")
}

func maxLen(v []string) int {
	n := 0
	for _, s := range v {
		n = max(n, len(s))
	}
	return n
}

// writeHypotheses lists a drill file's hypotheses, if any.
func writeHypotheses(b *strings.Builder, hyps []string) {
	if len(hyps) == 0 {
		return
	}
	b.WriteString("\nhypotheses (checked at the end):\n")
	for _, h := range hyps {
		fmt.Fprintf(b, "  %s\n", h)
	}
}
