package main

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestLongCommandsInterrupted: the first Ctrl-C (the command's context
// ending) stops each long command — sweep, recommend, eval, the chat
// drills — with exit 130, soon after, without a stack trace.
func TestLongCommandsInterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("starts virtual-clock processes")
	}
	const bound = 5 * time.Second // a second on an idle machine; room for a loaded one
	for _, args := range [][]string{
		{"sweep", "--clock", "virtual", "--primary-timeout", "1s,2s,3s,4s,5s", "--primary-retries", "0..4", "--trip-failures", "3..7", "--outages", "busy", "--repeat", "4", "--no-tui", "--json"},
		{"recommend", "--within", "5s", "--json"},
		{"eval", "--model", "all"},
		{"compare", "--workload", "chat", "--clock", "virtual", "--json"},
		{"run", "--workload", "chat", "--clock", "virtual", "--conversations", "100000", "--json"},
	} {
		ctx, cancel := context.WithCancel(t.Context())
		timer := time.AfterFunc(500*time.Millisecond, cancel)
		start := time.Now()
		_, stderr, code := execute(ctx, args...)
		took := time.Since(start)
		timer.Stop()
		cancel()
		if code != 130 || strings.Contains(stderr, "goroutine ") || took > 500*time.Millisecond+bound {
			t.Errorf("%s: exit %d after %v (Ctrl-C at 0.5 s), stderr %q; want 130 within %v of it", args[0], code, took.Round(time.Millisecond), stderr, bound)
		}
		t.Logf("%s: exit %d, %v after the Ctrl-C", args[0], code, (took - 500*time.Millisecond).Round(time.Millisecond))
	}
}
