package jsonscan

import "testing"

func TestBool(t *testing.T) {
	for in, want := range map[string]struct{ v, ok bool }{
		"true": {true, true}, "false": {false, true}, "null": {false, false},
		"tru": {false, false}, `"true"`: {false, false}, "": {false, false},
	} {
		s := New([]byte(in))
		v, ok := s.Bool()
		if v != want.v || ok != want.ok {
			t.Errorf("Bool(%q) = %v, %v; want %v, %v", in, v, ok, want.v, want.ok)
		}
		if ok && !s.End() {
			t.Errorf("Bool(%q) left %q", in, in[s.i:])
		}
	}
}
