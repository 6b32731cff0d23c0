package format

import "testing"

func ptr(x float64) *float64 { return &x }

func TestFigures(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{Seconds(nil), "—"},
		{Seconds(ptr(1.24)), "1.2 s"},
		{Seconds(ptr(-0.01)), "0.0 s"},
		{Secs(16.31), "16.3 s"},
		{Percent(0.8512), "85%"},
		{PercentCI(0.85, [2]float64{0.7766, 0.9031}), "85% (78–90%)"},
		{PValue(0.0004), "< 0.001"},
		{PValue(0.0042), "0.004"},
		{PValue(0.5), "0.50"},
		{SignedSecs(-0.04), "+0.0 s"},
		{SignedPoints(0.033), "+3.3 pp"},
		{Span(5.26, 10.3), "5.3–10.3 s"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

func TestTextCleansControls(t *testing.T) {
	for in, want := range map[string]string{"": Dash, "breaker": "breaker", "\x1b[2J\x1b[Hx": "[2J[Hx", "a\nb": "a b", "é\u202eß": "éß"} {
		if got := Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPlural(t *testing.T) {
	for _, tc := range []struct {
		n          int
		what, want string
	}{{1, "run", "1 run"}, {0, "run", "0 runs"}, {3, "policy", "3 policies"}, {2, "day", "2 days"}, {1, "policy", "1 policy"}} {
		if got := Plural(tc.n, tc.what); got != tc.want {
			t.Errorf("Plural(%d, %q) = %q, want %q", tc.n, tc.what, got, tc.want)
		}
	}
}
