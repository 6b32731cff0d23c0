package proxy

import (
	"maps"
	"testing"

	"github.com/drill-dev/drill/internal/exit"
)

func TestParseModelMap(t *testing.T) {
	m, err := ParseModelMap([]string{"gpt-4o = gpt-5.4-mini", "a=b"})
	if err != nil || !maps.Equal(m, map[string]string{"gpt-4o": "gpt-5.4-mini", "a": "b"}) {
		t.Errorf("two pairs: %v, %v", m, err)
	}
	if m, err := ParseModelMap(nil); m != nil || err != nil {
		t.Errorf("no pairs: %v, %v, want nil, nil", m, err)
	}
	for _, bad := range [][]string{{"a"}, {"=b"}, {"a="}, {"a=b", "a=c"}} {
		if _, err := ParseModelMap(bad); exit.Code(err) != 2 {
			t.Errorf("%q: exit %d (%v), want a usage error", bad, exit.Code(err), err)
		}
	}
}
