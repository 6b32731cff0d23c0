package event

import "time"

// ServedHandedOver is the served-by value of an email a route that never
// takes the backup handed to a person: the customer was told a person will
// answer (Result.Handover says why and when).
const ServedHandedOver = "handed_over"

// Hold modes of a route whose emails never take the backup.
const (
	// HoldPerson hands the email to a person at once when the primary
	// cannot answer it, and tells the customer.
	HoldPerson = "person"
	// HoldWaitForPrimary queues the email for the primary while its
	// breaker is open; it goes through when the breaker lets it, or is
	// handed to a person when its wait runs out or the queue is full.
	HoldWaitForPrimary = "wait-for-primary"
)

// Reasons an email was handed over, besides the primary's own outcome
// (breaker_open, timeout, http_5xx, ...).
const (
	// HandoverDeadline: the email waited for the primary as long as its
	// route allows.
	HandoverDeadline = "wait_deadline"
	// HandoverQueueFull: the route's queue for the primary was full.
	HandoverQueueFull = "queue_full"
)

// Handover is, on an email_done, how a route that never takes the backup
// held an email the primary could not answer at once.
type Handover struct {
	// Mode is HoldPerson or HoldWaitForPrimary.
	Mode string `json:"mode"`
	// Reason is why the email was handed over: the primary's outcome
	// (breaker_open, timeout, ...), HandoverDeadline or HandoverQueueFull;
	// empty for an email that waited and was then served by the primary.
	Reason string `json:"reason,omitempty"`
	// Told is from the email's arrival to when the customer was told: that
	// a person will answer (handed over), or that the answer will take
	// longer (the email started waiting for the primary).
	Told time.Duration `json:"told_ns"`
	// Waited is how long the email waited for the primary in its route's
	// queue; 0 when it never waited.
	Waited time.Duration `json:"waited_ns,omitempty"`
}

// RouteInfo describes one route of a run for folds and reports: its class,
// its policy's name and whether its emails never take the backup.
type RouteInfo struct {
	Class  string `json:"class"`
	Policy string `json:"policy"`
	// Hold is HoldPerson or HoldWaitForPrimary for a route whose emails
	// never take the backup (backup: never); empty otherwise.
	Hold string `json:"hold,omitempty"`
	// Within is what the route's customers can wait, when the route says
	// (within:); 0 otherwise.
	Within time.Duration `json:"within_ns,omitempty"`
}
