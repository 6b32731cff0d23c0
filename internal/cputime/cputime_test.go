//go:build unix

package cputime

import (
	"os/exec"
	"testing"
)

// TestCPUTimeGrows: spinning raises this process's CPU time, and a child
// waited for adds to the children's.
func TestCPUTimeGrows(t *testing.T) {
	before := Self()
	x := 0
	for i := range 50_000_000 {
		x += i % 7
	}
	if after := Self(); after <= before {
		t.Errorf("self: %v after spinning, %v before (%d)", after, before, x)
	}
	children := Children()
	if err := exec.Command("sh", "-c", "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done").Run(); err != nil {
		t.Skip("no shell to spin up a child:", err)
	}
	if after := Children(); after <= children {
		t.Errorf("children: %v after a waited child, %v before", after, children)
	}
}
