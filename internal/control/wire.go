package control

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/drill-dev/drill/event"
)

// DefaultPort is the control API's port: drill ctl's default --addr and
// the port --control-listen takes when given a host alone.
const DefaultPort = "8475"

// DefaultAddr is drill ctl's default --addr.
const DefaultAddr = "127.0.0.1:" + DefaultPort

// DefaultTokenEnv is the environment variable the bearer token is read
// from by default (--control-token-env, drill ctl --token-env).
const DefaultTokenEnv = "DRILL_CONTROL_TOKEN"

// AsHeader names the sender of a command (drill ctl --as): the command's
// Who is NAME@ADDR.
const AsHeader = "X-Drill-As"

// MaxBody is the largest request body the control API reads.
const MaxBody = 64 << 10

// Start is the body of POST /outages: an outage to start now.
type Start struct {
	// Kind is the fault kind (inject.Kinds).
	Kind string `json:"kind"`
	// Params are the fault's parameters and window modifiers, as
	// --fault KEY=VALUE takes them.
	Params map[string]string `json:"params,omitempty"`
	// For is how long the outage lasts, a Go duration ("30s"); empty or
	// "0s": until a stop.
	For string `json:"for,omitempty"`
	// Models limits the outage to these models (drill proxy: the
	// requests' model names; drill run: rungs, primary or backup).
	Models []string `json:"models,omitempty"`
	// ID names the command; a command with an ID already applied is not
	// applied again. Empty: the server makes one.
	ID string `json:"id,omitempty"`
}

// Reply is what POST and DELETE /outages answer: the command as applied
// and the outages active after it.
type Reply struct {
	ID      string   `json:"id"`
	Op      Op       `json:"op"`
	Who     string   `json:"who"`
	Outages []Outage `json:"outages"`
}

// Schedule is what GET /schedule answers: the run's outage timeline and
// the outages active now.
type Schedule struct {
	// Target is "proxy" or "run".
	Target string `json:"target"`
	// Windows are the scheduled outage windows, offsets from the start.
	Windows []event.Window `json:"windows"`
	// Outages are the outages active now.
	Outages []Outage `json:"outages"`
}

// Status is what GET /status answers: the live figures.
type Status struct {
	// Target is "proxy" or "run".
	Target string `json:"target"`
	// Elapsed is the time since the run started.
	Elapsed time.Duration `json:"elapsed_ns"`
	// Outages are the outages active now.
	Outages []Outage `json:"outages"`
	// Figures are the live figures, from the run's fold, in order.
	Figures []Figure `json:"figures"`
}

// Units of a Figure.
const (
	UnitCount   = "count"
	UnitSeconds = "seconds"
	UnitShare   = "share"
)

// Figure is one live figure: its key (a summary key where one exists),
// its value and unit (count, seconds or share, from 0 to 1).
type Figure struct {
	Key   string  `json:"key"`
	Value float64 `json:"value"`
	Unit  string  `json:"unit"`
}

// ErrorBody is every error the control API answers: {"error": "..."}.
type ErrorBody struct {
	Error string `json:"error"`
}

// WithPort is addr with DefaultPort when it names a host alone
// ("127.0.0.1", "localhost", "[::1]"): --control-listen and drill ctl
// --addr take either.
func WithPort(addr string) string {
	if _, _, err := net.SplitHostPort(addr); err == nil || addr == "" {
		return addr
	}
	return net.JoinHostPort(strings.Trim(addr, "[]"), DefaultPort)
}

// NewID makes a command ID: "ctl-" and 16 random hex digits.
func NewID() string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24+)
	return "ctl-" + hex.EncodeToString(b[:])
}

// Command is the command a Start asks for, sent by who: what drill ctl
// sends a proxy fleet through Redis itself, as the API would make it.
func (s Start) Command(who string, sent time.Time) (Command, error) {
	c := Command{ID: s.ID, Op: OpStart, Fault: event.FaultSpec{Kind: s.Kind, Params: s.Params}, Models: s.Models, Who: who, Sent: sent}
	if c.ID == "" {
		c.ID = NewID()
	}
	if s.For != "" {
		d, err := time.ParseDuration(s.For)
		if err != nil {
			return Command{}, fmt.Errorf("%w: for: %q is not a duration (e.g. 30s, 2m)", ErrInvalid, s.For)
		}
		c.For = d
	}
	return c, c.Check()
}

// MaxNameLength is the longest name a sender may give (drill ctl --as,
// the X-Drill-As header).
const MaxNameLength = 64

// CheckName reports whether name is a usable sender name: at most
// MaxNameLength letters, digits, '.', '-' and '_' ("" is: no name).
func CheckName(name string) error {
	if len(name) > MaxNameLength {
		return fmt.Errorf("a name of at most %d bytes", MaxNameLength)
	}
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_') {
			return fmt.Errorf("%q has a character other than letters, digits, '.', '-' and '_'", name)
		}
	}
	return nil
}

// Stop is a stop command with id (NewID when empty), sent by who.
func Stop(id, who string, sent time.Time) Command {
	if id == "" {
		id = NewID()
	}
	return Command{ID: id, Op: OpStop, Who: who, Sent: sent}
}
