package session

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"
	"testing/synctest"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/chat"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/scoring"
)

// A chat run recorded to a journal folds, read back, to the figures the
// live run reported, and its summary line holds them.
func TestChatJournalReplaysToTheLiveFigures(t *testing.T) {
	path := filepath.Join(t.TempDir(), "chat.jsonl")
	cfg := chat.DefaultConfig()
	cfg.Conversations = 60
	cfg.Profile.IncidentFrom, cfg.Profile.IncidentTo = 10e9, 40e9 // the incident over most of the 60 s
	cfg.Policy, _ = chat.Preset(chat.PresetBreaker)
	var live ChatOutcome
	synctest.Test(t, func(t *testing.T) {
		live = runChat(context.Background(), ChatJob{Config: cfg, Journal: path}, event.ClockVirtual, nil)
	})
	if live.Error != "" || live.Status != event.StatusCompleted {
		t.Fatalf("live run: %+v", live)
	}
	j, err := journal.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if j.Summary == nil || j.Summary.Chat == nil || !reflect.DeepEqual(*j.Summary.Chat, live.Summary) {
		t.Fatalf("the journal's summary line does not hold the live figures")
	}
	if got := scoring.FoldChat(j.Events); !reflect.DeepEqual(got, live.Summary) {
		t.Errorf("replayed figures differ:\n got %+v\nwant %+v", got, live.Summary)
	}
	if live.Summary.Conversations != 60 || live.Summary.Clock != event.ClockVirtual || live.Summary.ModelCalls < 180 {
		t.Errorf("live figures %+v", live.Summary)
	}
}
