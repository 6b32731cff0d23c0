package sweep

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestParseValues(t *testing.T) {
	for _, c := range []struct {
		in   string
		kind Kind
		want []string
	}{
		{"1s,2s,3s,5s", Duration, []string{"1s", "2s", "3s", "5s"}},
		{"0..2", Int, []string{"0", "1", "2"}},
		{" 3 , 5 ", Int, []string{"3", "5"}},
		{"0..10..5,12", Int, []string{"0", "5", "10", "12"}},
		{"0..9..4", Int, []string{"0", "4", "8"}},
		{"1s..3s..500ms", Duration, []string{"1s", "1.5s", "2s", "2.5s", "3s"}},
		{"0.1..0.5..0.1", Float, []string{"0.1", "0.2", "0.3", "0.4", "0.5"}},
		{"busy,hang", String, []string{"busy", "hang"}},
		{"a..b", String, []string{"a..b"}},
		{"7", Int, []string{"7"}},
	} {
		got, err := ParseValues(c.in, c.kind)
		if err != nil {
			t.Errorf("ParseValues(%q): %v", c.in, err)
			continue
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("ParseValues(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestParseValuesErrors(t *testing.T) {
	for _, c := range []struct {
		in   string
		kind Kind
		msg  string
	}{
		{"1s,,2s", Duration, "empty value"},
		{"1s,1s", Duration, "given twice"},
		{"0..2,1", Int, "given twice"},
		{"2..0", Int, "ends before it starts"},
		{"0..4..0", Int, "step must be positive"},
		{"1s..5s", Duration, "needs a step"},
		{"0.1..0.5", Float, "needs a step"},
		{"x", Int, "whole number"},
		{"1..x", Int, "not a whole number"},
		{"5", Duration, "duration"},
		{"0..5000", Int, "more than 1000"},
		{"1..2..3..4", Int, "from..to..step"},
	} {
		_, err := ParseValues(c.in, c.kind)
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("ParseValues(%q) error = %v, want one containing %q", c.in, err, c.msg)
		}
	}
}

func TestGridSettings(t *testing.T) {
	var g Grid
	for _, a := range []Axis{{"outage", []string{"busy", "hang"}}, {"retries", []string{"0", "1", "2"}}, {"fixed", []string{"x"}}} {
		if err := g.Add(a.Name, a.Values); err != nil {
			t.Fatal(err)
		}
	}
	if err := g.Add("retries", []string{"9"}); err == nil {
		t.Error("adding an axis twice: no error")
	}
	if err := g.Add("empty", nil); err == nil {
		t.Error("adding an axis with no values: no error")
	}
	n, err := g.Size()
	if err != nil || n != 6 {
		t.Fatalf("Size = %d, %v; want 6", n, err)
	}
	ss, err := g.Settings()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range ss {
		got = append(got, s.String())
	}
	want := []string{
		"--outage busy --retries 0 --fixed x", "--outage busy --retries 1 --fixed x", "--outage busy --retries 2 --fixed x",
		"--outage hang --retries 0 --fixed x", "--outage hang --retries 1 --fixed x", "--outage hang --retries 2 --fixed x",
	}
	if !slices.Equal(got, want) {
		t.Errorf("Settings =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if v, ok := ss[4].Value("retries"); !ok || v != "1" {
		t.Errorf("Value(retries) = %q, %v", v, ok)
	}
	if _, ok := ss[4].Value("nope"); ok {
		t.Error("Value of an axis not in the grid: ok")
	}
	if !slices.Equal(g.Varying(), []string{"outage", "retries"}) {
		t.Errorf("Varying = %v", g.Varying())
	}
	if s := g.Shape(); s != "2 outage × 3 retries × 1 fixed = 6 settings" {
		t.Errorf("Shape = %q", s)
	}
	var empty Grid
	if ss, err := empty.Settings(); err != nil || len(ss) != 1 || len(ss[0]) != 0 {
		t.Errorf("empty grid: %v, %v; want one empty setting", ss, err)
	}
}

func TestGridTooBig(t *testing.T) {
	var g Grid
	vals := make([]string, 1000)
	for i := range vals {
		vals[i] = string(rune('a' + i%26))
	}
	for _, name := range []string{"a", "b"} {
		if err := g.Add(name, vals); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := g.Settings(); !errors.Is(err, ErrTooBig) || !strings.Contains(err.Error(), "sweep fewer values of --a, --b") {
		t.Errorf("1000 × 1000 grid: err = %v, want ErrTooBig naming --a and --b", err)
	}
}

// TestParseValuesNotFinite: NaN and infinities, as a value or as any end or
// step of a range, are errors naming the item, never a panic (NaN..1..0.1
// once reached make with a negative length).
func TestParseValuesNotFinite(t *testing.T) {
	for _, in := range []string{"NaN..1..0.1", "0..NaN..0.1", "0..1..NaN", "-Inf..1..0.1", "0..Inf..1",
		"0..1..1e-320", "-1e308..1e308..1e-308", "NaN", "+Inf", "0.1,inf"} {
		got, err := ParseValues(in, Float)
		if err == nil {
			t.Errorf("ParseValues(%q) = %v, want an error", in, got)
		}
	}
}

// TestGridPastMaxRuns: a grid of 20,000 settings (once 3 GB to run) is too
// big, naming the swept flags; one of MaxRuns settings is not.
func TestGridPastMaxRuns(t *testing.T) {
	values := func(n int) []string {
		vs := make([]string, n)
		for i := range vs {
			vs[i] = fmt.Sprint(i)
		}
		return vs
	}
	var big Grid
	if err := big.Add("primary-timeout", values(1000)); err != nil {
		t.Fatal(err)
	}
	if err := big.Add(FaultAxis+"retry_after", values(20)); err != nil {
		t.Fatal(err)
	}
	if _, err := big.Size(); !errors.Is(err, ErrTooBig) || !strings.Contains(err.Error(), "--primary-timeout, --fault retry_after") {
		t.Errorf("20,000 settings: err = %v, want ErrTooBig naming --primary-timeout and --fault retry_after", err)
	}
	var ok Grid
	if err := ok.Add("primary-timeout", values(MaxRuns)); err != nil {
		t.Fatal(err)
	}
	if n, err := ok.Size(); err != nil || n != MaxRuns {
		t.Errorf("MaxRuns settings: %d, %v", n, err)
	}
}
