package journal

import (
	"strings"
	"testing"
)

// TestRedactEnvNamedKey: the value of a key variable a configuration names
// is redacted everywhere drill writes, like OPENAI_API_KEY's.
func TestRedactEnvNamedKey(t *testing.T) {
	t.Setenv("DRILL_TEST_OTHER_PROVIDER_KEY", "other-provider-secret-42")
	msg := "calling backup with other-provider-secret-42 failed"
	if got := RedactSecrets(msg); !strings.Contains(got, "other-provider-secret-42") {
		t.Fatalf("redacted before the variable was named: %q", got)
	}
	RedactEnv("DRILL_TEST_OTHER_PROVIDER_KEY")
	if got := RedactSecrets(msg); strings.Contains(got, "other-provider-secret-42") || !strings.Contains(got, Redacted) {
		t.Errorf("RedactSecrets = %q, want the key redacted", got)
	}
}
