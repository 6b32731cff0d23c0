package predict

import (
	"fmt"
	"strings"
	"testing"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/sdkprofile"
)

// A 429 storm with Retry-After 90 s: the npm package ignores a hint over
// 60 s and makes its 3 attempts within its own backoff; openai-go and
// openai-python make 1 attempt in the outage and wait the 90 s.
func TestRateLimitPerSDK(t *testing.T) {
	cfg := chapter(t, "rate-limit", "breaker")
	cfg.Outages = []event.Window{{FaultSpec: event.FaultSpec{Kind: "rate-limit", Params: map[string]string{"retry_after": "90s"}},
		From: cfg.OutageFrom, To: cfg.OutageTo}}
	for _, tc := range []struct {
		sdk      string
		attempts int
		line     string
	}{
		{sdkprofile.Node, 3, "ignores your Retry-After of 90 s (over its 60 s cap) and retries after 0.5 s and 1 s"},
		{sdkprofile.Python, 1, "honours your Retry-After of 90 s"},
		{sdkprofile.Go, 1, "honours your Retry-After of 90 s"},
	} {
		prof, err := sdkprofile.Lookup(tc.sdk)
		if err != nil {
			t.Fatal(err)
		}
		p, err := ComputeFor(cfg, prof)
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Join(p.Lines, "\n")
		if p.Attempts != tc.attempts || !strings.Contains(text, tc.line) || p.SDK != prof.Label() {
			t.Errorf("%s: %d attempts, want %d; lines:\n%s", tc.sdk, p.Attempts, tc.attempts, text)
		}
		switch tc.sdk {
		case sdkprofile.Node:
			if p.FailureS == nil || *p.FailureS != (Range{1.125, 1.5}) {
				t.Errorf("node: failure %v, want 1.125–1.5 s", p.FailureS)
			}
		default:
			// The one attempt, then the 90 s wait: the retry lands after
			// the 25 s outage and is answered.
			if p.WorstWaitS == nil || p.WorstWaitS[0] < 90 || !strings.Contains(text, "makes 1 attempt in it") {
				t.Errorf("%s: worst wait %v, want 90 s and more; lines:\n%s", tc.sdk, p.WorstWaitS, text)
			}
		}
	}
}

// A hang with no time limit: openai-go waits forever; the npm package and
// openai-python give up after their 10-minute default, three times.
func TestHangWithoutLimitPerSDK(t *testing.T) {
	cfg := chapter(t, "hang", "primary-only")
	cfg.Policy.Primary.TimeLimit = 0
	for sdk, want := range map[string]*Range{sdkprofile.Go: nil, sdkprofile.Node: {1801.125, 1801.5}, sdkprofile.Python: {1801.125, 1801.5}} {
		prof, _ := sdkprofile.Lookup(sdk)
		p, err := ComputeFor(cfg, prof)
		if err != nil {
			t.Fatal(err)
		}
		if (p.FailureS == nil) != (want == nil) || (want != nil && *p.FailureS != *want) {
			t.Errorf("%s: failure %v, want %v", sdk, p.FailureS, want)
		}
	}
}

// The kinds the profile plays, run with openai-go in fake time: the
// breaker's measured first open lies in the predicted range (or both say
// never), as for busy and hang.
func TestProfileKindsFirstOpenInRange(t *testing.T) {
	for _, tc := range []struct {
		outage, policy string
		params         map[string]string
		count429       bool
	}{
		{"rate-limit", "breaker", nil, false},
		{"rate-limit", "breaker", nil, true},
		{"rate-limit", "breaker", map[string]string{"retry_after": "3m"}, true},
		{"reset", "breaker", nil, false},
		{"reset", "breaker", map[string]string{"at": "body"}, false},
		{"stall", "breaker", nil, false},
		{"stall", "fail-fast", nil, false},
	} {
		cfg := chapter(t, tc.outage, tc.policy)
		cfg.Outages = []event.Window{{FaultSpec: event.FaultSpec{Kind: tc.outage, Params: tc.params}, From: cfg.OutageFrom, To: cfg.OutageTo}}
		if tc.count429 {
			cfg.Policy.Primary.Breaker.Count429 = true
		}
		check(t, fmt.Sprintf("%s %v/%s count_429=%v", tc.outage, tc.params, tc.policy, tc.count429), cfg)
	}
}
