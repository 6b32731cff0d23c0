package workload

import (
	"strings"
	"testing"
	"testing/synctest"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/route"
)

// routedConfig is the chapter's drill with safety and billing-error emails
// routed off the backup (hold), the rest on fail-fast.
func routedConfig(t *testing.T, outage, hold string) Config {
	t.Helper()
	cfg := chapterConfig(t, outage, "fail-fast")
	held, err := Preset("fail-fast")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Routes = []Route{
		{Class: "safety", Match: route.Builtin["safety"], Policy: held, Hold: hold},
		{Class: "billing-error", Match: route.Builtin["billing-error"], Policy: held, Hold: hold},
	}
	return cfg
}

// TestBackupNeverKeepsClassesOffTheBackup: through busy and hang, no
// safety or billing-error email is served by the backup; each is served by
// the primary, handed over or waited for; the classes' figures add up.
func TestBackupNeverKeepsClassesOffTheBackup(t *testing.T) {
	for _, outage := range []string{"busy", "hang"} {
		for _, hold := range HoldModes() {
			t.Run(outage+"/"+hold, func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					s, status, evs := runDrill(t, routedConfig(t, outage, hold))
					if status != event.StatusCompleted {
						t.Fatalf("status %s", status)
					}
					classOf := map[int]string{}
					for _, e := range evs {
						switch e.Kind {
						case event.EmailSent:
							if e.Class == "" {
								t.Fatalf("email %d sent without a class", e.Email)
							}
							classOf[e.Email] = e.Class
						case event.EmailDone:
							c := classOf[e.Email]
							if c == route.DefaultClass {
								continue
							}
							if by := e.Result.ServedBy; by != event.ServedPrimary && by != event.ServedHandedOver {
								t.Errorf("%s email %d served by %s", c, e.Email, by)
							}
							if e.Result.ServedBy == event.ServedHandedOver && (e.Result.Handover == nil || e.Result.Handover.Reason == "") {
								t.Errorf("email %d handed over without a reason: %+v", e.Email, e.Result.Handover)
							}
						}
					}
					held := 0
					for _, c := range []string{"safety", "billing-error"} {
						cs, ok := s.Classes[c]
						if !ok || cs.Emails == 0 {
							t.Fatalf("class %s: no figures (%v)", c, s.Classes)
						}
						if cs.Served.Backup != 0 || cs.Hold != hold {
							t.Errorf("class %s: %+v", c, cs)
						}
						held += cs.HandedOver + cs.WaitedForPrimary
					}
					if held == 0 {
						t.Errorf("no safety or billing-error email was handed over or waited for during the %s outage", outage)
					}
					if d := s.Classes[route.DefaultClass]; d.Served.Backup == 0 {
						t.Errorf("the default route never used the backup: %+v", d)
					}
					total := 0
					for _, cs := range s.Classes {
						total += cs.Emails
					}
					if total != s.EmailsSent {
						t.Errorf("classes hold %d emails, %d sent", total, s.EmailsSent)
					}
					if s.Classifier == nil || s.Classifier.Checked != 120 || s.Classifier.Accuracy == nil {
						t.Fatalf("classifier: %+v", s.Classifier)
					}
					t.Logf("%s/%s: handed over %d, waited %d, served %+v, classifier %d/%d wrong; safety %+v",
						outage, hold, s.Served.HandedOver, held, s.Served, s.Classifier.Misclassified, s.Classifier.Checked, s.Classes["safety"])
				})
			})
		}
	}
}

// TestRouteValidation: a route's policy is checked as a run's is, and its
// hold and breaker against the others.
func TestRouteValidation(t *testing.T) {
	ff, _ := Preset("fail-fast")
	fb, _ := Preset("fallback")
	br, _ := Preset("breaker")
	br.Primary.Breaker.Cooldown = 9e9
	for _, c := range []struct {
		name  string
		route Route
		want  string
	}{
		{"bad class", Route{Class: "Safety!", Policy: ff}, "class"},
		{"unknown hold", Route{Class: "safety", Policy: ff, Hold: "later"}, "unknown hold"},
		{"wait without a breaker", Route{Class: "safety", Policy: fb, Hold: event.HoldWaitForPrimary}, "give policy fallback a breaker"},
		{"two breakers for one model", Route{Class: "safety", Policy: br}, "a model has one breaker"},
		{"negative retries", Route{Class: "safety", Policy: func() Policy { p := ff; p.Primary.Retries = -1; return p }()}, "retries must be 0..1000"},
		{"queue without hold", Route{Class: "safety", Policy: ff, Queue: 3}, "wait and queue"},
		{"backup-only never", Route{Class: "safety", Policy: func() Policy { p, _ := Preset("backup-only"); return p }(), Hold: event.HoldPerson}, "keeps no model rung"},
	} {
		cfg := fakeConfig()
		cfg.Policy = ff
		cfg.Routes = []Route{c.route}
		err := cfg.Validate()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error with %q", c.name, err, c.want)
		}
	}
}
