package drillfile

import (
	"strings"
	"testing"
)

func TestSweepSection(t *testing.T) {
	f, err := Parse("s.yaml", []byte(`sweep:
  primary-timeout: [1s, 2s, 3s]
  primary-retries: 0..2
  trip-failures: 3,5
  cooldown: 10s
`))
	if err != nil {
		t.Fatal(err)
	}
	want := []SweepAxis{{"primary-timeout", "1s,2s,3s", 2}, {"primary-retries", "0..2", 3}, {"trip-failures", "3,5", 4}, {"cooldown", "10s", 5}}
	if len(f.Sweep) != len(want) {
		t.Fatalf("Sweep = %+v", f.Sweep)
	}
	for i, a := range want {
		if f.Sweep[i] != a {
			t.Errorf("axis %d = %+v, want %+v", i, f.Sweep[i], a)
		}
	}
}

func TestSweepSectionErrors(t *testing.T) {
	for _, c := range []struct{ src, msg string }{
		{"sweep: [1, 2]", "sweep must be a map"},
		{"sweep:\n  cooldown:\n", "has no values"},
		{"sweep:\n  cooldown: []\n", "has no values"},
		{"sweep:\n  cooldown: {a: 1}\n", "must be a value"},
		{"sweep:\n  cooldown: [[1s]]\n", "single value"},
		{"sweep:\n  cooldown: 1s\n  cooldown: 2s\n", "cooldown"},
	} {
		_, err := Parse("s.yaml", []byte(c.src))
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%q: error %v, want one containing %q", c.src, err, c.msg)
		}
	}
}
