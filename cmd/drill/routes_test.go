package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/drill-dev/drill/scoring"
)

// TestRouteFlagKeepsSafetyOffTheBackup: --route on the command line, on
// the virtual clock, puts per-class figures and the classifier's accuracy
// in the JSON, and no safety email is served by the backup.
func TestRouteFlagKeepsSafetyOffTheBackup(t *testing.T) {
	out, errOut, code := execute(t.Context(), "run", "--no-tui", "--json", "--clock", "virtual", "--outage", "hang",
		"--policy", "fail-fast", "--route", "safety=fail-fast,never,person", "--route", "billing-error=fail-fast,never,wait-for-primary")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var s scoring.Summary
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	safety, ok := s.Classes["safety"]
	if !ok || safety.Emails == 0 || safety.Served.Backup != 0 || safety.Hold != "person" {
		t.Errorf("safety: %+v", safety)
	}
	if s.Classes["billing-error"].Hold != "wait-for-primary" || s.Classifier == nil || s.Classifier.Accuracy == nil {
		t.Errorf("billing-error %+v, classifier %+v", s.Classes["billing-error"], s.Classifier)
	}
}

// TestRouteFlagMistakes: a bad --route is a usage error saying why.
func TestRouteFlagMistakes(t *testing.T) {
	for _, c := range []struct{ arg, want string }{
		{"safety", "want CLASS=POLICY"},
		{"safty=fail-fast", `no class "safty"`},
		{"safety=fail-fast,never", "never needs what to do instead"},
		{"safety=fast-fail", `unknown policy "fast-fail"`},
	} {
		_, errOut, code := execute(t.Context(), "run", "--no-tui", "--clock", "virtual", "--route", c.arg)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("--route %s: exit %d, %q; want 2 and %q", c.arg, code, errOut, c.want)
		}
	}
}

// TestRecommendExitsOneWhenTheBoundCannotBeMet: --within 0.2s is beyond
// every setting: exit 1, the reason and the closest setting in the JSON.
func TestRecommendExitsOneWhenTheBoundCannotBeMet(t *testing.T) {
	out, errOut, code := execute(t.Context(), "recommend", "--within", "0.2s", "--clock", "virtual", "--json", "--repeat", "1",
		"--outages", "hang", "--route", "returns=breaker", "--grid", "primary-timeout=1s,2s", "--grid", "primary-retries=0")
	if code != 1 || !strings.Contains(errOut, "class returns") {
		t.Fatalf("exit %d, %s", code, errOut)
	}
	var res struct {
		Tried   int
		Met     bool
		Classes []struct {
			Class, Reason, Flags string
			Met                  bool
		}
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if res.Tried != 2 || res.Met || len(res.Classes) != 2 || res.Classes[0].Met || !strings.Contains(res.Classes[0].Reason, "the closest") {
		t.Errorf("%+v", res)
	}
}

// TestRecommendRefusesTheRealClock: the search runs on the virtual clock
// (its default), and searches policy settings only.
func TestRecommendRefusesTheRealClock(t *testing.T) {
	_, errOut, code := execute(t.Context(), "recommend", "--within", "5s", "--clock", "real")
	if code != 2 || !strings.Contains(errOut, "virtual clock only") {
		t.Errorf("exit %d, %s", code, errOut)
	}
	_, errOut, code = execute(t.Context(), "recommend", "--within", "5s", "--clock", "virtual", "--grid", "rate=1,2")
	if code != 2 || !strings.Contains(errOut, "not a policy setting") {
		t.Errorf("exit %d, %s", code, errOut)
	}
	_, errOut, code = execute(t.Context(), "recommend", "--clock", "virtual")
	if code != 2 || !strings.Contains(errOut, "no bound to recommend against") {
		t.Errorf("exit %d, %s", code, errOut)
	}
	_, errOut, code = execute(t.Context(), "recommend", "--within", "5s", "--clock", "virtual", "--outages", "bogus")
	if code != 2 || !strings.Contains(errOut, "bogus") {
		t.Errorf("exit %d, %s", code, errOut)
	}
}
