package plain

import (
	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/scoring"
)

// servedAlways are the servers every served count shows; servedWhenSome
// the ones it shows only when some email went their way (a run with routes
// that hand emails to a person, a run with a worker pool that turns
// emails away).
var (
	servedAlways   = []string{event.ServedPrimary, event.ServedBackup, event.ServedCanned, event.ServedError}
	servedWhenSome = []string{event.ServedHandedOver, event.ServedRejected}
)

// ServedColumns lists the servers a served count shows, in order: primary,
// backup, canned and error always, then handed_over and rejected when some
// says a count shows emails served by them. The dashboard's header, the
// sweep table and the sweep dashboard all pick their columns here.
func ServedColumns(some func(server string) bool) []string {
	cols := append([]string(nil), servedAlways...)
	for _, s := range servedWhenSome {
		if some(s) {
			cols = append(cols, s)
		}
	}
	return cols
}

// ServedColumnsOf is ServedColumns for one run's counts: handed_over and
// rejected when s has any.
func ServedColumnsOf(s scoring.Served) []string {
	return ServedColumns(func(server string) bool { return ServedOf(s, server) > 0 })
}

// ServedOf is s's count of emails served by server, a served-by value
// (event.ServedPrimary, …, event.ServedRejected) or "error"; 0 for any
// other name.
func ServedOf(s scoring.Served, server string) int {
	switch server {
	case event.ServedPrimary:
		return s.Primary
	case event.ServedBackup:
		return s.Backup
	case event.ServedCanned:
		return s.Canned
	case event.ServedError:
		return s.Error
	case event.ServedRules:
		return s.Rules
	case event.ServedHandedOver:
		return s.HandedOver
	case event.ServedRejected:
		return s.Rejected
	}
	return 0
}
