package fakemodel

import (
	"slices"
	"testing"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/internal/answer"
)

// FuzzRead feeds arbitrary text to both readers: they never panic, and every
// answer is valid (closed sets, order number DR-dddddd or empty).
func FuzzRead(f *testing.F) {
	for _, e := range emails.All()[:20] {
		f.Add(e.Text())
	}
	for _, s := range []string{"", "Subject:", "Subject: x\n\n#", "dr", "DR12345 678", "order order order 123", "in time", "the 1st of",
		"no refund please", "a return", "9 may", "’’’", "\n\n\n?!?", "exchange for", "by the", "swap it for the summit 4"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		for _, r := range []*reader{miniReader, nanoReader} {
			a := r.read(msg).Answer
			if err := a.Valid(); err != nil {
				t.Fatalf("invalid answer %+v for %q: %v", a, msg, err)
			}
			if !slices.Contains(answer.Intents, a.Intent) {
				t.Fatalf("intent %q", a.Intent)
			}
		}
	})
}
