// Package control is how a long-running drill (drill proxy, drill run on the
// real clock) is steered from outside its terminal: outage commands sent
// through a small REST API (drill ctl is its client) or, in a fleet of
// proxies, through a Redis stream every member reads.
package control

import (
	"time"

	"github.com/drill-dev/drill/event"
)

// Op is what a command asks for.
type Op string

const (
	// OpStart starts an outage now.
	OpStart Op = "start"
	// OpStop ends every outage active now, scheduled or started by hand.
	OpStop Op = "stop"
)

// Command is one outage command: what the control API receives, what
// drill ctl sends, and what a fleet's command stream carries to every
// member. It is the same value wherever it travels, so a member applies a
// command relayed through Redis exactly as the member that received it.
type Command struct {
	// ID names the command uniquely; a member applies each ID once.
	ID string `json:"id"`
	// Op is start or stop.
	Op Op `json:"op"`
	// Fault is the outage to start (OpStart): its kind and parameters,
	// written as on the command line (inject.Kinds, inject's parameters).
	Fault event.FaultSpec `json:"fault,omitzero"`
	// For is how long a started outage lasts; 0 means until a stop.
	For time.Duration `json:"for_ns,omitempty"`
	// Models limits the outage to requests naming these models (empty:
	// the target's, as --models says).
	Models []string `json:"models,omitempty"`
	// Who sent it: the client's address and, when given, the name it
	// gave (drill ctl --as). Recorded in the journal with the outage.
	Who string `json:"who"`
	// Sent is when the sender made the command (its wall clock).
	Sent time.Time `json:"sent"`
}
