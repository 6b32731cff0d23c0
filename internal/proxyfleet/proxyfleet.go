// Package proxyfleet runs a fleet of drill proxies as one drill through
// Redis (drill proxy --coordinate redis://HOST:PORT/DB --fleet NAME
// --member ID):
//
//   - the fleet's schedule and start are agreed through a plan key, set
//     once (SET NX) by the first member and read by every later one;
//   - outage commands go to every member through the fleet's commands
//     stream, read by each member with XREAD BLOCK; a member applies each
//     command id once;
//   - every member's events, tagged with its member id, go to the fleet's
//     events stream (XADD MAXLEN ~ 1,000,000), from which drill watch
//     folds the fleet live and drill journal pull writes one journal;
//   - each member keeps a heartbeat key with a short time to live; a
//     member whose heartbeat expired is marked lost by whichever member
//     (or watcher) notices first, with a member_lost event;
//   - when Redis goes away a member keeps playing its schedule, holds its
//     events (up to a bound, counting those dropped beyond it), logs a
//     fleet_link down event and, when Redis returns, sends what it held
//     and logs fleet_link up.
package proxyfleet

import (
	"fmt"
	"regexp"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/drill-dev/drill/internal/control"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/fleet/redisstore"
	"github.com/drill-dev/drill/internal/redact"
)

// Defaults of a member's Options.
const (
	// DefaultHeartbeat is a heartbeat key's time to live: a member whose
	// key has not been renewed for this long is lost. Members renew it
	// every third of it.
	DefaultHeartbeat = 3 * time.Second
	// DefaultBuffer is how many events a member holds while Redis is away;
	// beyond it new events are dropped and counted.
	DefaultBuffer = 100_000
	// EventsMaxLen is the events stream's bound (MAXLEN ~): the oldest
	// entries beyond about this many are trimmed.
	EventsMaxLen = 1_000_000
	// CommandsMaxLen is the commands stream's bound (MAXLEN ~).
	CommandsMaxLen = 10_000
	// PlanTTL is how long the plan key lives: a fleet name used again
	// within it joins the same schedule.
	PlanTTL = 24 * time.Hour
)

// Target is what a member steers: a proxy applying an outage command as
// if it had been started by hand ((*proxy.Proxy).Apply).
type Target interface {
	Apply(cmd control.Command) error
}

// namePattern is what a fleet's and a member's names may be: they go into
// Redis keys and on screen.
var namePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// CheckName reports whether name is a usable fleet or member name (what
// says which, in the error): 1 to 64 letters, digits, dots, dashes and
// underscores, starting with a letter or digit.
func CheckName(what, name string) error {
	if !namePattern.MatchString(name) {
		return fmt.Errorf("%s %q: want 1 to 64 letters, digits, '.', '-' or '_', starting with a letter or digit", what, name)
	}
	return nil
}

// keys are the Redis keys of one fleet.
type keys struct{ fleet string }

func (k keys) prefix() string   { return "drill:proxyfleet:{" + k.fleet + "}" }
func (k keys) plan() string     { return k.prefix() + ":plan" }
func (k keys) commands() string { return k.prefix() + ":commands" }
func (k keys) events() string   { return k.prefix() + ":events" }
func (k keys) members() string  { return k.prefix() + ":members" }
func (k keys) heartbeat(member string) string {
	return k.prefix() + ":heartbeat:" + member
}

// timeout bounds each Redis command a member sends (dial included).
const timeout = 500 * time.Millisecond

// dial returns a client of the Redis at url, connected as the breaker
// store connects: no retries, so that a Redis gone away shows at once.
func dial(url string) (*redis.Client, error) {
	ro, err := redisstore.ParseURL(url)
	if err != nil {
		return nil, err
	}
	ro.DialTimeout, ro.ReadTimeout, ro.WriteTimeout = timeout, timeout, timeout
	ro.MaxRetries = -1
	ro.PoolSize = 6
	return redis.NewClient(ro), nil
}

// CheckArgs checks drill watch's and drill journal pull's Redis URL
// argument and --fleet; a problem is a usage error.
func CheckArgs(url, fleet string) error {
	if err := redisstore.CheckURL(url); err != nil {
		return exit.Usagef("%s: want redis://HOST:PORT/DB: %s", redact.URL(url), redact.Text(err.Error()))
	}
	if fleet == "" {
		return exit.Usagef("--fleet is required: the fleet's name, as its members' --fleet")
	}
	return exit.UsageError(CheckName("--fleet", fleet))
}

// CheckFlags checks drill proxy's --coordinate, --fleet and --member:
// all three or none, a Redis URL, usable names.
func CheckFlags(url, fleet, member string) error {
	if url == "" && fleet == "" && member == "" {
		return nil
	}
	if url == "" || fleet == "" || member == "" {
		return fmt.Errorf("--coordinate, --fleet and --member go together: give all three")
	}
	if err := redisstore.CheckURL(url); err != nil {
		return fmt.Errorf("--coordinate %s: want redis://HOST:PORT/DB: %s", redact.URL(url), redact.Text(err.Error()))
	}
	if err := CheckName("--fleet", fleet); err != nil {
		return err
	}
	return CheckName("--member", member)
}
