package session_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/session"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

// TestDrillRecordsGuardsAndJudges: a drill with a journal, a hypothesis
// and an abort condition that trips ends aborted by that condition, and
// its journal holds the live summary with the hypothesis judged on it.
func TestDrillRecordsGuardsAndJudges(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	synctest.Test(t, func(t *testing.T) {
		cfg := workload.DefaultConfig()
		cfg.Policy, _ = workload.Preset("primary-only")
		cfg.Outage, cfg.OutageFrom, cfg.OutageTo = "busy", 5*time.Second, 60*time.Second
		hyps, _ := scoring.ParseExprs([]string{"served.error == 0"})
		abort, _ := scoring.ParseExprs([]string{"served.error > 3"})
		res, err := session.Drill(t.Context(), cfg, session.Options{Journal: path, Hypotheses: hyps, Abort: abort})
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != event.StatusAborted || !strings.HasPrefix(res.Guard, "served.error > 3") {
			t.Fatalf("status %s, guard %q; want aborted by served.error > 3", res.Status, res.Guard)
		}
		j, err := journal.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if j.Summary.Status != event.StatusAborted || j.Summary.Summary.Served != res.Summary.Served {
			t.Errorf("journal summary %+v, %s; want the live one, aborted", j.Summary.Summary.Served, j.Summary.Status)
		}
		if len(j.Summary.Hypotheses) != 1 || j.Summary.Hypotheses[0].Pass {
			t.Errorf("journal hypotheses %+v, want served.error == 0 failed", j.Summary.Hypotheses)
		}
	})
}

// TestDrillRefusesToOverwrite: an existing journal is a usage error unless
// Force is set, and the file is left alone.
func TestDrillRefusesToOverwrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	if err := os.WriteFile(path, []byte("keep me\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := session.Drill(t.Context(), workload.DefaultConfig(), session.Options{Journal: path})
	if !exit.IsUsage(err) || !strings.Contains(err.Error(), "--force") {
		t.Errorf("err = %v, want a usage error pointing at --force", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "keep me\n" {
		t.Errorf("the journal was changed: %q", b)
	}
}
