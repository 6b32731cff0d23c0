package scoring

import (
	"testing"
	"time"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/event"
)

// classedRun is a run with an outage from 2 s to 6 s and routes: safety
// (backup never, person) and default. Emails 1-8, one a second: 2 and 5
// are safety (5 handed over, 2 waited for the primary), 7 is default but
// its right answer would make it safety (misclassified); 3 and 4 are
// served by the backup.
func classedRun() []event.Event {
	truth := emails.Answer{Intent: "return", Urgency: "normal"}
	evs := []event.Event{
		{Kind: event.RunStart, Run: &event.RunInfo{Outage: "busy", Policy: "fail-fast", Emails: 8, Rate: 1, Target: "primary",
			OutageFromS: 2, OutageToS: 6, Routes: []event.RouteInfo{{Class: "safety", Policy: "breaker", Hold: event.HoldPerson, Within: 4 * time.Second},
				{Class: "default", Policy: "fail-fast"}}}},
		{Kind: event.OutageStart, At: 2 * time.Second, Fault: "busy", Rung: "primary"},
	}
	for id := 1; id <= 8; id++ {
		class, truthClass := "default", "default"
		switch id {
		case 3, 5:
			class, truthClass = "safety", "safety"
		case 7:
			truthClass = "safety"
		}
		at := time.Duration(id-1) * time.Second
		tr := truth
		evs = append(evs, event.Event{Kind: event.EmailSent, At: at, Email: id, Class: class, TruthClass: truthClass, Truth: &tr})
		res := &event.Result{ServedBy: event.ServedPrimary, Answer: &tr, Wait: time.Second}
		switch id {
		case 3:
			res.Wait, res.Handover = 3*time.Second, &event.Handover{Mode: event.HoldWaitForPrimary, Told: time.Second, Waited: 2 * time.Second}
		case 4, 6:
			res.ServedBy = event.ServedBackup
		case 5:
			res = &event.Result{ServedBy: event.ServedHandedOver, Handover: &event.Handover{Mode: event.HoldPerson, Reason: "breaker_open"}}
		}
		evs = append(evs, event.Event{Kind: event.EmailDone, At: at + res.Wait, Email: id, Result: res})
	}
	evs = append(evs, event.Event{Kind: event.OutageEnd, At: 6 * time.Second, Rung: "primary"},
		event.Event{Kind: event.RunEnd, At: 12 * time.Second, End: &event.RunEndInfo{Status: event.StatusCompleted}})
	for i := range evs {
		evs[i].Seq = int64(i)
	}
	return evs
}

// TestClassFigures: each class's figures are the run's over its emails.
func TestClassFigures(t *testing.T) {
	s := Summarize(classedRun())
	safety, def := s.Classes["safety"], s.Classes["default"]
	if safety.Emails != 2 || safety.Served.Primary != 1 || safety.Served.HandedOver != 1 || safety.HandedOver != 1 ||
		safety.WaitedForPrimary != 1 || safety.Hold != event.HoldPerson || safety.Policy != "breaker" || *safety.WithinS != 4 {
		t.Errorf("safety: %+v", safety)
	}
	// Safety's waits in the outage (sent 2–6 s): email 3 (3 s), email 5 (0 s).
	if safety.WaitsOutage != 2 || *safety.P95WaitOutageS != 2.85 || *safety.P95ToldS != 0.95 || *safety.All4Right != 0.5 {
		t.Errorf("safety waits %d, p95 %v, told %v, all4 %v", safety.WaitsOutage, *safety.P95WaitOutageS, *safety.P95ToldS, *safety.All4Right)
	}
	// Its quality's interval is the run-wide one's rule over its own emails.
	if lo, hi := Wilson(1, 2); safety.All4RightCI95 == nil || *safety.All4RightCI95 != [2]float64{round(lo, 4), round(hi, 4)} {
		t.Errorf("safety's all-4-right interval %v", safety.All4RightCI95)
	}
	if def.Emails != 6 || def.Served.Backup != 2 || def.Misclassified != 1 || safety.Missed != 1 || def.HandedOver != 0 {
		t.Errorf("default: %+v", def)
	}
	if c := s.Classifier; c == nil || c.Checked != 8 || c.Misclassified != 1 || *c.Accuracy != 0.875 {
		t.Errorf("classifier: %+v", c)
	}
	if s.Served.HandedOver != 1 || s.EmailsAnswered != 8 {
		t.Errorf("served %+v, answered %d", s.Served, s.EmailsAnswered)
	}
}

// TestHypothesesOnClasses: hypotheses name per-class figures; a class
// with no email has no figures, so a check on it does not pass.
func TestHypothesesOnClasses(t *testing.T) {
	figs, err := FiguresOf(Summarize(classedRun()))
	if err != nil {
		t.Fatal(err)
	}
	for expr, want := range map[string]bool{
		"classes.safety.served.backup == 0":      true,
		"classes.default.served.backup == 0":     false,
		"classes.safety.p95_wait_outage_s <= 4":  true,
		"classes.safety.handed_over >= 1":        true,
		"classifier.accuracy >= 0.9":             false,
		"classes.returns.p95_wait_outage_s <= 4": false,
		"answered == 8":                          true,
	} {
		e, err := ParseExpr(expr)
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		if got, v := e.Holds(figs); got != want {
			t.Errorf("%s: holds %v (measured %v), want %v", expr, got, v, want)
		}
	}
}

// TestNoRoutesNoClasses: a run without routes has neither figure.
func TestNoRoutesNoClasses(t *testing.T) {
	evs := classedRun()
	evs[0].Run.Routes = nil
	for i := range evs {
		evs[i].Class, evs[i].TruthClass = "", ""
	}
	if s := Summarize(evs); s.Classes != nil || s.Classifier != nil {
		t.Errorf("classes %v, classifier %v", s.Classes, s.Classifier)
	}
}

// TestClassWaitsLeaveOutRejected: an email the worker pool rejected has no
// wait in its class's figures, as in the run's: a zero wait would make a
// starved class look fast.
func TestClassWaitsLeaveOutRejected(t *testing.T) {
	evs := classedRun()
	for i := range evs {
		if evs[i].Kind == event.EmailDone && evs[i].Email == 4 { // default, sent at 3 s, in the outage
			evs[i].Result = &event.Result{ServedBy: event.ServedRejected}
		}
	}
	s := Summarize(evs)
	def := s.Classes["default"]
	if def.Served.Rejected != 1 || def.WaitsOutage != s.WaitsOutage-2 {
		t.Errorf("default: rejected %d, waits in the outage %d; the run's %d (2 of them safety's)", def.Served.Rejected, def.WaitsOutage, s.WaitsOutage)
	}
}
