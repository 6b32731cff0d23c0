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
