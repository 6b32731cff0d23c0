package inject

import (
	"errors"
	"strconv"
	"testing"
	"testing/synctest"

	"github.com/drill-dev/drill/event"
	"github.com/openai/openai-go/v3"
)

// TestBusyIsAnOpenAIError: the SDK sees each busy status as a real error
// with OpenAI's body, and retries it twice.
func TestBusyIsAnOpenAIError(t *testing.T) {
	for _, status := range BusyStatuses {
		t.Run(strconv.Itoa(status), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				w := parse(t, "busy", "status="+strconv.Itoa(status))
				rig := newRig(t, w)
				_, err := triageCall(t.Context(), rig.client(0, 2), email(0))
				var apiErr *openai.Error
				if !errors.As(err, &apiErr) || apiErr.StatusCode != status || apiErr.Type != "server_error" {
					t.Fatalf("error %v, want *openai.Error %d server_error", err, status)
				}
				if rig.attempts.n != 3 || len(rig.faults) != 3 {
					t.Fatalf("%d attempts, %d faults; want 3 of each (the SDK's 2 retries)", rig.attempts.n, len(rig.faults))
				}
				if got := rig.faults[0].Params["status"]; got != strconv.Itoa(status) {
					t.Errorf("fault logged with status %q", got)
				}
			})
		})
	}
}

func TestBusyDefaultsTo503(t *testing.T) {
	f, err := NewFault(event.FaultSpec{Kind: "busy"})
	if err != nil || f.(*Busy).Status != 503 {
		t.Fatalf("default busy: %+v, %v", f, err)
	}
}
