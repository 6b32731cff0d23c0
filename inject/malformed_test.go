package inject

import (
	"strings"
	"testing"
	"testing/synctest"

	"github.com/drill-dev/drill/internal/triage"
)

// TestMalformedFailsTheSchema: the SDK accepts each malformed 200; the
// answer fails triage's strict parse the way its kind says, streamed or
// not.
func TestMalformedFailsTheSchema(t *testing.T) {
	for _, c := range []struct{ kind, want string }{
		{"json", "not a JSON object"},
		{"schema", `missing field "intent"`},
		{"enum", OutsideValue},
	} {
		t.Run(c.kind, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				rig := newRig(t, parse(t, "malformed", "kind="+c.kind))
				_, err := triageCall(t.Context(), rig.client(0, 2), email(5))
				if !triage.IsInvalid(err) || !strings.Contains(err.Error(), c.want) || rig.attempts.n != 1 {
					t.Errorf("not streamed: %v after %d attempts, want one invalid answer mentioning %q", err, rig.attempts.n, c.want)
				}
				res := streamCall(t.Context(), rig.client(0, 2), email(5))
				if res.err != nil {
					t.Fatalf("stream: %v", res.err)
				}
				if _, err := triage.Parse(res.text); !triage.IsInvalid(err) || !strings.Contains(err.Error(), c.want) {
					t.Errorf("stream: %v, want an invalid answer mentioning %q (text %q)", err, c.want, res.text)
				}
			})
		})
	}
}
