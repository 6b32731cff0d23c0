package inject

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// A window naming replicas breaks only those replicas' injectors; a
// window naming none breaks every replica's.
func TestReplicasModifier(t *testing.T) {
	w := parse(t, "busy", "replicas=3,1,3")
	if got := w.Replicas; len(got) != 2 || got[0] != 3 || got[1] != 1 {
		t.Fatalf("replicas=3,1,3 parsed as %v, want [3 1]", got)
	}
	if got := LogParams(w)[KeyReplicas]; got != "3,1" {
		t.Fatalf("LogParams replicas = %q, want 3,1", got)
	}
	for _, c := range []struct {
		replica int
		hit     bool
	}{{1, true}, {2, false}, {3, true}, {0, false}} {
		in := New(&okTransport{}, time.Now(), Options{Replica: c.replica})
		if err := in.Add(w); err != nil {
			t.Fatal(err)
		}
		req, _ := http.NewRequest(http.MethodPost, "http://model.invalid/v1/chat/completions", strings.NewReader("{}"))
		res, err := in.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if hit := res.StatusCode == http.StatusServiceUnavailable; hit != c.hit {
			t.Errorf("replica %d: status %d, want hit %v", c.replica, res.StatusCode, c.hit)
		}
	}
	for _, bad := range []string{"0", "x", "2,-1", ""} {
		if _, err := ParseFault("busy", []string{"replicas=" + bad}); err == nil || !strings.Contains(err.Error(), "replica numbers from 1") {
			t.Errorf("replicas=%q: error %v, want one saying replica numbers from 1", bad, err)
		}
	}
}
