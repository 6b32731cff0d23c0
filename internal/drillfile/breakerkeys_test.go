package drillfile

import (
	"slices"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"

	"github.com/drill-dev/drill/workload"
)

// TestBreakerKeysAreOneTable: every breaker key of the chat workload's
// tool_breakers: section (its scope aside, which is the tools') is a key of
// the one table the triage overrides read too, and every key of that table
// is an override key.
func TestBreakerKeysAreOneTable(t *testing.T) {
	var table []string
	for _, k := range breakerKeys {
		table = append(table, k.key)
	}
	for _, key := range keysOf[ChatToolBreakers]() {
		if key != "scope" && !slices.Contains(table, key) {
			t.Errorf("tool_breakers.%s is not in breakerKeys", key)
		}
	}
	for _, key := range table {
		if !slices.Contains(OverrideKeys(), key) {
			t.Errorf("breaker key %s is not an override key", key)
		}
	}
}

// TestToolBreakerKeysCheckAsOverridesDo: a value the triage policy refuses
// for a breaker key, the tool_breakers: section refuses with the same
// words, naming its own key.
func TestToolBreakerKeysCheckAsOverridesDo(t *testing.T) {
	for _, c := range []struct{ key, value, want string }{
		{"trip_failure_rate", "1.5", "must be above 0 and at most 1 (a share of calls), got 1.5"},
		{"trip_window", "0s", "must be above 0, got 0s"},
		{"trip_min_samples", "0", "must be at least 1, got 0"},
	} {
		f, err := Parse("chat.yaml", []byte("chat:\n  tool_breakers: {"+c.key+": "+c.value+"}\n"))
		if err != nil {
			t.Fatalf("%s: %v", c.key, err)
		}
		_, _, err = f.Chat.Tools()
		if err == nil || !strings.Contains(err.Error(), "tool_breakers."+c.key+": "+c.want) {
			t.Errorf("tool_breakers %s: %s: %v, want %q", c.key, c.value, err, c.want)
		}
		var o Overrides
		if err := yaml.Unmarshal([]byte(c.key+": "+c.value+"\n"), &o); err != nil {
			t.Fatalf("%s: %v", c.key, err)
		}
		p, err := workload.Preset("breaker")
		if err != nil {
			t.Fatal(err)
		}
		if err := o.Apply(&p); err == nil || !strings.Contains(err.Error(), c.key+": "+c.want) {
			t.Errorf("override %s: %s: %v, want %q", c.key, c.value, err, c.want)
		}
	}
}
