package chain

import (
	"bytes"
	"testing"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/internal/triage"
)

// TestCachedBodiesAreTheSDKBytes checks the cached request of every email,
// on the call that encodes it and on the calls that reuse it, is byte for
// byte the body the SDK sends for triage.Params.
func TestCachedBodiesAreTheSDKBytes(t *testing.T) {
	odd := emails.Email{From: "<a&b>@x.test", Subject: "Ünïcode \u2028 \"quoted\"", Body: "<script>&amp;\tline\nend \x01"}
	es := append(emails.All(), probeEmail, odd)
	for _, model := range []string{"gpt-5.4-mini", "gpt-5.4-nano"} {
		var c bodies
		for round := range 2 {
			for _, e := range es {
				want, err := triage.Params(model, e).MarshalJSON()
				if err != nil {
					t.Fatal(err)
				}
				got, err := c.params(model, e).MarshalJSON()
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("%s email %d round %d: cached body differs:\n got %s\nwant %s", model, e.ID, round, got, want)
				}
			}
		}
		if len(c.m) != len(es) {
			t.Errorf("%s: %d bodies cached, want %d", model, len(c.m), len(es))
		}
	}
}
