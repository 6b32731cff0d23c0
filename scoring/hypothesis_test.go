package scoring

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func fptr(v float64) *float64 { return &v }

func TestParseExpr(t *testing.T) {
	for _, tc := range []struct {
		in, want, err string
	}{
		{in: "served.error == 0", want: "served.error == 0"},
		{in: "p95_wait_outage_s<=5", want: "p95_wait_outage_s <= 5"},
		{in: "  all4_right >= 0.85 ", want: "all4_right >= 0.85"},
		{in: "all4_right_ci95.0 > 0.5", want: "all4_right_ci95.0 > 0.5"},
		{in: "canned_share > 0.5", want: "canned_share > 0.5"},
		{in: "followed.served_by != error", want: "followed.served_by != error"},
		{in: `policy == "fail-fast"`, want: "policy == fail-fast"},
		{in: "served.eror == 0", err: `unknown figure "served.eror"; did you mean "served.error"?`},
		{in: "zzz_nothing_near == 0", err: `unknown figure "zzz_nothing_near" (valid: alert.*.fired, alert.*.first_run_s, alert.*.first_s, alert.*.foreign, alert.*.foreign_run, alert.*.notifications, alert.*.resolved, alert.*.resolved_run_s, alert.*.resolved_s, alert.*.stale, alert.*.stale_start_run_s, alerts_dropped, all4_right, all4_right_ci95.0,`},
		{in: "alert.BreakerOpen.first_s - breaker_first_open_s < 60", want: "alert.BreakerOpen.first_s - breaker_first_open_s < 60"},
		{in: "alert.BreakerOpen.first_s - breaker_opnes < 60", err: `unknown figure "breaker_opnes"`},
		{in: "alert.BreakerOpen.first_s - policy < 60", err: "policy is a string, and only numbers subtract"},
		{in: "served.error => 0", err: `unknown operator "=>" (valid: == != < <= > >=)`},
		{in: "served.error = 0", err: `unknown operator "="`},
		{in: "served.error", err: "no operator (valid: == != < <= > >=)"},
		{in: "served.error <", err: "no value after <"},
		{in: "served.error < lots", err: `served.error is a number, and "lots" is not one`},
		{in: "policy < x", err: "policy is a string and takes only == or !="},
	} {
		e, err := ParseExpr(tc.in)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("ParseExpr(%q) error %v, want %q", tc.in, err, tc.err)
		case tc.err == "" && err != nil:
			t.Errorf("ParseExpr(%q): %v", tc.in, err)
		case tc.err == "" && e.String() != tc.want:
			t.Errorf("ParseExpr(%q) = %q, want %q", tc.in, e, tc.want)
		}
	}
}

// TestFiguresAreTheSummaryJSON: every JSON leaf of a summary is a figure,
// named by its key path, and the derived figures come from served.
func TestFiguresAreTheSummaryJSON(t *testing.T) {
	s := Summary{Outage: "busy", Emails: 120, Served: Served{Primary: 60, Backup: 30, Canned: 20, Error: 10},
		All4Right: 0.8, All4RightCI95: [2]float64{0.7, 0.9}, P95WaitOutageS: fptr(2.5), Followed: Followed{Email: 35}}
	figs, err := FiguresOf(s)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(s)
	var top map[string]any
	_ = json.Unmarshal(b, &top)
	// Every top-level key is a figure, or holds figures (served.error), or
	// is a list or map, which has no fixed keys.
	for k, v := range top {
		switch v.(type) {
		case []any:
			continue
		case map[string]any:
			if !isMapKey(k) && !slices.ContainsFunc(Figures(), func(f string) bool { return strings.HasPrefix(f, k+".") }) {
				t.Errorf("summary object %q holds no figure", k)
			}
			continue
		}
		// A [low, high] array is two figures, k.0 and k.1 (all4_right_ci95).
		if _, ok := figs[k]; !ok && !slices.Contains(Figures(), k+".0") && !isMapKey(k) {
			t.Errorf("summary key %q is no figure", k)
		}
	}
	for name, want := range map[string]any{
		"served.error": 10.0, "all4_right_ci95.1": 0.9, "p95_wait_outage_s": 2.5, "median_wait_outage_s": nil,
		"followed.email": 35.0, "outage": "busy", "answered": 120.0, "canned_share": 20.0 / 120, "error_share": 10.0 / 120,
	} {
		if got, ok := figs[name]; !ok || got != want {
			t.Errorf("figure %s = %v (present %v), want %v", name, got, ok, want)
		}
	}
	for name := range figs {
		if _, known := figureKind(name); !known {
			t.Errorf("figure %s of a summary is not in Figures()", name)
		}
	}
	withMap, _ := FiguresOf(Summary{FieldsRight: map[string]float64{"urgency": 0.75}})
	if withMap["fields_right.urgency"] != 0.75 {
		t.Errorf("a figure under a map: fields_right.urgency = %v, want 0.75", withMap["fields_right.urgency"])
	}
	if _, err := ParseExpr("fields_right.urgency >= 0.9"); err != nil {
		t.Errorf("a figure under a map: %v", err)
	}
	if _, err := ParseExpr("fields_right.urgency.x >= 0.9"); err == nil {
		t.Error("a path deeper than the map's values is a figure")
	}
	empty, _ := FiguresOf(Summary{})
	if empty["answered"] != 0.0 || empty["canned_share"] != nil {
		t.Errorf("before any answer: answered %v, canned_share %v; want 0 and null", empty["answered"], empty["canned_share"])
	}
}

func TestJudge(t *testing.T) {
	s := Summary{Served: Served{Primary: 70, Backup: 50}, All4Right: 0.85, CallsToBrokenOutage: 12}
	figs, _ := FiguresOf(s)
	hyps, err := ParseExprs([]string{"served.error == 0", "all4_right >= 0.9", "p95_wait_outage_s <= 5", "calls_to_broken_outage <= 20"})
	if err != nil {
		t.Fatal(err)
	}
	got := Judge(figs, hyps)
	want := []Verdict{
		{Expr: "served.error == 0", Value: 0.0, Pass: true},
		{Expr: "all4_right >= 0.9", Value: 0.85, Pass: false},
		{Expr: "p95_wait_outage_s <= 5", Value: nil, Pass: false},
		{Expr: "calls_to_broken_outage <= 20", Value: 12.0, Pass: true},
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("verdict %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	if f := Failed(got); len(f) != 2 || FormatValue(f[1].Value) != "null" {
		t.Errorf("failed %+v, want the quality and the null wait", f)
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(got[2])
	if b.String() != `{"expr":"p95_wait_outage_s <= 5","value":null,"pass":false}`+"\n" {
		t.Errorf("verdict JSON %s", b.String())
	}
}

func TestLive(t *testing.T) {
	for _, tc := range []struct {
		expr string
		s    Summary
		want string
	}{
		{"served.error == 0", Summary{}, LivePass},
		{"served.error == 0", Summary{Served: Served{Error: 1}}, LiveFail},        // a count never goes down
		{"calls_to_broken_outage < 5", Summary{CallsToBrokenOutage: 5}, LiveFail}, // already at the bound
		{"calls_to_broken_outage >= 5", Summary{CallsToBrokenOutage: 2}, LiveAtRisk},
		{"all4_right >= 0.9", Summary{All4Right: 0.8}, LiveAtRisk}, // a share can recover
		{"p95_wait_outage_s <= 5", Summary{}, LiveAtRisk},          // not measured yet
		{"p95_wait_outage_s <= 5", Summary{P95WaitOutageS: fptr(9)}, LiveAtRisk},
		{"canned_share <= 0.1", Summary{Served: Served{Primary: 9, Canned: 1}}, LivePass},
	} {
		e, err := ParseExpr(tc.expr)
		if err != nil {
			t.Fatal(err)
		}
		figs, _ := FiguresOf(tc.s)
		if got := e.Live(figs); got != tc.want {
			t.Errorf("%s on %+v: %q, want %q", tc.expr, tc.s.Served, got, tc.want)
		}
	}
}

// isMapKey reports whether a summary key holds a map (no fixed keys).
func isMapKey(k string) bool {
	t := reflect.TypeFor[Summary]()
	for i := range t.NumField() {
		f := t.Field(i)
		if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name == k {
			return f.Type.Kind() == reflect.Map || f.Type.Kind() == reflect.Slice
		}
	}
	return false
}

// TestAnsweredIsServedAnswered: the answered figure counts what
// Served.Answered counts, every outcome set, so that a check and the
// summary never give two answers.
func TestAnsweredIsServedAnswered(t *testing.T) {
	sv := Served{Primary: 1, Backup: 2, Canned: 4, Error: 8, Cancelled: 16, Rules: 32, HandedOver: 64, Rejected: 128}
	figs, err := FiguresOf(Summary{Served: sv, EmailsAnswered: sv.Answered()})
	if err != nil {
		t.Fatal(err)
	}
	if figs["answered"] != float64(sv.Answered()) || figs["answered"] != figs["emails_answered"] {
		t.Errorf("answered = %v, emails_answered = %v, Served.Answered() = %d", figs["answered"], figs["emails_answered"], sv.Answered())
	}
}
