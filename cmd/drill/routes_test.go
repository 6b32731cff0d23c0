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
