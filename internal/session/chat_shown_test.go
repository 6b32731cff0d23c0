package session

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"reflect"
	"testing"
	"testing/synctest"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/chat"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/scoring"
)

// quitAfter is a dashboard that follows the log until n conversations have
// ended (or the log closes), then quits; it reports how many it saw.
func quitAfter(n int, saw *int) ChatShow {
	return func(ctx context.Context, log *event.Log) error {
		cur := log.Cursor()
		defer cur.Close()
		for *saw < n {
			evs, err := cur.Next(ctx)
			if errors.Is(err, io.EOF) {
				return nil // the drill ended
			}
			if err != nil {
				return err
			}
			for _, e := range evs {
				if e.Kind == event.ConversationEnd {
					*saw++
				}
			}
		}
		return nil
	}
}

// Quitting the dashboard mid-drill stops the drill: its status is
// interrupted, and its journal is finished and reads back to the same
// figures; a dashboard kept open past the end sees the whole drill.
func TestShownChatDrillQuitStopsIt(t *testing.T) {
	cfg := chat.DefaultConfig()
	cfg.Conversations = 30
	for _, tc := range []struct {
		quitAt int
		status string
	}{{5, event.StatusInterrupted}, {1000, event.StatusCompleted}} {
		path := filepath.Join(t.TempDir(), "chat.jsonl")
		saw := 0
		var o ChatOutcome
		var err error
		synctest.Test(t, func(t *testing.T) {
			o, err = ShownChatDrill(context.Background(), ChatJob{Config: cfg, Journal: path}, quitAfter(tc.quitAt, &saw))
		})
		if err != nil || o.Status != tc.status || o.Error != "" {
			t.Fatalf("quit after %d: outcome %+v, error %v; want status %s", tc.quitAt, o, err, tc.status)
		}
		if tc.status == event.StatusInterrupted && (saw != 5 || o.Summary.Conversations >= 30) {
			t.Errorf("quit after 5 endings: saw %d, %d conversations started", saw, o.Summary.Conversations)
		}
		if tc.status == event.StatusCompleted && (saw != 30 || o.Summary.Conversations != 30) {
			t.Errorf("kept open: saw %d endings, %d conversations", saw, o.Summary.Conversations)
		}
		j, rerr := journal.ReadFile(path)
		if rerr != nil {
			t.Fatalf("the journal does not read back: %v", rerr)
		}
		if j.Summary == nil || j.Summary.Chat == nil || !reflect.DeepEqual(*j.Summary.Chat, o.Summary) {
			t.Errorf("the journal's summary line does not hold the figures")
		}
		if got := scoring.FoldChat(j.Events); !reflect.DeepEqual(got, o.Summary) {
			t.Errorf("the journal folds to %+v, want %+v", got, o.Summary)
		}
	}
}
