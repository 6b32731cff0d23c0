package redact

import (
	"strings"
	"testing"
)

// TestEnvNamedKey: the value of a key variable a configuration names is
// redacted everywhere drill writes, like OPENAI_API_KEY's.
func TestEnvNamedKey(t *testing.T) {
	t.Setenv("DRILL_TEST_OTHER_PROVIDER_KEY", "other-provider-secret-42")
	msg := "calling backup with other-provider-secret-42 failed"
	if got := String(msg); !strings.Contains(got, "other-provider-secret-42") {
		t.Fatalf("redacted before the variable was named: %q", got)
	}
	Env("DRILL_TEST_OTHER_PROVIDER_KEY")
	if got := String(msg); strings.Contains(got, "other-provider-secret-42") || !strings.Contains(got, Redacted) {
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
