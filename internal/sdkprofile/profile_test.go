package sdkprofile

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

func mustLookup(t *testing.T, name string) Profile {
	t.Helper()
	p, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The measured table (npm 7.60, python 2.54, SDK defaults, two
// retries), played from the profiles.
func TestPlayMatchesTheMeasuredTable(t *testing.T) {
	one := Settings{Timeout: time.Second}
	trickle := Fault{Kind: Trickle, Body: 20 * time.Second, Gap: 500 * time.Millisecond}
	for _, tc := range []struct {
		name     string
		sdk      string
		fault    Fault
		s        Settings
		attempts int
		forever  bool
		failed   bool
		err      string
	}{
		{"node 429 90s: ignores the hint", Node, Fault{Kind: RateLimit, RetryAfter: 90 * time.Second}, Settings{}, 3, false, true, "RateLimitError"},
		{"python 429 90s: honours it", Python, Fault{Kind: RateLimit, RetryAfter: 90 * time.Second}, Settings{}, 3, false, true, "RateLimitError"},
		{"go 429 3m: does not retry", Go, Fault{Kind: RateLimit, RetryAfter: 3 * time.Minute}, Settings{}, 1, false, true, "*openai.Error"},
		{"node trickle 1s: whole-body timeout, retried", Node, trickle, one, 3, false, true, "APIConnectionTimeoutError"},
		{"python trickle 1s: read timeout restarts", Python, trickle, one, 1, false, false, ""},
		{"node stall not streamed", Node, Fault{Kind: Stall}, one, 3, false, true, "APIConnectionTimeoutError"},
		{"python stall not streamed", Python, Fault{Kind: Stall}, one, 3, false, true, "APITimeoutError"},
		{"go stall not streamed", Go, Fault{Kind: Stall}, one, 1, false, true, "a read error wrapping the deadline"},
		{"node stall streamed: never fails", Node, Fault{Kind: Stall, Stream: true}, one, 1, true, true, ""},
		{"python stall streamed: raw ReadTimeout", Python, Fault{Kind: Stall, Stream: true}, one, 1, false, true, "httpx.ReadTimeout (raw)"},
		{"node reset mid-body", Node, Fault{Kind: Reset, AtBody: true}, Settings{}, 1, false, true, "TypeError: terminated (raw, from fetch)"},
		{"python reset mid-body", Python, Fault{Kind: Reset, AtBody: true}, Settings{}, 3, false, true, "APIConnectionError"},
		{"go hang, no limit", Go, Fault{Kind: Hang}, Settings{}, 1, true, true, ""},
		{"go hang, request timeout", Go, Fault{Kind: Hang}, Settings{Timeout: 5 * time.Second, RequestScope: true}, 1, false, true, "context.DeadlineExceeded"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := mustLookup(t, tc.sdk).Play(tc.fault, tc.s)
			if c.Attempts != tc.attempts || (c.Took[0] == Forever) != tc.forever || c.Failed != tc.failed || c.Error != tc.err {
				t.Errorf("got %d attempts, took %v, failed %v, error %q; want %d, forever %v, failed %v, %q",
					c.Attempts, c.Took, c.Failed, c.Error, tc.attempts, tc.forever, tc.failed, tc.err)
			}
		})
	}
}

func TestWaits(t *testing.T) {
	node, py, gosdk := mustLookup(t, Node), mustLookup(t, Python), mustLookup(t, Go)
	c := node.Play(Fault{Kind: RateLimit, RetryAfter: 90 * time.Second}, Settings{})
	if want := [2]time.Duration{1125 * time.Millisecond, 1500 * time.Millisecond}; c.Took != want {
		t.Errorf("node, Retry-After 90 s: took %v, want %v (its own 0.5 s and 1 s, less up to 25 %%)", c.Took, want)
	}
	c = py.Play(Fault{Kind: RateLimit, RetryAfter: 90 * time.Second}, Settings{})
	if c.Waits[0] != [2]time.Duration{90 * time.Second, 90 * time.Second} {
		t.Errorf("python, Retry-After 90 s: first wait %v, want 90 s", c.Waits[0])
	}
	// Node honours a hint of exactly 60 s; openai-go's cap moves with
	// option.WithMaxRetryDelay.
	if lo, _, ok, _ := node.Wait(0, 60*time.Second, Settings{}); !ok || lo != 60*time.Second {
		t.Errorf("node, Retry-After 60 s: waits %v (%v), want 60 s", lo, ok)
	}
	if _, _, ok, _ := gosdk.Wait(0, 3*time.Minute, Settings{MaxRetryDelay: 5 * time.Minute}); !ok {
		t.Error("go, Retry-After 3 min with a 5 min max retry delay: no retry")
	}
	if lo, hi, _, _ := gosdk.Wait(5, 0, Settings{}); lo != 6*time.Second || hi != 8*time.Second {
		t.Errorf("go, 6th retry: %v–%v, want 6–8 s (capped at 8 s)", lo, hi)
	}
}

func TestDescribe(t *testing.T) {
	got := mustLookup(t, Node).Describe(Fault{Kind: RateLimit, RetryAfter: 90 * time.Second}, Settings{})
	for _, want := range []string{"ignores your Retry-After of 90 s", "retries after 0.5 s and 1 s", "3 attempts", "RateLimitError"} {
		if !strings.Contains(got, want) {
			t.Errorf("node, 429 90 s: %q lacks %q", got, want)
		}
	}
	got = mustLookup(t, Python).Describe(Fault{Kind: RateLimit, RetryAfter: 90 * time.Second}, Settings{})
	if !strings.Contains(got, "honours your Retry-After of 90 s") {
		t.Errorf("python, 429 90 s: %q", got)
	}
}

func TestIdentify(t *testing.T) {
	for _, tc := range []struct {
		name         string
		headers      map[string]string
		pkg, version string
	}{
		{"node", map[string]string{"X-Stainless-Lang": "js", "X-Stainless-Package-Version": "7.60.0", "User-Agent": "OpenAI/JS 7.60.0"}, "openai-node", "7.60.0"},
		{"python", map[string]string{"X-Stainless-Lang": "python", "X-Stainless-Package-Version": "2.54.0", "User-Agent": "OpenAI/Python 2.54.0", "X-Stainless-Read-Timeout": "600.0"}, "openai-python", "2.54.0"},
		{"go", map[string]string{"X-Stainless-Lang": "go", "X-Stainless-Package-Version": "3.98.0"}, "openai-go", "3.98.0"},
		{"user agent only", map[string]string{"User-Agent": "OpenAI/Python 3.3.1"}, "openai-python", "3.3.1"},
		{"another stainless SDK", map[string]string{"X-Stainless-Lang": "kotlin", "X-Stainless-Package-Version": "4.0.0"}, "stainless-kotlin", "4.0.0"},
		{"curl", map[string]string{"User-Agent": "curl/8.5.0"}, "", ""},
		{"a long version is clipped", map[string]string{"X-Stainless-Lang": "js", "X-Stainless-Package-Version": strings.Repeat("9", 500)}, "openai-node", strings.Repeat("9", 64) + "…[cut 436 bytes]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := http.Header{}
			for k, v := range tc.headers {
				h.Set(k, v)
			}
			c := Identify(h)
			if c.Package != tc.pkg || c.Version != tc.version {
				t.Errorf("Identify = %q %q, want %q %q", c.Package, c.Version, tc.pkg, tc.version)
			}
		})
	}
}

func TestLookupListsTheValidNames(t *testing.T) {
	if _, err := Lookup("ruby"); err == nil || !strings.Contains(err.Error(), "valid: go, node, python") {
		t.Errorf("Lookup(ruby) = %v", err)
	}
	if p, err := Lookup("Node"); err != nil || p.Package != "openai-node" {
		t.Errorf("Lookup(Node) = %v, %v", p.Package, err)
	}
}

// Every profile states where it was read from.
func TestProfilesNameTheirSource(t *testing.T) {
	for _, p := range All() {
		if p.Version == "" || len(p.Sources) == 0 || p.Lang == "" || p.UserAgent == "" {
			t.Errorf("%s: version %q, sources %v, lang %q, user agent %q", p.Name, p.Version, p.Sources, p.Lang, p.UserAgent)
		}
	}
}

func TestDeclaredTimeout(t *testing.T) {
	h := http.Header{}
	h.Set("X-Stainless-Lang", "python")
	h.Set("X-Stainless-Read-Timeout", "2.5")
	if c := Identify(h); c.Timeout != 2500*time.Millisecond || c.Label() != "openai-python" {
		t.Errorf("python, read timeout 2.5: %+v %q", c, c.Label())
	}
	h = http.Header{}
	h.Set("X-Stainless-Lang", "js")
	h.Set("X-Stainless-Timeout", "0")
	if c := Identify(h); c.Timeout != 0 {
		t.Errorf("node, X-Stainless-Timeout 0: %v, want none", c.Timeout)
	}
	if c := Identify(http.Header{}); c.Label() != "unknown client" {
		t.Errorf("no headers: %q", c.Label())
	}
}

func TestFaultOf(t *testing.T) {
	f := FaultOf("rate-limit", map[string]string{"retry_after": "90s"}, false)
	if f.RetryAfter != 90*time.Second || f.Kind != RateLimit {
		t.Errorf("rate-limit retry_after=90s: %+v", f)
	}
	if f := FaultOf("rate-limit", map[string]string{"spend_cap": "true"}, false); f.RetryAfter != 0 {
		t.Errorf("spend cap: hint %v, want none", f.RetryAfter)
	}
	if f := FaultOf("reset", map[string]string{"at": "body"}, true); !f.AtBody || !f.Stream {
		t.Errorf("reset at=body streamed: %+v", f)
	}
}
