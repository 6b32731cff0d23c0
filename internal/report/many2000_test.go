//go:build unix

package report_test

import (
	"io"
	"os"
	"sync"
	"testing"

	"github.com/drill-dev/drill/internal/cputime"
	"github.com/drill-dev/drill/internal/history"
	"github.com/drill-dev/drill/internal/journal/journaltest"
	"github.com/drill-dev/drill/internal/report"
)

var (
	many2000Once  sync.Once
	many2000Dir   string
	many2000Paths []string
	many2000Err   error
)

// many2000 writes, once per test binary, the 2,000 journals the target
// for readers names (120 emails each, about 1.7 million events in all:
// journaltest.WriteMany, as `go run internal/journal/journaltest/gen_journals.go
// -n 2000 -dir many` writes them) and returns their directory and paths.
func many2000(b *testing.B) (string, []string) {
	b.Helper()
	many2000Once.Do(func() {
		if many2000Dir, many2000Err = os.MkdirTemp("", "drill-many-"); many2000Err == nil {
			many2000Paths, many2000Err = journaltest.WriteMany(many2000Dir, 2000, 120, 50)
		}
	})
	if many2000Err != nil {
		b.Fatal(many2000Err)
	}
	return many2000Dir, many2000Paths
}

// TestMain removes the 2,000 journals once every benchmark has read them.
func TestMain(m *testing.M) {
	code := m.Run()
	if many2000Dir != "" {
		_ = os.RemoveAll(many2000Dir)
	}
	os.Exit(code)
}

// BenchmarkManyJournals2000 reads the 2,000 journals as `drill history
// DIR` and `drill report DIR -o report.html` do (the history's table, the
// report's HTML page with charts for its first runs, written to
// io.Discard), and reports CPU seconds (user + system, every goroutine)
// besides the wall time (sec/op): on a machine shared with other work the
// CPU is the figure that carries over. The target is under 30 s of wall
// time each on two cores.
//
//	go test ./internal/report -run '^$' -bench ManyJournals2000 -benchtime 3x
func BenchmarkManyJournals2000(b *testing.B) {
	dir, paths := many2000(b)
	b.Run("history", func(b *testing.B) {
		perOp(b, func() {
			t, err := history.Read(b.Context(), []string{dir}, history.ByOutagePolicy, nil)
			if err != nil || len(t.Groups) != 4 {
				b.Fatalf("%d groups, %v", len(t.Groups), err)
			}
			if err := history.WriteTable(io.Discard, t.Groups, t.Judgements); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run("report", func(b *testing.B) {
		perOp(b, func() {
			r, err := report.Build(paths)
			if err != nil || len(r.Runs) != 2000 {
				b.Fatalf("%d runs, %v", len(r.Runs), err)
			}
			if err := r.WriteHTML(io.Discard); err != nil {
				b.Fatal(err)
			}
		})
	})
}

// perOp runs op b.N times and reports its wall and CPU seconds an op.
func perOp(b *testing.B, op func()) {
	cpu := cputime.Self()
	for b.Loop() {
		op()
	}
	n := float64(b.N)
	b.ReportMetric(b.Elapsed().Seconds()/n, "wall-s/op")
	b.ReportMetric((cputime.Self()-cpu).Seconds()/n, "cpu-s/op")
}
