package control

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/drill-dev/drill/event"
)

// MaxCommanded is the most outages commands may start in one run: every
// outage stays in the run's timeline, so a script sending commands in a
// loop is refused (ErrLimit) rather than growing it without bound.
const MaxCommanded = 10000

// RememberedIDs is how many command IDs a run remembers: a command whose
// ID is among them is not applied again.
const RememberedIDs = 4096

// MaxIDLength is the longest command ID accepted.
const MaxIDLength = 128

// Errors a run's Apply returns, wrapped with the reason; the control API
// answers each with its own status.
var (
	// ErrInvalid is a command that cannot be applied as written: an
	// unknown op or fault kind, a bad parameter or duration, no ID.
	ErrInvalid = errors.New("invalid command")
	// ErrNoOutage is a stop while no outage is active.
	ErrNoOutage = errors.New("no outage is active")
	// ErrConflict is a start the run cannot take now (drill run plays one
	// outage at a time).
	ErrConflict = errors.New("conflicts with the outage active now")
	// ErrLimit is a start past MaxCommanded.
	ErrLimit = errors.New("too many commanded outages")
	// ErrClosed is a command sent to a run that has ended.
	ErrClosed = errors.New("the run has ended")
)

// Check validates what every run checks alike: the op, the ID, the
// duration and the models. The fault itself is the run's to check.
func (c Command) Check() error {
	var errs []error
	switch {
	case c.ID == "":
		errs = append(errs, errors.New("the command has no id"))
	case len(c.ID) > MaxIDLength:
		errs = append(errs, fmt.Errorf("the command's id is longer than %d bytes", MaxIDLength))
	}
	switch c.Op {
	case OpStart:
		if c.Fault.Kind == "" {
			errs = append(errs, errors.New("a start needs a fault kind"))
		}
		if c.For < 0 || c.For > MaxFor {
			errs = append(errs, fmt.Errorf("for must be between 0s (until a stop) and %s, got %s", MaxFor, c.For))
		}
		for _, m := range c.Models {
			if strings.TrimSpace(m) == "" {
				errs = append(errs, errors.New("an empty model name"))
			}
		}
	case OpStop:
	default:
		errs = append(errs, fmt.Errorf("unknown op %q (valid: %s, %s)", c.Op, OpStart, OpStop))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	return nil
}

// MaxFor is the longest outage a command may ask for.
const MaxFor = 7 * 24 * time.Hour

// Recorded is the command as the journal records it on the outage event
// it caused.
func (c Command) Recorded() *event.Command {
	r := &event.Command{ID: c.ID, Who: c.Who, For: c.For}
	if len(c.Models) > 0 {
		r.Models = append([]string(nil), c.Models...)
	}
	return r
}

// Params is the fault's parameters as KEY=VALUE settings, sorted by key:
// what inject.ParseFault reads.
func (c Command) Params() []string {
	kv := make([]string, 0, len(c.Fault.Params))
	for k, v := range c.Fault.Params {
		kv = append(kv, k+"="+v)
	}
	slices.Sort(kv)
	return kv
}

// Outage is an outage active now, as a run's Outages reports it.
type Outage struct {
	// Window is the outage: its fault, parameters, start and scheduled
	// end (-1: until a stop), its index in the run, and whether the hand
	// (or a command) started it.
	event.Window
	// Command is the command that started it; nil for the schedule and
	// the dashboard's keys.
	Command *event.Command `json:"command,omitempty"`
}

// UnmarshalJSON reads an outage: the window's keys and its command (the
// window's own UnmarshalJSON would otherwise read the whole outage and
// drop the command).
func (o *Outage) UnmarshalJSON(b []byte) error {
	var c struct {
		Command *event.Command `json:"command"`
	}
	if err := json.Unmarshal(b, &c); err != nil {
		return err
	}
	if err := json.Unmarshal(b, &o.Window); err != nil {
		return err
	}
	o.Command = c.Command
	return nil
}

// IDs remembers the last RememberedIDs command IDs. The zero value is
// ready to use; it is not safe for concurrent use.
type IDs struct {
	ring []string
	next int
	set  map[string]bool
}

// Seen reports whether id is among the IDs remembered.
func (s *IDs) Seen(id string) bool { return s.set[id] }

// Add remembers id, forgetting the oldest when RememberedIDs are kept.
func (s *IDs) Add(id string) {
	if s.set[id] {
		return
	}
	if s.set == nil {
		s.set = map[string]bool{}
	}
	if len(s.ring) < RememberedIDs {
		s.ring = append(s.ring, id)
	} else {
		delete(s.set, s.ring[s.next])
		s.ring[s.next] = id
		s.next = (s.next + 1) % RememberedIDs
	}
	s.set[id] = true
}
