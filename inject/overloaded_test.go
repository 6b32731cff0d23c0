package inject

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/openai/openai-go/v3"
)

// TestOverloadedIsRetried: the SDK sees each overloaded status as an
// *openai.Error with code overloaded and retries it twice.
func TestOverloadedIsRetried(t *testing.T) {
	for _, status := range []int{529, 503} {
		t.Run(strconv.Itoa(status), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				rig := newRig(t, parse(t, "overloaded", "status="+strconv.Itoa(status)))
				_, _, err := chatCall(t.Context(), rig.client(0, 2), question(0), "auto", false)
				var apiErr *openai.Error
				if !errors.As(err, &apiErr) || apiErr.StatusCode != status || apiErr.Code != "overloaded" {
					t.Fatalf("error %v, want *openai.Error %d overloaded", err, status)
				}
				if rig.attempts.n != 3 || len(rig.faults) != 3 || rig.faults[0].Kind != "overloaded" {
					t.Errorf("%d attempts, faults %+v; want 3 overloaded (the SDK's 2 retries)", rig.attempts.n, rig.faults)
				}
			})
		})
	}
}

// TestOverloadedRetryAfter: with retry_after the SDK waits that long before
// each retry.
func TestOverloadedRetryAfter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rig := newRig(t, parse(t, "overloaded", "retry_after=7s"))
		chatCall(t.Context(), rig.client(0, 2), question(0), "auto", false)
		if len(rig.attempts.times) != 3 {
			t.Fatalf("%d attempts, want 3", len(rig.attempts.times))
		}
		for i := 1; i < 3; i++ {
			if gap := rig.attempts.times[i].Sub(rig.attempts.times[i-1]); gap != 7*time.Second {
				t.Errorf("retry %d after %v, want the 7s the server asked for", i, gap)
			}
		}
	})
}

func TestOverloadedStatuses(t *testing.T) {
	if _, err := ParseFault("overloaded", []string{"status=500"}); err == nil {
		t.Error("status 500 accepted")
	}
	w, err := ParseFault("overloaded", nil)
	if err != nil {
		t.Fatal(err)
	}
	f, _ := NewFault(w.FaultSpec)
	if f.(*Overloaded).Status != 529 {
		t.Errorf("default status %d, want 529", f.(*Overloaded).Status)
	}
}

// TestChatKinds: the chat workload's faults are in the catalogue (Lookup,
// ParseFault) but not among the triage kinds; their parameters have
// defaults and help.
func TestChatKinds(t *testing.T) {
	if got := ChatKinds(); strings.Join(got, " ") != "loop malformed-tool-call overloaded" {
		t.Errorf("ChatKinds() = %v", got)
	}
	for _, k := range ChatKinds() {
		if slices.Contains(Kinds(), k) {
			t.Errorf("%s is among the triage kinds", k)
		}
		if _, err := Lookup(k); err != nil {
			t.Error(err)
		}
		ps, err := KindParams(k)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ps {
			if p.Help == "" || p.Default == "" {
				t.Errorf("%s.%s: no help or default: %+v", k, p.Key, p)
			}
		}
	}
	// Every registered kind is in exactly one of the two lists.
	if len(registry) != len(Kinds())+len(ChatKinds()) {
		t.Errorf("%d kinds registered, %v and %v listed", len(registry), Kinds(), ChatKinds())
	}
}
