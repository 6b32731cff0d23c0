package vclock

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"
)

func init() {
	Register("test-bubble-clock", func(_ context.Context, _ []byte, out io.Writer) error {
		start := time.Now()
		time.Sleep(24 * time.Hour) // virtual: the bubble's clock jumps
		_, err := io.WriteString(out, time.Since(start).String())
		return err
	})
}

// TestTheBubbleRunsOnThisGo guards the one use of testing.MainStart
// (mainstart.go) on the Go this is built with: a body run through it sits in
// a synctest bubble (a day of sleep passes at once, measured as exactly a
// day), and a goroutine left blocked in the bubble fails the run. If a new
// Go changes MainStart, this test (and the build) says so first.
func TestTheBubbleRunsOnThisGo(t *testing.T) {
	var out bytes.Buffer
	begin := time.Now()
	if err := Call(t.Context(), "test-bubble-clock", nil, &out, &bytes.Buffer{}); err != nil {
		t.Fatalf("a body run through testing.MainStart: %v", err)
	}
	if got := out.String(); got != "24h0m0s" {
		t.Errorf("a day's sleep in the bubble measured %q, want 24h0m0s (virtual time)", got)
	}
	if real := time.Since(begin); real > time.Hour {
		t.Errorf("the call took %v of real time", real)
	}
	err := Call(t.Context(), "test-leak", nil, &bytes.Buffer{}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "--- FAIL: "+testName) {
		t.Errorf("a goroutine left blocked in the bubble: %v, want the synthetic test's failure", err)
	}
}
