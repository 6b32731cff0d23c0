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
