package redact

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
)

// namedKeyRuns numbers TestEnvNamedKey's runs: a name given to Env stays
// named for the process, so each run (go test -count=N) names its own.
var namedKeyRuns atomic.Int64

// TestEnvNamedKey: the value of a key variable a configuration names is
// redacted everywhere drill writes, like OPENAI_API_KEY's.
func TestEnvNamedKey(t *testing.T) {
	run := namedKeyRuns.Add(1)
	name, secret := fmt.Sprintf("DRILL_TEST_OTHER_PROVIDER_KEY_%d", run), fmt.Sprintf("other-provider-secret-%d", 42+run)
	t.Setenv(name, secret)
	msg := "calling backup with " + secret + " failed"
	if got := String(msg); !strings.Contains(got, secret) {
		t.Fatalf("redacted before the variable was named: %q", got)
	}
	Env(name)
	if got := String(msg); strings.Contains(got, secret) || !strings.Contains(got, Redacted) {
		t.Errorf("String = %q, want the key redacted", got)
	}
}

// TestEnvSetFollowsTheEnvironment: a key changed after String has run is
// the one redacted next, and reading an unchanged environment allocates
// nothing (String runs for every request a proxy prints).
func TestEnvSetFollowsTheEnvironment(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "first-secret-value-1")
	if got := String("a first-secret-value-1 b"); strings.Contains(got, "first-secret") {
		t.Fatalf("String = %q, want the first key redacted", got)
	}
	t.Setenv("OPENAI_API_KEY", "second-secret-value-2")
	if got := String("a first-secret-value-1 second-secret-value-2 b"); !strings.Contains(got, "first-secret") || strings.Contains(got, "second-secret") {
		t.Errorf("String = %q, want only the current key redacted", got)
	}
	if n := testing.AllocsPerRun(20, func() { envSet() }); n != 0 {
		t.Errorf("envSet allocates %v times on an unchanged environment", n)
	}
}

// TestStringAllocatesNothingWithoutAKey: a text holding no key (a model
// name, a path) comes back as it is, with no copies, whatever the key's
// length (an OpenAI key and its escaped forms pass 32 bytes).
func TestStringAllocatesNothingWithoutAKey(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-proj-"+strings.Repeat("0123456789abcdef&<>", 8))
	String("warm the cache")
	if n := testing.AllocsPerRun(20, func() { String("gpt-5.4-mini") }); n != 0 {
		t.Errorf("String allocates %v times on a text without a key", n)
	}
}
