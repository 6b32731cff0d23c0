package plain

import (
	"slices"
	"testing"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/scoring"
)

// TestServedColumnsAddWhatHappened: the four servers always, handed over
// and rejected only when some email went their way, each with its count.
func TestServedColumnsAddWhatHappened(t *testing.T) {
	s := scoring.Served{Primary: 1, Backup: 2, Canned: 3, Error: 4, Rules: 5, HandedOver: 6, Rejected: 7, Cancelled: 8}
	want := []string{event.ServedPrimary, event.ServedBackup, event.ServedCanned, event.ServedError, event.ServedHandedOver, event.ServedRejected}
	if got := ServedColumnsOf(s); !slices.Equal(got, want) {
		t.Errorf("columns %v, want %v", got, want)
	}
	for i, server := range append(want, event.ServedRules) {
		if n := ServedOf(s, server); n != []int{1, 2, 3, 4, 6, 7, 5}[i] {
			t.Errorf("ServedOf(%s) = %d", server, n)
		}
	}
	if got := ServedColumnsOf(scoring.Served{Primary: 9}); !slices.Equal(got, want[:4]) {
		t.Errorf("a run without handovers or rejections: columns %v, want %v", got, want[:4])
	}
}
