package session

import (
	"os"
	"testing"

	"github.com/drill-dev/drill/internal/vclock"
)

// TestMain lets the baseline's virtual-clock run re-execute this test
// binary as its child.
func TestMain(m *testing.M) {
	vclock.Main()
	os.Exit(m.Run())
}
