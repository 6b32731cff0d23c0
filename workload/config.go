package workload

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/drill-dev/drill/breaker"
	"github.com/drill-dev/drill/chain"
	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/inject"
	"github.com/drill-dev/drill/internal/edge"
	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/price"
)

// The default models: the names the built-in fake model serves (a test in
// cmd/drill checks they match fakemodel's), and a real provider's small and
// smallest model.
const (
	DefaultPrimaryModel = "gpt-5.4-mini"
	DefaultBackupModel  = "gpt-5.4-nano"
)

// DefaultSeed is the one default seed of the fake model's latencies for
// drill run and drill compare (and DefaultConfig). Every command takes --seed.
const DefaultSeed = 1

// MaxEmails is the most emails one drill sends. Past the data set's 120
// the emails cycle through it (emails.Nth): email n is data-set email
// ((n-1) mod 120)+1, with its truth, under its own number. The bound keeps
// a typo from asking for a run that cannot fit in memory: a 100,000-email
// drill peaks at about 0.6–1 GiB (docs/readme/scale.md).
const MaxEmails = 1_000_000

// MaxRate is the highest arrival rate, emails per second. The engine costs
// about 0.4–0.6 ms of CPU an email against the in-process fake model, so
// two idle cores keep up with a few thousand a second; past what the
// machine keeps up with, emails are sent late (each as soon as it can be)
// and the schedule is no longer t = i / rate.
const MaxRate = 10_000

// Endpoint is where the models are. The zero value is the built-in fake
// model, in-process.
type Endpoint struct {
	// BaseURL of an OpenAI-compatible API, e.g. https://api.openai.com/v1.
	// Empty means the built-in fake model.
	BaseURL string `json:"base_url,omitempty"`
	// APIKey is sent as a bearer token. It is never serialised.
	APIKey string `json:"-"`
	// KeyEnv is the name of the environment variable APIKey was read from
	// (OPENAI_API_KEY by default), recorded so a journal says where the key
	// came from and its writer can redact that variable's value.
	KeyEnv string `json:"key_env,omitempty"`
	// Transport overrides the HTTP transport below the SDK (tests use the
	// fake model's in-process transport). Never serialised.
	Transport http.RoundTripper `json:"-"`
}

// Config is a run's whole configuration. Durations are nanoseconds in JSON.
type Config struct {
	Emails int `json:"emails"`
	// Clock, when set, is logged as the run's clock right after run_start
	// (event.ClockVirtual for a run in a synctest bubble); "" means real.
	Clock string `json:"clock,omitempty"`
	// EmailSet is the emails to send, in order (a team's file, see
	// emails.Load); nil means the built-in 120.
	EmailSet []emails.Email `json:"email_set,omitempty"`
	Rate     float64        `json:"rate"` // emails per second
	Outage   string         `json:"outage"`
	// OutageName is a drill file's name for the outage when it is not the
	// kind (two busy outages of one file, "short-busy" and "long-busy");
	// "" elsewhere. OutageLabel is what views call the drill's outage.
	OutageName   string        `json:"outage_name,omitempty"`
	OutageFrom   time.Duration `json:"outage_from_ns"`
	OutageTo     time.Duration `json:"outage_to_ns"`
	Target       string        `json:"target"` // the rung whose model breaks
	Policy       Policy        `json:"policy"`
	PrimaryModel string        `json:"primary_model"`
	BackupModel  string        `json:"backup_model"`
	Seed         int64         `json:"seed"`
	Follow       int           `json:"follow"`
	MaxDuration  time.Duration `json:"max_duration_ns"` // 0: outage end + 120 s
	Endpoint     Endpoint      `json:"endpoint"`
	// Overrides are the settings the user changed from the preset and the
	// defaults, by flag name, as given; recorded in the run's info and
	// summary so a table says what it ran with.
	Overrides map[string]string `json:"overrides,omitempty"`
	// DrillFile is the drill file the run was planned from ("" for flags
	// alone): the journal header records it, so drill history can group
	// the runs of one file.
	DrillFile string `json:"drill_file,omitempty"`

	// lateTick, in tests, runs after email i's arrival timer fires and
	// before it is sent: a deliberately slow tick.
	lateTick func(i int)
	// Outages, when set, is the outage timeline (faults.go): it replaces
	// the single window Outage, OutageFrom and OutageTo describe, which
	// then only name the drill.
	Outages []event.Window `json:"outages,omitempty"`
	// Stream makes every model call a streamed chat completion.
	Stream bool `json:"stream,omitempty"`

	// Replica is the fleet replica (from 1) this run is, for outage
	// windows that name replicas; 0 outside a fleet (drill fleet sets it).
	Replica int `json:"replica,omitempty"`
	// Serves, if set, says which emails (by index, from 0) this run sends;
	// the others are left to other replicas and keep their due times.
	Serves func(i int) bool `json:"-"`
	// Feed, if set, replaces the arrival schedule's order: the run sends
	// the emails (by index, from 0) it receives, in that order, each at its
	// due time (i / rate) or at once if that has passed, and its arrivals
	// end when Feed closes. A fleet worker fed over a work queue uses it.
	Feed <-chan int `json:"-"`
	// BreakerStore, if set, shares every breaker's state with the other
	// runs using the same store (breaker.Settings.Store).
	BreakerStore breaker.Store `json:"-"`
	// RungEndpoints are endpoints of single rungs ("primary", "backup")
	// that differ from Endpoint: each rung may be its own provider
	// (endpoints.go).
	RungEndpoints map[string]Endpoint `json:"rung_endpoints,omitempty"`
	// Prices are the price table every attempt's usage is priced by.
	Prices price.Table `json:"prices,omitempty"`
	// MaxSpend aborts the run before an attempt whose estimated cost would
	// take the run's spend over it (usage.go); 0 means no limit.
	MaxSpend float64 `json:"max_spend,omitempty"`
	// MaxInFlight is the worker pool the workload's callers share
	// (inflight.go): at most this many emails in flight at once; an email
	// that finds every worker busy is rejected. 0: no limit.
	MaxInFlight int `json:"max_in_flight,omitempty"`
	// Predicted is the prediction of this drill (package predict, which
	// imports workload, so the caller computes it): logged in run_start's
	// info for the summary's predicted_* figures. Not part of the config
	// a journal records.
	Predicted *event.Predicted `json:"-"`
	// Routes send classes of emails to their own policies (routes.go);
	// Policy is the default route. Nil: every email takes Policy.
	Routes []Route `json:"routes,omitempty"`
}

// OutageNone is the outage kind for a drill without an outage.
const OutageNone = "none"

// OutageKinds lists the valid outage kinds, none included.
func OutageKinds() []string { return append(inject.Kinds(), OutageNone) }

// DefaultConfig is the chapter's lab drill: 120 emails at 2 a second, a busy
// outage of the primary from 15 s to 40 s, the breaker policy, email 35
// (Marcus) followed.
func DefaultConfig() Config {
	p, _ := Preset("breaker")
	from, to := DefaultWindow(120, 2)
	return Config{
		Emails:       120,
		Rate:         2,
		Outage:       "busy",
		OutageFrom:   from,
		OutageTo:     to,
		Target:       event.ServedPrimary,
		Policy:       p,
		PrimaryModel: DefaultPrimaryModel,
		BackupModel:  DefaultBackupModel,
		Seed:         DefaultSeed,
		Follow:       35,
	}
}

// The chapter's outage window, for a drill whose sending takes a minute
// or more: from a quarter of that minute to two thirds of it.
const (
	defaultSending    = time.Minute
	defaultOutageFrom = defaultSending / 4     // 15 s
	defaultOutageTo   = defaultSending * 2 / 3 // 40 s
)

// DefaultWindow is the outage window of a drill that names none: the
// chapter's 15 s to 40 s or, when the emails are all sent in under a
// minute (emails/rate), the same share of the sending, from a quarter of
// it to two thirds, so that a faster or shorter drill still sends emails
// into its outage instead of ending before it starts.
func DefaultWindow(emails int, rate float64) (from, to time.Duration) {
	if emails <= 0 || !(rate > 0) || !(float64(emails)/rate < defaultSending.Seconds()) {
		return defaultOutageFrom, defaultOutageTo
	}
	sending := Sending(emails, rate)
	from = (sending / 4).Round(time.Millisecond)
	to = (sending * 2 / 3).Round(time.Millisecond)
	if to <= from {
		to = from + time.Millisecond // a window of at least a millisecond
	}
	return from, to
}

// Sending is how long sending emails at rate a second takes (emails ÷
// rate); rate above 0, and a time that fits a Duration.
func Sending(emails int, rate float64) time.Duration {
	return time.Duration(float64(emails) / rate * float64(time.Second))
}

// Validate checks the configuration and says what is wrong with it.
func (c Config) Validate() error {
	var errs []error
	if c.Emails <= 0 || c.Emails > MaxEmails {
		errs = append(errs, fmt.Errorf("emails must be between 1 and %d, got %d", MaxEmails, c.Emails))
	}
	if !(c.Rate > 0) || c.Rate > MaxRate {
		errs = append(errs, fmt.Errorf("rate must be above 0 and at most %d emails per second, got %v", MaxRate, c.Rate))
	} else if c.Rate < edge.MinRate {
		errs = append(errs, fmt.Errorf("rate must be at least %g emails per second, got %v", edge.MinRate, c.Rate))
	} else if c.Emails > 0 && float64(c.Emails)/c.Rate > edge.MaxDuration.Seconds() {
		errs = append(errs, fmt.Errorf("sending %d emails at %v a second takes longer than %s, the longest drill runs", c.Emails, c.Rate, edge.MaxDuration))
	}
	if c.Outage != OutageNone {
		if _, err := inject.Lookup(c.Outage); err != nil {
			errs = append(errs, fmt.Errorf("%w, %s", err, OutageNone))
		}
	}
	if c.OutageFrom < 0 || c.OutageTo <= c.OutageFrom {
		errs = append(errs, fmt.Errorf("the outage must start at or after 0 s and before it ends (from %s, to %s)", c.OutageFrom, c.OutageTo))
	} else if err := edge.Duration(c.OutageTo); err != nil {
		errs = append(errs, fmt.Errorf("the outage's end %w", err))
	}
	if !slices.ContainsFunc(c.allRungs(), func(r namedRung) bool { return r.name == c.Target }) {
		errs = append(errs, fmt.Errorf("the outage target %q is not a rung of policy %s", c.Target, c.Policy.Name))
	}
	if c.Policy.Scope != chain.ScopeAttempt && c.Policy.Scope != chain.ScopeRequest {
		errs = append(errs, fmt.Errorf("unknown time-limit scope %q (valid: attempt, request)", c.Policy.Scope))
	}
	for _, r := range c.rungPolicies() {
		errs = append(errs, validateRung(r)...)
	}
	if c.Policy.EmailDeadline < 0 || c.Policy.HedgeAfter < 0 {
		errs = append(errs, fmt.Errorf("email deadline and hedge-after must not be negative (got %s, %s)", c.Policy.EmailDeadline, c.Policy.HedgeAfter))
	}
	for _, d := range []struct {
		name string
		d    time.Duration
	}{{"email deadline", c.Policy.EmailDeadline}, {"hedge-after", c.Policy.HedgeAfter}, {"max duration", c.MaxDuration}} {
		if err := edge.Duration(d.d); err != nil {
			errs = append(errs, fmt.Errorf("%s %w", d.name, err))
		}
	}
	if c.Policy.HedgeAfter > 0 && len(c.rungPolicies()) < 2 {
		errs = append(errs, fmt.Errorf("hedging needs a second model rung to ask; policy %s has one", c.Policy.Name))
	}
	errs = append(errs, c.validateOutages()...)
	errs = append(errs, c.validateRoutes()...)
	errs = append(errs, c.validateEndpoints()...)
	if c.MaxInFlight < 0 || c.MaxInFlight > MaxEmails {
		errs = append(errs, fmt.Errorf("max in flight must be between 0 (no limit) and %d, got %d", MaxEmails, c.MaxInFlight))
	}
	if !(c.MaxSpend >= 0) || math.IsInf(c.MaxSpend, 1) {
		errs = append(errs, fmt.Errorf("max spend must not be negative, got %v", c.MaxSpend))
	}
	if c.MaxDuration < 0 {
		errs = append(errs, fmt.Errorf("max duration must not be negative, got %s", c.MaxDuration))
	}
	if c.Follow < 0 || (c.Follow > 0 && !c.sends(c.Follow)) {
		errs = append(errs, fmt.Errorf("follow must be the id of an email the drill sends (0 for none), got %d", c.Follow))
	}
	if u := c.Endpoint.BaseURL; u != "" && !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
		errs = append(errs, fmt.Errorf("base URL must start with http:// or https://, got %q", u))
	}
	return errors.Join(errs...)
}

// validateRung checks one rung's settings: its time limit, retries,
// breaker, stream-rate floor and retry delay.
func validateRung(r namedRung) []error {
	var errs []error
	if r.p.TimeLimit < 0 {
		errs = append(errs, fmt.Errorf("%s time limit must not be negative, got %s", r.name, r.p.TimeLimit))
	} else if err := edge.Duration(r.p.TimeLimit); err != nil {
		errs = append(errs, fmt.Errorf("%s time limit %w", r.name, err))
	}
	if err := edge.Retries(r.p.Retries); err != nil {
		errs = append(errs, fmt.Errorf("%s retries %w", r.name, err))
	}
	if b := r.p.Breaker; b != nil {
		if err := b.Validate(); err != nil {
			errs = append(errs, fmt.Errorf("%s breaker: %w", r.name, err))
		}
	}
	if r.p.MinTokensPerS < 0 || r.p.Check < 0 {
		errs = append(errs, fmt.Errorf("%s min tokens per second and stream check must not be negative", r.name))
	}
	if err := edge.Finite(r.p.MinTokensPerS); err != nil {
		errs = append(errs, fmt.Errorf("%s min tokens per second %w", r.name, err))
	}
	if err := edge.Duration(r.p.Check); err != nil {
		errs = append(errs, fmt.Errorf("%s stream check %w", r.name, err))
	}
	if b := r.p.Breaker; b != nil && b.CountSlowStream && r.p.MinTokensPerS == 0 {
		errs = append(errs, fmt.Errorf("%s breaker: count_slow_stream needs a stream-rate floor (min_tokens_per_s)", r.name))
	}
	if r.p.MaxRetryDelay < 0 {
		errs = append(errs, fmt.Errorf("%s max retry delay must not be negative, got %s", r.name, r.p.MaxRetryDelay))
	} else if err := edge.Duration(r.p.MaxRetryDelay); err != nil {
		errs = append(errs, fmt.Errorf("%s max retry delay %w", r.name, err))
	}
	return errs
}

type namedRung struct {
	name  string
	model string
	p     RungPolicy
}

// rungPolicies lists the model rungs in chain order.
func (c Config) rungPolicies() []namedRung { return c.rungsOf(c.Policy) }

// Ceiling is the run's time limit: MaxDuration, or the outage's end plus
// 120 s.
func (c Config) Ceiling() time.Duration {
	if c.MaxDuration > 0 {
		return c.MaxDuration
	}
	end := c.OutageTo
	if last := Sending(c.Emails, c.Rate); last > end {
		end = last
	}
	return end + 120*time.Second
}

// OutageLabel is the drill's outage as views name it: the drill file's
// name for it, else its kind.
func (c Config) OutageLabel() string { return event.OutageLabel(c.Outage, c.OutageName) }

// Info is what folds need to know about the run.
func (c Config) Info() event.RunInfo {
	info := event.RunInfo{
		Outage:         c.Outage,
		OutageName:     c.OutageName,
		Policy:         c.Policy.Name,
		Emails:         c.Emails,
		Rate:           c.Rate,
		Target:         c.Target,
		OutageFromS:    c.OutageFrom.Seconds(),
		OutageToS:      c.OutageTo.Seconds(),
		Follow:         c.Follow,
		TimeLimitScope: string(c.Policy.Scope),
		Canned:         c.Policy.Canned,
		Seed:           c.Seed,
		Ceiling:        c.Ceiling(),
		Overrides:      c.Overrides,
		Predicted:      c.Predicted,
	}
	if c.Policy.EmailDeadline > 0 {
		info.TimeLimitScope += "+email" // one budget per email on top of the rungs' limits
	}
	info.Options = c.Policy.Options()
	info.Routes = c.routeInfos()
	if id := c.maxEmailID(); id > info.Emails {
		info.MaxEmailID = id
	}
	info.MaxSpend = c.MaxSpend
	info.MaxInFlight = c.MaxInFlight
	for _, r := range c.rungPolicies() {
		rg := event.Rung{Name: r.name, Model: r.model, TimeLimit: r.p.TimeLimit,
			Retries: r.p.Retries, HasBreaker: r.p.Breaker != nil, BuiltIn: c.RungEndpoint(r.name).BaseURL == ""}
		if b := r.p.Breaker; b != nil {
			rg.Breaker = b.Record()
		}
		info.Rungs = append(info.Rungs, rg)
	}
	if c.Policy.Rules {
		info.Rungs = append(info.Rungs, event.Rung{Name: event.ServedRules})
	}
	if c.Policy.Canned {
		info.Rungs = append(info.Rungs, event.Rung{Name: event.ServedCanned})
	}
	return info
}

// LastArrival is when the last email is due, pauses aside: (emails-1) / rate.
func (c Config) LastArrival() time.Duration {
	if c.Emails <= 0 || !(c.Rate > 0) {
		return 0
	}
	return time.Duration(float64(c.Emails-1) / c.Rate * float64(time.Second))
}

// Warnings lists settings that are valid but probably not what the user
// meant: an outage that starts after the last email is sent or after the
// ceiling, so the drill may never feel it.
func (c Config) Warnings() []string {
	var w []string
	if c.Outage == OutageNone {
		return nil
	}
	if last := c.LastArrival(); c.OutageFrom > last {
		w = append(w, fmt.Sprintf("the outage starts at %s, after the last email is due at %s: the drill ends when its emails are answered and may end before its outage starts",
			format.GoDuration(c.OutageFrom), format.GoDuration(last)))
	}
	if ceil := c.Ceiling(); c.OutageFrom >= ceil {
		w = append(w, fmt.Sprintf("the outage starts at %s, at or after the run's ceiling of %s: the drill ends before its outage starts",
			format.GoDuration(c.OutageFrom), format.GoDuration(ceil)))
	}
	return w
}

// Email is email n (from 1) of the drill. Over the built-in set it is
// emails.Nth(n): past 120 the emails cycle, each keeping its own id n. Over
// a team's set, the first len(set) emails keep the file's ids; past its
// end they cycle through it, numbered on from the file's highest id so
// every id stays unique.
func (c Config) Email(n int) emails.Email {
	if c.EmailSet == nil {
		e, _ := emails.Nth(n)
		return e
	}
	set := c.EmailSet
	if n <= len(set) {
		return set[n-1]
	}
	e, _ := emails.Cycle(set, n)
	e.ID = maxID(set) + n - len(set)
	return e
}

// sends reports whether the drill sends an email with this id.
func (c Config) sends(id int) bool {
	if c.EmailSet == nil {
		return id >= 1 && id <= c.Emails
	}
	n := min(c.Emails, len(c.EmailSet))
	if slices.ContainsFunc(c.EmailSet[:n], func(e emails.Email) bool { return e.ID == id }) {
		return true
	}
	top := maxID(c.EmailSet)
	return c.Emails > len(c.EmailSet) && id > top && id <= top+c.Emails-len(c.EmailSet)
}

// maxEmailID is the highest email id the drill sends.
func (c Config) maxEmailID() int {
	if c.EmailSet == nil {
		return c.Emails
	}
	if c.Emails > len(c.EmailSet) {
		return maxID(c.EmailSet) + c.Emails - len(c.EmailSet)
	}
	return maxID(c.EmailSet[:c.Emails])
}

func maxID(set []emails.Email) int {
	top := 0
	for _, e := range set {
		top = max(top, e.ID)
	}
	return top
}
