package chat

import (
	"testing"

	"github.com/drill-dev/drill/scoring"
)

// TestRunPassesTheJournalRules: a chat run's events pass the rules a
// journal is read with. Its conversations are the data set's emails that
// name an order, so their ids run past the number of conversations (the
// 40th conversation is email 55): the run_start says the highest id, or
// drill replay refuses the recording.
func TestRunPassesTheJournalRules(t *testing.T) {
	_, events := runChat(t, quietConfig(40, PresetDefaults))
	rules := scoring.NewEventRules(0)
	for i, e := range events {
		if msg := rules.Check(e, i+1); msg != "" {
			t.Fatalf("event %d (%s): %s", i+1, e.Kind, msg)
		}
	}
}
