//go:build unix

package session

import (
	"io"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/workload"
)

// BenchmarkBigDrillRSSReal is `drill run --emails 100000 --rate 1000
// --record big.jsonl --no-tui` on the real clock: the default drill (busy
// outage, breaker) stretched to 100,000 emails, recorded, with the progress
// line, through Drill. It reports the process's peak RSS without GOMEMLIMIT
// (target: under 500 MiB); a machine that cannot keep up with 1,000 emails
// a second holds more emails in flight, and more memory. Run it alone in
// its process (peak RSS is the process's); an iteration takes about 110 s:
//
//	go test ./internal/session -run '^$' -bench BigDrillRSSReal -benchtime 1x
//
// internal/vclock's BenchmarkBigDrillRSS is the same drill on the virtual
// clock.
func BenchmarkBigDrillRSSReal(b *testing.B) {
	cfg := workload.DefaultConfig()
	cfg.Emails, cfg.Rate = 100_000, 1000
	for b.Loop() {
		res, err := Drill(b.Context(), cfg, Options{Journal: filepath.Join(b.TempDir(), "big.jsonl"), Progress: io.Discard})
		if err != nil {
			b.Fatal(err)
		}
		if res.Status != event.StatusCompleted || res.Summary.Emails != cfg.Emails {
			b.Fatalf("status %s, %d emails", res.Status, res.Summary.Emails)
		}
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(ru.Maxrss)/1024, "peak-RSS-MiB") // Maxrss is in KiB on Linux
}
