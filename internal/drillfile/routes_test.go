package drillfile

import (
	"strings"
	"testing"

	"github.com/drill-dev/drill/event"
)

// TestRoutesRead: routes: reads a preset, a file's policy by name and a
// policy written out, with backup: never and its mode.
func TestRoutesRead(t *testing.T) {
	f, err := Parse("routes.yaml", []byte(`
policies:
  - {name: quick, preset: fail-fast, primary_timeout: 2s}
routes:
  - {class: safety, match: {safety: true}, policy: quick, backup: "never, person"}
  - class: billing-error
    match: {intent: [refund], urgency: [high]}
    policy: {preset: breaker}
    backup: never, wait-for-primary
    wait: 20s
    queue: 3
  - {class: returns, match: {keywords: [return]}, policy: fallback, within: 4s}
`))
	if err != nil {
		t.Fatal(err)
	}
	rs, err := f.RouteList()
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 3 {
		t.Fatalf("%d routes", len(rs))
	}
	if r := rs[0]; r.Class != "safety" || r.Hold != event.HoldPerson || r.Policy.Name != "quick" || r.Policy.Primary.TimeLimit.Seconds() != 2 {
		t.Errorf("safety: %+v", r)
	}
	if r := rs[1]; r.Hold != event.HoldWaitForPrimary || r.Wait.Seconds() != 20 || r.Queue != 3 || r.Policy.Primary.Breaker == nil {
		t.Errorf("billing-error: %+v", r)
	}
	if r := rs[2]; r.Hold != "" || r.Within.Seconds() != 4 || r.Policy.Backup == nil {
		t.Errorf("returns: %+v", r)
	}
}

// TestRoutesChecked: every mistake is an error at its line.
func TestRoutesChecked(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"routes:\n  - {class: safety, policy: fail-fast}\n", "r.yaml:2:5: a route needs a match"},
		{"routes:\n  - {class: Safety, match: {safety: true}, policy: fail-fast}\n", "r.yaml:2:13: class \"Safety\""},
		{"routes:\n  - {class: safety, match: {safety: true}, policy: fast}\n", `policy "fast" is neither a preset`},
		{"routes:\n  - {class: safety, match: {safety: true}, policy: fail-fast, backup: never}\n", "never needs what to do instead"},
		{"routes:\n  - {class: safety, match: {safety: true}, policy: fail-fast, backup: \"never, later\"}\n", `unknown mode "later"`},
		{"routes:\n  - {class: safety, match: {intent: [complain]}, policy: fail-fast}\n", `intent "complain"`},
		{"routes:\n  - {class: safety, match: {safety: true}, policy: fail-fast, queue: 3}\n", "wait and queue are for"},
		{"routes:\n  - {class: safety, match: {safety: true}, policy: fail-fast}\n  - {class: safety, match: {safety: true}, policy: fail-fast}\n", "routed twice"},
		{"routes:\n  - {class: safety, match: {sfety: true}, policy: fail-fast}\n", "sfety"},
	} {
		_, err := Parse("r.yaml", []byte(c.yaml))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.yaml, err, c.want)
		}
	}
}
