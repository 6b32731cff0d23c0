package session

import (
	"os"
	"testing"

	"github.com/drill-dev/drill/internal/vclock"
)

// TestMain lets the virtual-clock runs (the baseline's, ChatDrills with
// virtual set) re-execute this test binary as their child.
func TestMain(m *testing.M) {
	vclock.Main()
	os.Exit(m.Run())
}
