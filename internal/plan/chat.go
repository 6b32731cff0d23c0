package plan

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/inject"
	"github.com/drill-dev/drill/internal/chat"
	"github.com/drill-dev/drill/internal/drillfile"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/scoring"
)

// ChatFlags are the chat workload's flags of drill run, compare and
// predict (--workload chat), bound by Register.
type ChatFlags struct {
	workload      string
	incidents     []string
	seeds         string
	conversations int
	rate          float64
	// policy holds the new chat policy flags' values (the others are
	// triage's flags of the same name); read by ChatPolicyFlags.
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
	// agentProfile names the agent's size (--agent-profile).
	agentProfile string
	// file is the drill file's chat: section, if one was given;
	// hypotheses are that file's hypotheses:.
	file       *drillfile.ChatFile
	hypotheses []string
}

// Register binds the chat flags to fs (check 2 and the breaker's trip
// failures and cooldown are the triage flags of the same names).
func (c *ChatFlags) Register(fs *pflag.FlagSet) {
	before := map[string]bool{}
	fs.VisitAll(func(fl *pflag.Flag) { before[fl.Name] = true })
	defer fs.VisitAll(func(fl *pflag.Flag) {
		if !before[fl.Name] && fl.Name != "workload" {
			MarkChatOnly(fs, fl.Name)
		}
	})
	d := chat.DefaultConfig()
	fs.StringVar(&c.workload, "workload", event.WorkloadTriage, "the workload: triage (120 support emails through the chain) or chat (support conversations with tool calls)")
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
	fs.StringVar(&c.agentProfile, "agent-profile", d.Agent.Name, "chat: the agent's size, its fixed prompt and answer length: "+strings.Join(chat.AgentProfileNames(), ", "))
	fs.StringArrayVar(&c.toolOutages, "tool-outage", nil, "chat: an outage on a service in the incident window, DEP=KIND[,KEY=VALUE...] (carrier=hang, orders=busy,status=503); repeatable")
}

// toolSettings reads the tool breakers and the services' outages from the
// flags; outages play in the profile's incident window.
func (c *ChatFlags) toolSettings(prof chat.Profile) (*chat.ToolBreakers, map[string][]event.Window, error) {
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

// ChatPolicyFlags reads the chat policy flags the user gave (check 2 is
// --min-tokens-per-s and --stream-check) into the one settings type.
func ChatPolicyFlags(fs *pflag.FlagSet) (drillfile.ChatPolicy, error) {
	var o drillfile.ChatPolicy
	for _, key := range drillfile.ChatPolicyKeys() {
		name := drillfile.FlagName(key)
		if !fs.Changed(name) {
			continue
		}
		if err := setFromFlag(fs, name, o.Field(key)); err != nil {
			return o, fmt.Errorf("flag --%s: %w", name, err)
		}
	}
	return o, nil
}

// chatOnly is the annotation that marks a flag only the chat workload
// reads (MarkChatOnly).
const chatOnly = "drill/chat-only"

// MarkChatOnly marks flags of fs that only the chat workload reads: given
// without it, they are a usage error (Chosen).
func MarkChatOnly(fs *pflag.FlagSet, names ...string) {
	for _, name := range names {
		if err := fs.SetAnnotation(name, chatOnly, []string{"true"}); err != nil {
			panic(err) // a flag not registered: a programming error
		}
	}
}

// bothWorkloads are the flags both workloads read, besides the chat
// policy's keys that are triage flags too (--trip-failures, --cooldown,
// the stream check's).
var bothWorkloads = []string{"workload", "file", "seed", "policy", "policies", "clock", "json", "no-tui", "speed", "record", "force", "expect", "format", "help", "sdk"}

// checkWorkloadFlags refuses, as a usage error, flags given that the chosen
// workload does not read: a chat flag without the chat workload, or with it
// a triage flag, rather than running as if they were not there.
func checkWorkloadFlags(fs *pflag.FlagSet, isChat bool) error {
	policyKeys := map[string]bool{}
	for _, key := range drillfile.ChatPolicyKeys() {
		policyKeys[drillfile.FlagName(key)] = true
	}
	var unread []string
	fs.Visit(func(fl *pflag.Flag) {
		_, onlyChat := fl.Annotations[chatOnly]
		switch {
		case isChat && !onlyChat && !policyKeys[fl.Name] && !slices.Contains(bothWorkloads, fl.Name):
			unread = append(unread, "--"+fl.Name)
		case !isChat && onlyChat:
			unread = append(unread, "--"+fl.Name)
		}
	})
	names, is, a, s := strings.Join(unread, ", "), "is", "a ", ""
	if len(unread) > 1 {
		is, a, s = "are", "", "s"
	}
	switch {
	case len(unread) == 0:
		return nil
	case isChat:
		return exit.Usagef("%s %s not %ssetting%s of the chat workload", names, is, a, s)
	}
	return exit.Usagef("%s %s %schat flag%s: add --workload chat", names, is, a, s)
}

// Chosen reports whether the chat workload was asked for (--workload chat,
// or a drill file with a chat: section), refusing an unknown workload,
// loads that section, and refuses flags the chosen workload does not read
// (checkWorkloadFlags).
func (c *ChatFlags) Chosen(fs *pflag.FlagSet) (bool, error) {
	isChat, err := c.chosen(fs)
	if err != nil {
		return false, err
	}
	return isChat, checkWorkloadFlags(fs, isChat)
}

func (c *ChatFlags) chosen(fs *pflag.FlagSet) (bool, error) {
	explicit := fs.Changed("workload")
	switch {
	case explicit && c.workload != event.WorkloadChat && c.workload != event.WorkloadTriage:
		return false, unknownWorkload(c.workload)
	case explicit && c.workload == event.WorkloadTriage:
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
			c.file, c.workload, c.hypotheses = f.Chat, event.WorkloadChat, f.Hypotheses
			return true, nil
		case explicit:
			return false, exit.Usagef("%s has no chat: section, and --workload is chat", path)
		}
	}
	return explicit, nil
}

// fromFile lays the drill file's chat: section under the flags: a setting
// the file gives is used unless its flag was given too.
func (c *ChatFlags) fromFile(fs *pflag.FlagSet, policies *[]string) (drillfile.ChatPolicy, error) {
	over, err := ChatPolicyFlags(fs)
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
	if f.AgentProfile != "" && !fs.Changed("agent-profile") {
		c.agentProfile = f.AgentProfile
	}
	if len(f.Seeds) > 0 && c.seeds == "" {
		parts := make([]string, len(f.Seeds))
		for i, s := range f.Seeds {
			parts[i] = strconv.FormatInt(s, 10)
		}
		c.seeds = strings.Join(parts, ",")
	}
	return f.Policy.Merge(over), nil // the flags given win over the file's policy keys
}

// Hypotheses are the chat drill's checks: the drill file's hypotheses:
// and then expect (--expect), each a chat figure's check
// (scoring.ParseChatExpr); one that does not parse is a usage error.
func (c *ChatFlags) Hypotheses(expect []string) ([]string, error) {
	if _, err := scoring.ParseChatExprs(expect); err != nil {
		return nil, exit.Usagef("--expect: %w", err)
	}
	return append(slices.Clone(c.hypotheses), expect...), nil
}

// ParseSeeds reads --seeds: "1..5" or "1,4,7".
func ParseSeeds(s string) ([]int64, error) {
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

// ChatConfigs builds one chat drill per incident, policy and seed.
func ChatConfigs(fs *pflag.FlagSet, c ChatFlags, policies []string) ([]chat.Config, error) {
	over, err := c.fromFile(fs, &policies)
	if err != nil {
		return nil, err
	}
	seeds, agent, err := c.checkShape(fs, policies)
	if err != nil {
		return nil, err
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
		tb, toolOutages, err := c.tools(prof)
		if err != nil {
			return nil, err
		}
		if err := c.applyProfileFaults(&prof); err != nil {
			return nil, err
		}
		for _, name := range policies {
			pol, err := resolvePolicy(fs, name, over)
			if err != nil {
				return nil, err
			}
			for _, s := range seeds {
				cfg := chat.DefaultConfig()
				cfg.Conversations, cfg.Rate, cfg.Seed = c.conversations, c.rate, s
				cfg.Incident, cfg.Profile, cfg.Policy, cfg.Agent = inc, prof, pol, agent
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

// checkShape checks the drills' shape (incidents, policies, the
// conversations and their rate, the agent's profile) and returns the seeds
// (--seeds, else --seed) and the agent.
func (c *ChatFlags) checkShape(fs *pflag.FlagSet, policies []string) ([]int64, chat.AgentProfile, error) {
	seed, _ := fs.GetInt64("seed")
	seeds := []int64{seed}
	if c.seeds != "" {
		var err error
		if seeds, err = ParseSeeds(c.seeds); err != nil {
			return nil, chat.AgentProfile{}, exit.UsageError(err)
		}
	}
	switch {
	case len(c.incidents) == 0:
		return nil, chat.AgentProfile{}, exit.Usagef("--incident: name at least one incident kind (valid: %s)", strings.Join(chat.IncidentKinds(), ", "))
	case len(policies) == 0:
		return nil, chat.AgentProfile{}, exit.Usagef("--policies: name at least one chat policy (valid: %s)", strings.Join(chat.PresetNames(), ", "))
	}
	if err := chat.CheckConversations(c.conversations); err != nil {
		return nil, chat.AgentProfile{}, exit.Usagef("--conversations %w", err)
	}
	if err := chat.CheckRate(c.rate); err != nil {
		return nil, chat.AgentProfile{}, exit.Usagef("--conversation-rate %w", err)
	}
	if err := chat.CheckArrivals(c.conversations, c.rate); err != nil {
		return nil, chat.AgentProfile{}, exit.Usagef("--conversations and --conversation-rate: %w", err)
	}
	agent, err := chat.AgentProfileByName(c.agentProfile)
	if err != nil {
		return nil, chat.AgentProfile{}, exit.Usagef("--agent-profile: %v", err)
	}
	return seeds, agent, nil
}

// tools are the tool breakers and the services' outages of an incident's
// drills: the flags' (toolSettings), with the drill file's tool_breakers:
// when no flag sets them, and the file's tool_outages: added.
func (c *ChatFlags) tools(prof chat.Profile) (*chat.ToolBreakers, map[string][]event.Window, error) {
	tb, toolOutages, err := c.toolSettings(prof)
	if err != nil {
		return nil, nil, err
	}
	if c.file == nil || (c.file.ToolBreakers == nil && len(c.file.ToolOutages) == 0) {
		return tb, toolOutages, nil
	}
	ftb, fout, err := c.file.Tools()
	if err != nil {
		return nil, nil, exit.UsageError(err)
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
	return tb, toolOutages, nil
}

// Policy is the one chat policy drill predict reads: name (--policy; else
// the drill file's first policy, else agent-defaults) with the file's
// policy keys and then the flags given laid over it.
func (c *ChatFlags) Policy(fs *pflag.FlagSet, name string) (chat.Policy, error) {
	policies := []string{chat.PresetDefaults}
	if fs.Changed("policy") {
		policies = []string{name}
	}
	over, err := c.fromFile(fs, &policies)
	if err != nil {
		return chat.Policy{}, err
	}
	return resolvePolicy(fs, policies[0], over)
}

// resolvePolicy is the chat preset name with over's settings applied.
func resolvePolicy(fs *pflag.FlagSet, name string, over drillfile.ChatPolicy) (chat.Policy, error) {
	pol, err := chat.PolicyByName(name)
	if err != nil {
		return chat.Policy{}, exit.Usagef("%s: %v", policyFlag(fs), err)
	}
	if err := over.Apply(&pol, func(k string) string { return "--" + drillfile.FlagName(k) }); err != nil {
		return chat.Policy{}, exit.UsageError(err)
	}
	return pol, nil
}

// policyFlag is how fs's command names its chat policies: --policy (run,
// predict) or --policies (compare, sweep).
func policyFlag(fs *pflag.FlagSet) string {
	if fs.Lookup("policies") == nil {
		return "--policy"
	}
	return "--policies"
}

// RegisterWorkload adds --workload to a command that runs the triage
// workload only, so that --workload chat gets a clear usage error
// (TriageOnly) rather than an unknown flag.
func RegisterWorkload(fs *pflag.FlagSet) {
	fs.String("workload", event.WorkloadTriage, "the workload: only triage here (chat is not supported by this command yet)")
}

// TriageOnly is the usage error (exit 2) of a command that runs the triage
// workload only, given --workload chat (or any other than triage), or a
// drill file with a chat: section.
func TriageOnly(fs *pflag.FlagSet, command string) error {
	w, err := fs.GetString("workload")
	if err != nil {
		return nil
	}
	if path, _ := fs.GetString("file"); path != "" && w == event.WorkloadTriage && !fs.Changed("workload") {
		if f, err := drillfile.Load(path); err == nil && f.Chat != nil {
			w = event.WorkloadChat // the file is a chat drill
		}
	}
	if w == event.WorkloadTriage {
		return nil
	}
	if w == event.WorkloadChat {
		return exit.Usagef("%s does not support the chat workload yet (only triage): run a chat drill with drill run --workload chat or drill compare --workload chat", command)
	}
	return unknownWorkload(w)
}

// unknownWorkload is the usage error (exit 2) of a --workload that is
// neither triage nor chat.
func unknownWorkload(w string) error {
	return exit.Usagef("unknown workload %q (valid: %s, %s)", w, event.WorkloadTriage, event.WorkloadChat)
}
