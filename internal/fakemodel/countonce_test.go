package fakemodel

import (
	"strings"
	"sync"
	"testing"
)

// TestCountOnceConcurrent counts one new text from many goroutines at once:
// every one gets the encoder's count, and the count is stored.
func TestCountOnceConcurrent(t *testing.T) {
	text := strings.Repeat("a fresh text for the concurrent count, ", 40) + t.Name()
	want := encoding().count(text)
	var wg sync.WaitGroup
	got := make([]int, 64)
	for i := range got {
		wg.Go(func() { got[i] = countTokens(text) })
	}
	wg.Wait()
	for i, n := range got {
		if n != want {
			t.Fatalf("goroutine %d counted %d tokens, want %d", i, n, want)
		}
	}
	if n, ok := tokenCounts.Get(text); !ok || n != want {
		t.Errorf("stored count %d, %v; want %d", n, ok, want)
	}
	counting.Lock()
	left := len(counting.m)
	counting.Unlock()
	if left != 0 {
		t.Errorf("%d texts left in flight", left)
	}
}
