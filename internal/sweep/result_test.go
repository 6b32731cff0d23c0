package sweep

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/drill-dev/drill/scoring"
)

func TestSettingFlags(t *testing.T) {
	s := Setting{{AxisOutages, "hang"}, {AxisPolicies, "breaker"}, {FaultAxis + "retry_after", "20s"}, {"primary-timeout", "1s"}}
	if got := s.Flags(); got != "--outage hang --policy breaker --fault retry_after=20s --primary-timeout 1s" {
		t.Errorf("Flags = %q", got)
	}
	if got := s.FaultParams(); !slices.Equal(got, []string{"retry_after=20s"}) {
		t.Errorf("FaultParams = %q", got)
	}
	if got := AxisHead(FaultAxis + "retry_after"); got != "--fault retry_after" {
		t.Errorf("AxisHead = %q", got)
	}
	other := Setting{{AxisOutages, "hang"}, {AxisPolicies, "breaker"}, {FaultAxis + "retry_after", "20s"}, {"primary-timeout", "2s"}}
	if got := Labels([]Setting{s, other}); !slices.Equal(got, []string{"--primary-timeout 1s", "--primary-timeout 2s"}) {
		t.Errorf("Labels = %q", got)
	}
}

func TestTabulate(t *testing.T) {
	sum := func(p95 float64, calls int) scoring.Summary {
		return scoring.Summary{Outage: "busy", P95WaitOutageS: &p95, EmailsAnswered: 10, All4Right: 0.9, CallsToBrokenOutage: calls}
	}
	var g Grid
	if err := g.Add("primary-timeout", []string{"1s", "2s"}); err != nil {
		t.Fatal(err)
	}
	planned := []Planned{
		{Setting: Setting{{"primary-timeout", "1s"}}, Outage: "busy", Policy: "breaker", Seed: 7,
			Runs: []Ran{{Status: "completed", Summary: sum(3, 10), Journal: "a.jsonl"}, {Status: "completed", Summary: sum(5, 10)}}},
		{Setting: Setting{{"primary-timeout", "2s"}}, Outage: "busy", Policy: "breaker", Seed: 7,
			Runs: []Ran{{Status: "completed", Summary: sum(2, 8)}}},
	}
	res, err := Tabulate(context.Background(), g, planned, 2, "virtual", time.Now().Add(-1500*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	if res.WallS < 1.5 {
		t.Errorf("wall %v s: the tabulation began 1.5 s after the drills' start", res.WallS)
	}
	r0 := res.Rows[0]
	if !slices.Equal(r0.Seeds, []int64{7, 8}) || !slices.Equal(r0.Journals, []string{"a.jsonl"}) || r0.Flags != "--primary-timeout 1s" {
		t.Errorf("row 1: seeds %v, journals %v, flags %q", r0.Seeds, r0.Journals, r0.Flags)
	}
	if st := r0.Figures["p95_wait_outage_s"]; st.Median != 4 || st.N != 2 || !r0.Dominated || res.Rows[1].Dominated {
		t.Errorf("row 1 p95 %+v dominated %v, row 2 dominated %v", st, r0.Dominated, res.Rows[1].Dominated)
	}
	res.Sort("p95_wait_outage_s", false)
	if res.Rows[0].Flags != "--primary-timeout 2s" {
		t.Errorf("sorted by p95: first row %q", res.Rows[0].Flags)
	}
	res.Top(1)
	if len(res.Rows) != 1 || res.Settings != 2 {
		t.Errorf("top 1: %d rows of %d settings", len(res.Rows), res.Settings)
	}
}

// TestTabulateCancelled: a Ctrl-C after the drills stops the tabulation.
func TestTabulateCancelled(t *testing.T) {
	var g Grid
	if err := g.Add("primary-timeout", []string{"1s", "2s"}); err != nil {
		t.Fatal(err)
	}
	planned := []Planned{{Setting: Setting{{"primary-timeout", "1s"}}, Outage: "busy", Policy: "breaker",
		Runs: []Ran{{Status: "completed", Summary: scoring.Summary{Outage: "busy", EmailsAnswered: 1}}}}}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if res, err := Tabulate(ctx, g, planned, 1, "virtual", time.Now()); !errors.Is(err, context.Canceled) || res != nil {
		t.Errorf("cancelled: result %v, error %v", res, err)
	}
}

func TestParseSort(t *testing.T) {
	for _, c := range []struct {
		in   string
		fig  string
		desc bool
		ok   bool
	}{
		{"", "", false, true},
		{"all4_right", "all4_right", true, true},
		{"p95_wait_outage_s", "p95_wait_outage_s", false, true},
		{"p95_wait_outage_s:desc", "p95_wait_outage_s", true, true},
		{"nope", "", false, false},
		{"all4_right:up", "", false, false},
	} {
		fig, desc, err := ParseSort(c.in)
		if fig != c.fig || desc != c.desc || (err == nil) != c.ok {
			t.Errorf("ParseSort(%q) = %q, %v, %v", c.in, fig, desc, err)
		}
	}
}

func TestBuildGrid(t *testing.T) {
	g, err := BuildGrid([]RawAxis{
		{Name: "primary-retries", Type: "int", Raw: []string{"0..2"}},
		{Name: "fault", Type: "stringArray", Raw: []string{"retry_after=1s,2s"}, List: true},
		{Name: "trip", Type: "stringSlice", Raw: []string{"count", "count,in-flight"}, List: true},
	}, true)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, a := range g.Axes {
		names = append(names, a.Name)
	}
	want := []string{AxisOutages, AxisPolicies, "primary-retries", FaultAxis + "retry_after", "trip"}
	if !slices.Equal(names, want) {
		t.Errorf("axes %v, want %v", names, want)
	}
	if n, _ := g.Size(); n != 2*1*3*2*2 {
		t.Errorf("size %d", n)
	}
	if _, err := BuildGrid([]RawAxis{{Name: "primary-timeout", Type: "duration", Raw: []string{"1s..5s"}}}, false); err == nil {
		t.Error("a duration range without a step: no error")
	}
}

// TestSecretsNotShown: a swept --base-url with a password, a credential
// query value and a fragment token is run as given (the setting keeps
// it) but shown redacted in the grid, the rows, the labels and their JSON.
func TestSecretsNotShown(t *testing.T) {
	const secretURL = "http://bob:hunter2pass@127.0.0.1:1/v1?api-key=azsecret55#token=frag777"
	var g Grid
	if err := g.Add("base-url", []string{secretURL, "http://127.0.0.1:2/v1"}); err != nil {
		t.Fatal(err)
	}
	settings, err := g.Settings()
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := settings[0].Value("base-url"); v != secretURL {
		t.Fatalf("the setting must keep the URL to run it, got %q", v)
	}
	sum := scoring.Summary{Outage: "busy", EmailsAnswered: 1}
	planned := []Planned{{Setting: settings[0], Outage: "busy", Policy: "breaker", Runs: []Ran{{Status: "completed", Summary: sum}}},
		{Setting: settings[1], Outage: "busy", Policy: "breaker", Runs: []Ran{{Status: "completed", Summary: sum}}}}
	res, err := Tabulate(context.Background(), g, planned, 1, "virtual", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	dry := PlanDry(g, settings, 1)
	shown, err := json.Marshal([]any{res, dry, Labels(settings), res.Fixed(), res.Rows[0].Flags})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"hunter2pass", "azsecret55", "frag777"} {
		if strings.Contains(string(shown), s) {
			t.Errorf("sweep output shows %q: %s", s, shown)
		}
	}
	if !strings.Contains(string(shown), "bob:[redacted]@127.0.0.1:1") {
		t.Errorf("the URL itself must still show: %s", shown)
	}
}
