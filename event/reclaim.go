package event

// Reclaimed is a drill fleet worker taking over emails another worker of a
// coordinated fleet (drill fleet --coordinate) held past the claim time:
// the other worker died or stalled, and this one sends them again. It
// carries Reclaim; its Replica is the worker that took them.
const Reclaimed Kind = "reclaimed"

// Reclaim says which worker's emails a reclaimed event took over.
type Reclaim struct {
	// From is the name of the worker that held the emails, and
	// FromReplica its replica number (0 if it never said).
	From        string `json:"from"`
	FromReplica int    `json:"from_replica,omitempty"`
	// By is the name of the worker that took them over.
	By string `json:"by"`
	// Emails are the emails taken over, by number.
	Emails []int `json:"emails"`
}
