package session_test

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"testing/synctest"

	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/session"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

// TestDrillReleasesTheLog: without a dashboard, every reader (journal,
// guard, progress line, live fold) attaches before the log releases what
// they have read, so a long drill keeps only its last events in memory, and
// its journal still holds every event: folded, it gives the live summary.
// With a dashboard the log keeps every event.
func TestDrillReleasesTheLog(t *testing.T) {
	for _, dashboard := range []bool{false, true} {
		path := filepath.Join(t.TempDir(), "r.jsonl")
		synctest.Test(t, func(t *testing.T) {
			cfg := workload.DefaultConfig()
			cfg.Emails, cfg.Rate = 2000, 1000 // about 13,000 events: three chunks of the log
			abort, _ := scoring.ParseExprs([]string{"served.error > 1000"})
			opts := session.Options{Journal: path, Abort: abort, Progress: &bytes.Buffer{}}
			if dashboard {
				opts.Show = func(ctx context.Context, run *workload.Run, _ *session.Baseline) error { <-run.Done(); return nil }
			}
			res, err := session.Drill(t.Context(), cfg, opts)
			if err != nil {
				t.Fatal(err)
			}
			log := res.Run.Log()
			held, n := log.Held(), log.Len()
			switch {
			case dashboard && held != n:
				t.Errorf("with a dashboard the log holds %d of %d events, want all", held, n)
			case !dashboard && held > n/2:
				t.Errorf("the log holds %d of %d events, want it to have released most", held, n)
			}
			sum, _, err := journal.Summarize(path)
			if err != nil {
				t.Fatal(err)
			}
			live, _ := json.Marshal(res.Summary)
			replayed, _ := json.Marshal(sum)
			if !bytes.Equal(live, replayed) {
				t.Errorf("dashboard %v: the journal's events fold to\n%s\nwant the live summary\n%s", dashboard, replayed, live)
			}
		})
	}
}
