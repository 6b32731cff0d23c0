package sweep

import (
	"errors"
	"math"
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
	if _, err := g.Settings(); !errors.Is(err, ErrTooBig) {
		t.Errorf("1000 × 1000 grid: err = %v, want ErrTooBig", err)
	}
}

func TestSummarize(t *testing.T) {
	if s := Summarize([]float64{3, 1, 2}); s != (Stat{Median: 2, Min: 1, Max: 3, N: 3}) {
		t.Errorf("odd: %+v", s)
	}
	if s := Summarize([]float64{4, 1, 2, 10}); s != (Stat{Median: 3, Min: 1, Max: 10, N: 4}) {
		t.Errorf("even: %+v", s)
	}
	if s := Summarize(nil); s != (Stat{}) {
		t.Errorf("none: %+v", s)
	}
	if s := Summarize([]float64{4, 1, 2, 10}); s.Spread() != 9 {
		t.Errorf("spread = %v", s.Spread())
	}
}

func TestAggregate(t *testing.T) {
	got := Aggregate([]map[string]float64{
		{"a": 1, "b": 5},
		{"a": 3, "b": math.NaN()},
		{"a": 2},
	})
	if got["a"] != (Stat{Median: 2, Min: 1, Max: 3, N: 3}) {
		t.Errorf("a = %+v", got["a"])
	}
	if got["b"] != (Stat{Median: 5, Min: 5, Max: 5, N: 1}) {
		t.Errorf("b (measured once) = %+v", got["b"])
	}
	if _, ok := got["c"]; ok {
		t.Error("a figure no run measured has a Stat")
	}
}

func stats(p95, all4, calls float64) map[string]Stat {
	return map[string]Stat{
		"p95_wait_outage_s":      {Median: p95, Min: p95, Max: p95, N: 1},
		"all4_right":             {Median: all4, Min: all4, Max: all4, N: 1},
		"calls_to_broken_outage": {Median: calls, Min: calls, Max: calls, N: 1},
	}
}

func TestDominated(t *testing.T) {
	rows := []map[string]Stat{
		stats(1, 0.85, 10), // 0: front (fast)
		stats(2, 0.90, 10), // 1: front (better quality)
		stats(2, 0.85, 10), // 2: dominated by 0 (slower, same quality, same calls)
		stats(1, 0.85, 10), // 3: tie with 0: front
		stats(5, 0.95, 40), // 4: front (best quality)
		stats(5, 0.95, 41), // 5: dominated by 4 (one call more)
		{"all4_right": {Median: 0.99, N: 1}, "calls_to_broken_outage": {Median: 1, N: 1}}, // 6: no p95: worst there, but best elsewhere: front
		{"all4_right": {Median: 0.5, N: 1}, "calls_to_broken_outage": {Median: 50, N: 1}}, // 7: no p95, worse everywhere than 6: dominated
	}
	got := Dominated(rows, TradeOff)
	want := []bool{false, false, true, false, false, true, false, true}
	if !slices.Equal(got, want) {
		t.Errorf("Dominated = %v, want %v", got, want)
	}
}

func TestHigherIsBetter(t *testing.T) {
	for _, c := range []struct {
		fig        string
		higher, ok bool
	}{
		{"all4_right", true, true},
		{"all4_right_ci95.0", true, true},
		{"fields_right.urgency", true, true},
		{"p95_wait_outage_s", false, true},
		{"calls_to_broken_outage", false, true},
		{"served.error", false, true},
		{"served.primary", true, true},
		{"seed", false, false},
	} {
		h, ok := HigherIsBetter(c.fig)
		if h != c.higher || ok != c.ok {
			t.Errorf("HigherIsBetter(%s) = %v, %v; want %v, %v", c.fig, h, ok, c.higher, c.ok)
		}
	}
}

func TestOrder(t *testing.T) {
	rows := []map[string]Stat{
		{"x": {Median: 3, N: 1}},
		{},
		{"x": {Median: 1, N: 1}},
		{"x": {Median: 3, N: 1}},
		{"x": {Median: 2, N: 0}}, // not measured
	}
	if got := Order(rows, "x", false); !slices.Equal(got, []int{2, 0, 3, 1, 4}) {
		t.Errorf("ascending = %v", got)
	}
	if got := Order(rows, "x", true); !slices.Equal(got, []int{0, 3, 2, 1, 4}) {
		t.Errorf("descending = %v", got)
	}
}
