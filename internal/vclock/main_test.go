package vclock

import (
	"os"
	"testing"
)

// TestMain lets Call re-execute this test binary as its virtual-clock child.
func TestMain(m *testing.M) {
	Main()
	os.Exit(m.Run())
}
