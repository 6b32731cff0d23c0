package event

// FleetLink is a proxy fleet member's link to the fleet's Redis going down
// or coming back (drill proxy --coordinate): Detail is LinkDown or LinkUp,
// and Fleet says what was held meanwhile. While the link is down the
// member keeps playing its last known schedule and holds its events.
const FleetLink Kind = "fleet_link"

// MemberLost is a proxy fleet member noticing that another member's
// heartbeat expired: Fleet.Lost names the member marked lost. Only one
// member (or drill watch) records it per lost member.
const MemberLost Kind = "member_lost"

// Details of a FleetLink event.
const (
	// LinkDown: Redis stopped answering; events are held, the schedule
	// plays on.
	LinkDown = "down"
	// LinkUp: Redis answers again; the events held meanwhile were sent.
	LinkUp = "up"
)

// FleetNote is what a FleetLink or MemberLost event says about the fleet.
type FleetNote struct {
	// Lost is, on member_lost, the member whose heartbeat expired.
	Lost string `json:"lost,omitempty"`
	// Held is, on a fleet_link up, how many events the member held while
	// Redis was away and has now sent.
	Held int `json:"held,omitempty"`
	// Dropped is, on a fleet_link up, how many events the member dropped
	// because its buffer was full while Redis was away.
	Dropped int `json:"dropped,omitempty"`
	// Reason is, on a fleet_link down, what the failing Redis call said.
	Reason string `json:"reason,omitempty"`
}
