//go:build unix

package vclock

import (
	"bytes"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/workload"
)

// BenchmarkBigDrillRSS is `drill run --clock virtual --emails 100000 --rate
// 1000 --record`: the default drill (busy outage, breaker) stretched to
// 100,000 emails, recorded to a journal, through the one entry point a
// virtual drill uses. It reports the peak RSS of the virtual-clock child
// process (getrusage of the children: the largest one waited for), without
// GOMEMLIMIT (target: under 500 MiB). Each iteration takes about 30 s on
// two quiet cores:
//
//	go test ./internal/vclock -run '^$' -bench BigDrillRSS -benchtime 1x
func BenchmarkBigDrillRSS(b *testing.B) {
	cfg := workload.DefaultConfig()
	cfg.Emails, cfg.Rate = 100_000, 1000
	for b.Loop() {
		h, err := journal.NewHeader(cfg, time.Now())
		if err != nil {
			b.Fatal(err)
		}
		job := Job{Config: cfg, Journal: filepath.Join(b.TempDir(), "big.jsonl"), Header: &h}
		outs, err := Drills(b.Context(), []Job{job}, 0, &bytes.Buffer{})
		if err != nil {
			b.Fatal(err)
		}
		if o := outs[0]; o.Error != "" || o.Summary.Emails != cfg.Emails {
			b.Fatalf("outcome: %s, %d emails", o.Error, o.Summary.Emails)
		}
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(ru.Maxrss)/1024, "peak-RSS-MiB") // Maxrss is in KiB on Linux
}
