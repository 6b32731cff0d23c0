package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/inject"
	"github.com/drill-dev/drill/internal/chat"
	"github.com/drill-dev/drill/internal/drillfile"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/predict"
	"github.com/drill-dev/drill/internal/report"
	"github.com/drill-dev/drill/internal/session"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/tui"
)

// The workload kinds (--workload).
const (
	workloadTriage = "triage"
	workloadChat   = chat.WorkloadName
)

// chatFlags are the chat workload's flags of drill compare.
type chatFlags struct {
	workload      string
	incidents     []string
	seeds         string
	conversations int
	rate          float64
	// policy holds the new chat policy flags' values (the others are
	// triage's flags of the same name); read by chatPolicy.
	readTimeout, budgetTime, deadline  time.Duration
	maxTokens                          int
	retries, turnLimit, validity, loop int
	budgetTokens                       int
	statusBreaker                      bool
	// toolBreakers guards the tools; toolScope is their scope;
	// toolOutages are DEP=KIND outages in the incident window.
	toolBreakers bool
	toolScope    string
	toolOutages  []string
	// profileFaults replace the fault that plays a class of the profile.
	profileFaults []string
	// file is the drill file's chat: section, if one was given.
	file *drillfile.ChatFile
}

func (c *chatFlags) register(fs *pflag.FlagSet) {
	d := chat.DefaultConfig()
	fs.StringVar(&c.workload, "workload", workloadTriage, "the workload: triage (120 support emails through the chain) or chat (support conversations with tool calls)")
	fs.StringSliceVar(&c.incidents, "incident", []string{chat.IncidentMixed}, "chat: the incident kinds to run: "+strings.Join(chat.IncidentKinds(), ", "))
	fs.StringVar(&c.seeds, "seeds", "", "chat: run every policy on each of these seeds (1..5, or 1,4,7) to show the spread")
	fs.IntVar(&c.conversations, "conversations", d.Conversations, "chat: how many conversations start")
	fs.Float64Var(&c.rate, "conversation-rate", d.Rate, "chat: conversations started per second")
	p := d.Policy
	fs.DurationVar(&c.readTimeout, "read-timeout", p.ReadTimeout, "chat: the longest wait for a model's next bytes (0: none)")
	fs.IntVar(&c.retries, "retries", p.Retries, "chat: the SDK's retries of a model call (an aborted stream uses one)")
	fs.IntVar(&c.turnLimit, "turn-limit", p.TurnLimit, "chat: the most model calls a conversation makes")
	fs.DurationVar(&c.deadline, "attempt-deadline", 0, "chat: a limit on each attempt from request to last byte (0: none)")
	fs.IntVar(&c.maxTokens, "max-tokens", 0, "chat: each model call's max_completion_tokens (0: none sent)")
	fs.BoolVar(&c.statusBreaker, "status-breaker", false, "chat check 1: the status breaker on the primary (--trip-failures, --cooldown tune it)")
	fs.IntVar(&c.validity, "validity", 0, "chat check 3: this many unparsable tool calls hand a conversation over (0: off)")
	fs.IntVar(&c.loop, "loop-guard", 0, "chat check 4: this many identical tool calls in a row hand it over (0: off)")
	fs.DurationVar(&c.budgetTime, "budget-time", 0, "chat check 5: the conversation's time budget, checked between calls (0: none)")
	fs.IntVar(&c.budgetTokens, "budget-tokens", 0, "chat check 5: the conversation's token budget (0: none)")
	fs.BoolVar(&c.toolBreakers, "tool-breakers", false, "chat: breakers on the tools (failure rate or p99 over a window), probing with synthetic calls")
	fs.StringVar(&c.toolScope, "tool-breaker-scope", chat.ToolScopeDependency, "chat: which tool calls share a breaker: dependency (the two carrier tools share one) or tool")
	fs.StringArrayVar(&c.profileFaults, "profile-fault", nil, "chat: the fault that plays a class of the profile, CLASS=KIND[,KEY=VALUE...] (slow=trickle,tokens_per_s=0.5); classes: "+strings.Join(chat.Classes(), ", ")+"; repeatable")
	fs.StringArrayVar(&c.toolOutages, "tool-outage", nil, "chat: an outage on a service in the incident window, DEP=KIND[,KEY=VALUE...] (carrier=hang, orders=busy,status=503); repeatable")
}

// toolSettings reads the tool breakers and the services' outages from the
// flags; outages play in the profile's incident window.
func (c *chatFlags) toolSettings(prof chat.Profile) (*chat.ToolBreakers, map[string][]event.Window, error) {
	var tb *chat.ToolBreakers
	if c.toolBreakers {
		tb = chat.DefaultToolBreakers()
		tb.Scope = c.toolScope
		if err := tb.Validate(); err != nil {
			return nil, nil, exit.Usagef("--tool-breaker-scope: %v", err)
		}
	}
	var outages map[string][]event.Window
	for _, spec := range c.toolOutages {
		dep, rest, ok := strings.Cut(spec, "=")
		if !ok {
			return nil, nil, exit.Usagef("--tool-outage %q: want DEP=KIND, e.g. carrier=hang", spec)
		}
		parts := strings.Split(rest, ",")
		w, err := inject.ParseFault(parts[0], parts[1:])
		if err != nil {
			return nil, nil, exit.Usagef("--tool-outage %q: %v", spec, err)
		}
		w.From, w.To = prof.IncidentFrom, prof.IncidentTo
		if outages == nil {
			outages = map[string][]event.Window{}
		}
		outages[dep] = append(outages[dep], w)
	}
	return tb, outages, nil
}

// chatPolicy reads the chat policy flags the user gave (check 2 is
// --min-tokens-per-s and --stream-check) into the one settings type.
func chatPolicy(fs *pflag.FlagSet) (drillfile.ChatPolicy, error) {
	var o drillfile.ChatPolicy
	for _, key := range drillfile.ChatPolicyKeys() {
		f := fs.Lookup(drillfile.FlagName(key))
		if f == nil || !f.Changed {
			continue
		}
		v := f.Value.String()
		var err error
		switch p := o.Field(key).(type) {
		case **drillfile.Duration:
			var d time.Duration
			d, err = time.ParseDuration(v)
			*p = (*drillfile.Duration)(&d)
		case **drillfile.Int:
			var n int64
			n, err = strconv.ParseInt(v, 10, 64)
			*p = drillfile.IntOf(n)
		case **bool:
			var b bool
			b, err = strconv.ParseBool(v)
			*p = &b
		case **float64:
			var x float64
			x, err = strconv.ParseFloat(v, 64)
			*p = &x
		}
		if err != nil {
			return o, exit.Usagef("--%s %q: %v", f.Name, v, err)
		}
	}
	return o, nil
}

// chosen reports whether the chat workload was asked for (--workload chat,
// or a drill file with a chat: section), refusing an unknown workload, and
// loads that section.
func (c *chatFlags) chosen(fs *pflag.FlagSet) (bool, error) {
	explicit := fs.Changed("workload")
	switch {
	case explicit && c.workload != workloadChat && c.workload != workloadTriage:
		return false, exit.Usagef("unknown workload %q (valid: %s, %s)", c.workload, workloadTriage, workloadChat)
	case explicit && c.workload == workloadTriage:
		return false, nil
	}
	if path, _ := fs.GetString("file"); path != "" {
		f, err := drillfile.Load(path)
		switch {
		case err != nil && explicit:
			return false, exit.UsageError(err)
		case err != nil:
			return false, nil // the triage path reads it again and says what is wrong
		case f.Chat != nil:
			c.file, c.workload = f.Chat, workloadChat
			return true, nil
		case explicit:
			return false, exit.Usagef("%s has no chat: section, and --workload is chat", path)
		}
	}
	return explicit, nil
}

// fromFile lays the drill file's chat: section under the flags: a setting
// the file gives is used unless its flag was given too.
func (c *chatFlags) fromFile(fs *pflag.FlagSet, policies *[]string) (drillfile.ChatPolicy, error) {
	over, err := chatPolicy(fs)
	f := c.file
	if err != nil || f == nil {
		return over, err
	}
	if f.Conversations != nil && !fs.Changed("conversations") {
		c.conversations = int(*f.Conversations)
	}
	if f.Rate != nil && !fs.Changed("conversation-rate") {
		c.rate = *f.Rate
	}
	if len(f.Incidents) > 0 && !fs.Changed("incident") {
		c.incidents = f.Incidents
	}
	if len(f.Policies) > 0 && !fs.Changed("policies") && !fs.Changed("policy") {
		*policies = f.Policies
	}
	if len(f.Seeds) > 0 && c.seeds == "" {
		parts := make([]string, len(f.Seeds))
		for i, s := range f.Seeds {
			parts[i] = strconv.FormatInt(s, 10)
		}
		c.seeds = strings.Join(parts, ",")
	}
	// The flags given win over the file's policy keys.
	merged := f.Policy
	mv, ov := reflect.ValueOf(&merged).Elem(), reflect.ValueOf(over)
	for i := range ov.NumField() {
		if !ov.Field(i).IsNil() {
			mv.Field(i).Set(ov.Field(i))
		}
	}
	return merged, nil
}

// parseSeeds reads "1..5" or "1,4,7".
func parseSeeds(s string) ([]int64, error) {
	if lo, hi, ok := strings.Cut(s, ".."); ok {
		a, err1 := strconv.ParseInt(strings.TrimSpace(lo), 10, 64)
		b, err2 := strconv.ParseInt(strings.TrimSpace(hi), 10, 64)
		if err1 != nil || err2 != nil || b < a || b-a >= 1000 {
			return nil, fmt.Errorf("--seeds %q: want a range like 1..5 (at most 1,000 seeds)", s)
		}
		var out []int64
		for v := a; v <= b; v++ {
			out = append(out, v)
		}
		return out, nil
	}
	var out []int64
	for _, part := range strings.Split(s, ",") {
		v, err := strconv.ParseInt(strings.TrimSpace(part), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("--seeds %q: want a range like 1..5 or a list like 1,4,7", s)
		}
		out = append(out, v)
	}
	return out, nil
}

// chatConfigs builds one chat drill per incident, policy and seed.
func chatConfigs(fs *pflag.FlagSet, c chatFlags, policies []string) ([]chat.Config, error) {
	over, err := c.fromFile(fs, &policies)
	if err != nil {
		return nil, err
	}
	seed, _ := fs.GetInt64("seed")
	seeds := []int64{seed}
	if c.seeds != "" {
		var err error
		if seeds, err = parseSeeds(c.seeds); err != nil {
			return nil, exit.UsageError(err)
		}
	}
	var cfgs []chat.Config
	for _, inc := range c.incidents {
		prof, err := chat.IncidentProfile(inc)
		if err != nil {
			return nil, exit.Usagef("--incident: %v", err)
		}
		if c.file != nil {
			c.file.ApplyProfile(&prof)
		}
		tb, toolOutages, err := c.toolSettings(prof)
		if err != nil {
			return nil, err
		}
		if c.file != nil && (c.file.ToolBreakers != nil || len(c.file.ToolOutages) > 0) {
			ftb, fout, err := c.file.Tools()
			if err != nil {
				return nil, exit.UsageError(err)
			}
			if tb == nil {
				tb = ftb
			}
			for dep, ws := range fout {
				if toolOutages == nil {
					toolOutages = map[string][]event.Window{}
				}
				toolOutages[dep] = append(toolOutages[dep], ws...)
			}
		}
		for _, spec := range c.profileFaults {
			class, rest, _ := strings.Cut(spec, "=")
			parts := strings.Split(rest, ",")
			w, err := inject.ParseFault(parts[0], parts[1:])
			if err != nil || !slices.Contains(chat.Classes(), class) {
				return nil, exit.Usagef("--profile-fault %q: want CLASS=KIND[,KEY=VALUE...] with a class of %s (%v)", spec, strings.Join(chat.Classes(), ", "), err)
			}
			prof.Faults[class] = w.FaultSpec
		}
		for _, name := range policies {
			pol, err := chat.PolicyByName(name)
			if err != nil {
				return nil, exit.Usagef("--policies: %v", err)
			}
			if err := over.Apply(&pol, func(k string) string { return "--" + drillfile.FlagName(k) }); err != nil {
				return nil, exit.UsageError(err)
			}
			for _, s := range seeds {
				cfg := chat.DefaultConfig()
				cfg.Conversations, cfg.Rate, cfg.Seed = c.conversations, c.rate, s
				cfg.Incident, cfg.Profile, cfg.Policy = inc, prof, pol
				cfg.ToolBreakers, cfg.ToolOutages = tb, toolOutages
				if set := over.Set(); len(set) > 0 {
					cfg.Overrides = set
				}
				cfgs = append(cfgs, cfg)
			}
		}
	}
	return cfgs, nil
}

// compareChat is `drill compare --workload chat`: every incident × policy
// × seed at once, printed side by side (or as a JSON array of summaries).
func compareChat(cmd *cobra.Command, c chatFlags, policies []string, asJSON, virtual bool, recordDir string, force bool) error {
	if !cmd.Flags().Changed("policies") {
		policies = chat.PresetNames()
	}
	cfgs, err := chatConfigs(cmd.Flags(), c, policies)
	if err != nil {
		return err
	}
	jobs := make([]session.ChatJob, len(cfgs))
	if recordDir != "" {
		if err := journal.PrepareDir(recordDir); err != nil {
			return err
		}
	}
	for i, cfg := range cfgs {
		jobs[i].Config = cfg
		if recordDir != "" {
			jobs[i].Journal = filepath.Join(recordDir, fmt.Sprintf("%02d-chat-%s-%s-seed%d.jsonl", i+1, cfg.Incident, strings.ReplaceAll(cfg.Policy.Name, "+", "_"), cfg.Seed))
			if err := journal.RefuseOverwrite(jobs[i].Journal, force); err != nil {
				return err
			}
		}
	}
	outs, err := session.ChatDrills(cmd.Context(), jobs, virtual, cmd.ErrOrStderr())
	if err != nil {
		return err
	}
	sums := make([]scoring.ChatSummary, len(outs))
	var errs []error
	for i, o := range outs {
		sums[i] = o.Summary
		if o.Error != "" {
			errs = append(errs, fmt.Errorf("run %d (%s / %s / seed %d): %s", i+1, cfgs[i].Incident, cfgs[i].Policy.Name, cfgs[i].Seed, o.Error))
		}
	}
	if asJSON {
		errs = append(errs, encodeJSON(cmd.OutOrStdout(), sums))
	} else {
		errs = append(errs, report.ChatCompare(cmd.OutOrStdout(), sums))
	}
	if slices.ContainsFunc(outs, func(o session.ChatOutcome) bool { return o.Status == "interrupted" }) {
		errs = append(errs, exit.ErrInterrupted)
	}
	return errors.Join(errs...)
}

// chatJournal reports whether the journal at path is a chat run's, from
// its first event.
func chatJournal(cmd *cobra.Command, path string) (bool, error) {
	found, isChat := false, false
	_, err := journal.ScanContext(cmd.Context(), path, func(e event.Event) error {
		if !found {
			found, isChat = true, scoring.IsChat([]event.Event{e})
		}
		return errStopScan
	})
	if err != nil && !errors.Is(err, errStopScan) {
		return false, journal.ReadError(cmd.Context(), err)
	}
	return isChat, nil
}

// errStopScan stops a journal scan once it has what it needs.
var errStopScan = errors.New("enough read")

// replayChat prints a chat journal's figures, recomputed by the fold the
// live run used (as JSON with asJSON), or one conversation's trace; with
// show (a terminal, no --no-tui) it first shows the Conversations view.
func replayChat(cmd *cobra.Command, path string, conversation int, asJSON, show bool) error {
	j, err := journal.ReadFileContext(cmd.Context(), path)
	if err != nil {
		return journal.ReadError(cmd.Context(), err)
	}
	if show && conversation == 0 {
		if err := tui.ReplayChat(cmd.Context(), j.Events, tui.Options{}); err != nil {
			if cmd.Context().Err() != nil {
				return exit.ErrInterrupted
			}
			return err
		}
	}
	fold := scoring.NewChatFold(conversation)
	for _, e := range j.Events {
		fold.Add(e)
	}
	out := cmd.OutOrStdout()
	if conversation > 0 {
		row, ok := fold.Row(conversation)
		if !ok {
			return exit.Usagef("--conversation %d: the journal has no such conversation (1..%d)", conversation, len(fold.Rows()))
		}
		t := scoring.ChatTrace{Conversation: row, Steps: fold.Trace()}
		if asJSON {
			return encodeJSON(out, t)
		}
		return report.ChatTrace(out, t)
	}
	sum := fold.Summary()
	if j.Summary != nil && j.Summary.Chat != nil && !reflect.DeepEqual(*j.Summary.Chat, sum) {
		fmt.Fprintln(cmd.ErrOrStderr(), "drill: the figures recomputed from the events differ from the journal's summary line; showing the recomputed ones")
	}
	if asJSON {
		return encodeJSON(out, sum)
	}
	return report.ChatCompare(out, []scoring.ChatSummary{sum})
}

// chatPredictFlags are drill predict's chat inputs.
type chatPredictFlags struct {
	within       time.Duration
	trickle      float64
	answerTokens int
}

func (c *chatPredictFlags) register(fs *pflag.FlagSet) {
	d := predict.DefaultChatInputs()
	fs.DurationVar(&c.within, "within", 0, "chat: the wait a conversation should fit in; each case then says the setting that makes it fit")
	fs.Float64Var(&c.trickle, "trickle", d.TrickleTokensPerS, "chat: the trickling provider's tokens a second")
	fs.IntVar(&c.answerTokens, "answer-tokens", d.AnswerTokens, "chat: an answer's length in tokens when the policy sets no --max-tokens")
}

// predictChat is `drill predict --workload chat`: the worst case of one
// conversation under the policy (and the chat policy flags given) for a
// silent, a trickling and an overloaded provider.
func predictChat(cmd *cobra.Command, policy string, c chatPredictFlags, asJSON bool) error {
	fs := cmd.Flags()
	if !fs.Changed("policy") {
		policy = chat.PresetDefaults
	}
	pol, err := chat.PolicyByName(policy)
	if err != nil {
		return exit.Usagef("--policy: %v", err)
	}
	over, err := chatPolicy(fs)
	if err != nil {
		return err
	}
	if err := over.Apply(&pol, func(k string) string { return "--" + drillfile.FlagName(k) }); err != nil {
		return exit.UsageError(err)
	}
	if !(c.trickle > 0) || c.answerTokens < 1 || c.within < 0 {
		return exit.Usagef("--trickle must be above 0, --answer-tokens at least 1 and --within not negative")
	}
	p := predict.Chat(pol, predict.ChatInputs{TrickleTokensPerS: c.trickle, AnswerTokens: c.answerTokens, Within: c.within})
	if asJSON {
		return encodeJSON(cmd.OutOrStdout(), p)
	}
	return report.ChatPrediction(cmd.OutOrStdout(), pol.Name, p)
}

// reportChat is `drill report` of chat journals: the comparison table and
// each run's chart of its slowest conversations and silent endings.
func reportChat(cmd *cobra.Command, paths []string, out string, dpi int) error {
	runs := make([]report.ChatRun, len(paths))
	for i, p := range paths {
		r, err := report.ReadChatRun(p)
		if err != nil {
			return exit.UsageError(err)
		}
		runs[i] = r
	}
	if err := report.WriteChatReport(out, runs, dpi); err != nil {
		if errors.Is(err, report.ErrFormat) {
			return exit.UsageError(err)
		}
		return err
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "drill: wrote %s (%d chat run%s)\n", out, len(runs), map[bool]string{true: "", false: "s"}[len(runs) == 1])
	return nil
}

// runChat is `drill run --workload chat`: one chat drill (the policy, the
// first incident and seed), recorded to record if set, its figures printed
// as a table or as the JSON object drill replay --json prints of its
// journal.
func runChat(cmd *cobra.Command, c chatFlags, policy string, asJSON, virtual bool, record string, force bool) error {
	fs := cmd.Flags()
	if !fs.Changed("policy") {
		policy = chat.PresetDefaults
	}
	cfgs, err := chatConfigs(fs, c, []string{policy})
	if err != nil {
		return err
	}
	if len(cfgs) > 1 {
		fmt.Fprintf(cmd.ErrOrStderr(), "drill: run makes one drill: %s, incident %s, seed %d (drill compare runs them all)\n",
			cfgs[0].Policy.Name, cfgs[0].Incident, cfgs[0].Seed)
	}
	job := session.ChatJob{Config: cfgs[0], Journal: record}
	if record != "" {
		if err := journal.RefuseOverwrite(record, force); err != nil {
			return err
		}
	}
	outs, err := session.ChatDrills(cmd.Context(), []session.ChatJob{job}, virtual, cmd.ErrOrStderr())
	if err != nil {
		return err
	}
	o := outs[0]
	if o.Status == event.StatusFailed {
		return fmt.Errorf("chat drill: %s", o.Error)
	}
	var errs []error
	if o.Error != "" {
		errs = append(errs, errors.New(o.Error))
	}
	if asJSON {
		errs = append(errs, encodeJSON(cmd.OutOrStdout(), o.Summary))
	} else {
		errs = append(errs, report.ChatCompare(cmd.OutOrStdout(), []scoring.ChatSummary{o.Summary}))
	}
	if o.Status == event.StatusInterrupted {
		errs = append(errs, exit.ErrInterrupted)
	}
	return errors.Join(errs...)
}
