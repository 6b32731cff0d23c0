package chain

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/event"
)

// classifyingHang is a transport that hangs until its request ends and
// classifies that end as the workload's observer does.
type classifyingHang struct {
	run      context.Context
	mu       sync.Mutex
	outcomes []event.Outcome
}

func (h *classifyingHang) RoundTrip(r *http.Request) (*http.Response, error) {
	<-r.Context().Done()
	err := r.Context().Err()
	h.mu.Lock()
	h.outcomes = append(h.outcomes, ClassifyAttempt(h.run, r, err))
	h.mu.Unlock()
	return nil, err
}

// TestEmailDeadlineCutsAnAttemptAsADeadline: the attempt the email's
// deadline cuts is logged as the deadline its rung call is, not as a
// timeout of the model's (which the fold counts as the model failing, in
// the observed outage window too).
func TestEmailDeadlineCutsAnAttemptAsADeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		hang := &classifyingHang{run: t.Context()}
		c := &Chain{Rungs: []*Rung{rung("primary", "m", hang, nil)}, Canned: true, EmailDeadline: 3 * time.Second}
		res := c.Serve(t.Context(), emails.All()[0])
		if len(res.Errors) == 0 || res.Errors[0].Outcome != event.Deadline {
			t.Fatalf("rung errors %+v, want the primary cut by the deadline", res.Errors)
		}
		if len(hang.outcomes) != 1 || hang.outcomes[0] != event.Deadline {
			t.Errorf("attempt outcomes %v, want [deadline]", hang.outcomes)
		}
	})
}
