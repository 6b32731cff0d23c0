//go:build unix

package session

import (
	"bytes"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/drill-dev/drill/internal/chat"
)

// BenchmarkThousandConversations is `drill compare --workload chat --clock
// virtual --policies agent-defaults --record DIR`: the simulation's 1,000
// conversations one a second, the mixed incident from 300 s to 600 s, in
// virtual time through the one entry point, recorded to a journal. It
// reports the wall time per drill (ns/op) and the peak RSS of the
// virtual-clock child:
//
//	go test ./internal/session -run '^$' -bench ThousandConversations -benchtime 1x
func BenchmarkThousandConversations(b *testing.B) {
	cfg := chat.DefaultConfig()
	for b.Loop() {
		job := ChatJob{Config: cfg, Journal: filepath.Join(b.TempDir(), "chat.jsonl")}
		outs, err := ChatDrills(b.Context(), []ChatJob{job}, true, &bytes.Buffer{})
		if err != nil {
			b.Fatal(err)
		}
		if o := outs[0]; o.Error != "" || o.Summary.Conversations != cfg.Conversations {
			b.Fatalf("outcome: %s, %d conversations", o.Error, o.Summary.Conversations)
		}
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(ru.Maxrss)/1024, "peak-RSS-MiB") // Maxrss is in KiB on Linux
}
