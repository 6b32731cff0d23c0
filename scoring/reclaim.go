package scoring

import "github.com/drill-dev/drill/event"

// Finished says whether e ends an email's work for a work queue: an
// email_done that was not cancelled (answered, given up on, or turned
// away), and which email. A cancelled email is not finished: the worker
// was stopped, and another may still take it.
func Finished(e event.Event) (email int, ok bool) {
	if e.Kind != event.EmailDone || e.Result == nil || e.Result.Cancelled {
		return 0, false
	}
	return e.Email, true
}

// ReclaimedFrom says whether e is a coordinated fleet's worker taking over
// another's emails, and the replica it took them from (0 if unknown).
func ReclaimedFrom(e event.Event) (replica int, ok bool) {
	if e.Kind != event.Reclaimed || e.Reclaim == nil {
		return 0, false
	}
	return e.Reclaim.FromReplica, true
}

// SentEmail says whether e is an email entering the chain, and which.
func SentEmail(e event.Event) (email int, ok bool) {
	if e.Kind != event.EmailSent {
		return 0, false
	}
	return e.Email, true
}
