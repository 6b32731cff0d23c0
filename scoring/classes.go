package scoring

import (
	"slices"
	"sort"

	"github.com/drill-dev/drill/event"
)

// ClassSummary is one class of emails in a run with routes: the figures of
// the summary for its emails alone (classes.NAME.* in the JSON).
type ClassSummary struct {
	// Policy is the policy the class's route ran; Hold is person or
	// wait-for-primary when the route never takes the backup.
	Policy string `json:"policy"`
	Hold   string `json:"hold"`
	// WithinS is what the route says its customers can wait; null when it
	// does not say.
	WithinS *float64 `json:"within_s"`
	// Emails counts the class's emails sent.
	Emails int    `json:"emails"`
	Served Served `json:"served"`
	// All4Right is the share of the class's scored answered emails with
	// all four fields right; null when none was scored.
	All4Right *float64 `json:"all4_right"`
	// All4RightCI95 is the Wilson 95 % interval of All4Right; null when
	// none was scored.
	All4RightCI95 *[2]float64 `json:"all4_right_ci95"`
	// MedianWaitOutageS and P95WaitOutageS are over the class's emails
	// sent during the outage whose wait counts, as the run-wide waits (a
	// handed-over email's wait is until the customer was told; a rejected
	// one has none); WaitsOutage counts them.
	MedianWaitOutageS *float64 `json:"median_wait_outage_s"`
	P95WaitOutageS    *float64 `json:"p95_wait_outage_s"`
	WaitsOutage       int      `json:"waits_outage"`
	// HandedOver counts emails handed to a person; WaitedForPrimary
	// those that waited in the route's queue for the primary (then served
	// by it or handed over).
	HandedOver       int `json:"handed_over"`
	WaitedForPrimary int `json:"waited_for_primary"`
	// P95ToldS is the 95th percentile of the time until the customer of
	// a held email was told (handed over, or told to expect a wait); null
	// when none was held.
	P95ToldS *float64 `json:"p95_told_s"`
	// Misclassified counts the emails routed to this class that their
	// right answer would have put in another; Missed those it would have
	// put here that were routed elsewhere.
	Misclassified int `json:"misclassified"`
	Missed        int `json:"missed"`
}

// ClassifierSummary is how well a run's routes classified its emails,
// scored after the run against the class each email's right answer would
// have put it in.
type ClassifierSummary struct {
	// Checked counts the emails sent with a right answer to check against.
	Checked int `json:"checked"`
	// Misclassified counts those routed to a class their right answer
	// would not put them in.
	Misclassified int `json:"misclassified"`
	// Accuracy is the share of checked emails routed to their right
	// answer's class; null when none was checked.
	Accuracy *float64 `json:"accuracy"`
}

// classOf is the class an email was routed to and its right answer's.
type classOf struct{ class, truth string }

// classSent records an email_sent's classes.
func (f *Fold) classSent(e event.Event) {
	if e.Class == "" {
		return
	}
	if f.classOf == nil {
		f.classOf = map[int]classOf{}
	}
	if _, seen := f.classOf[e.Email]; !seen {
		f.classOf[e.Email] = classOf{class: e.Class, truth: e.TruthClass}
	}
}

// Class is the class the run's routes put an email in; "" for a run
// without routes or an email not sent.
func (f *Fold) Class(id int) string { return f.classOf[id].class }

// Classes lists the run's classes in route order (the default last), then
// any class an email carried that the run's info does not name.
func (f *Fold) Classes() []string {
	var out []string
	for _, r := range f.Info.Routes {
		out = append(out, r.Class)
	}
	var extra []string
	for _, c := range f.classOf {
		if !slices.Contains(out, c.class) && !slices.Contains(extra, c.class) {
			extra = append(extra, c.class)
		}
	}
	slices.Sort(extra)
	return append(out, extra...)
}

// classesInto puts the per-class figures and the classifier's score into
// s; ws are the outage basis's windows. A run without routes has neither.
func (f *Fold) classesInto(s *Summary, ws []Window) {
	if len(f.classOf) == 0 && len(f.Info.Routes) == 0 {
		return
	}
	s.Classes = map[string]ClassSummary{}
	for _, name := range f.Classes() {
		s.Classes[name] = f.classSummary(name, ws)
	}
	var c ClassifierSummary
	for _, id := range f.order {
		co := f.classOf[id]
		if co.truth == "" {
			continue
		}
		c.Checked++
		if co.truth != co.class {
			c.Misclassified++
		}
	}
	if c.Checked > 0 {
		c.Accuracy = ptr(round(float64(c.Checked-c.Misclassified)/float64(c.Checked), 4))
	}
	s.Classifier = &c
}

// classSummary is one class's figures, from the same email records the
// run's figures come from.
func (f *Fold) classSummary(name string, ws []Window) ClassSummary {
	var cs ClassSummary
	for _, r := range f.Info.Routes {
		if r.Class == name {
			cs.Policy, cs.Hold = r.Policy, r.Hold
			if r.Within > 0 {
				cs.WithinS = ptr(round(r.Within.Seconds(), 3))
			}
		}
	}
	var waits, told []float64
	var quality FieldCounts
	for _, id := range f.order {
		co := f.classOf[id]
		if co.class != name {
			if co.truth == name {
				cs.Missed++
			}
			continue
		}
		cs.Emails++
		if co.truth != "" && co.truth != name {
			cs.Misclassified++
		}
		r := f.emails[id]
		if !r.Done {
			continue
		}
		cs.Served.add(r.Result)
		if h := r.Result.Handover; h != nil {
			told = append(told, h.Told.Seconds())
			if h.Waited > 0 {
				cs.WaitedForPrimary++
			}
		}
		if !r.Answered {
			continue
		}
		if r.Scored {
			quality.add(r.Match)
		}
		if r.hasWait() && inAny(ws, r.Sent) {
			waits = append(waits, r.Result.Wait.Seconds())
		}
	}
	cs.HandedOver = cs.Served.HandedOver
	if quality.N > 0 {
		cs.All4Right = ptr(round(float64(quality.All4)/float64(quality.N), 4))
		lo, hi := Wilson(quality.All4, quality.N)
		cs.All4RightCI95 = &[2]float64{round(lo, 4), round(hi, 4)}
	}
	if len(waits) > 0 {
		sort.Float64s(waits)
		cs.MedianWaitOutageS = ptr(round(Quantile(waits, 0.5), 3))
		cs.P95WaitOutageS = ptr(round(Quantile(waits, 0.95), 3))
		cs.WaitsOutage = len(waits)
	}
	if len(told) > 0 {
		sort.Float64s(told)
		cs.P95ToldS = ptr(round(Quantile(told, 0.95), 3))
	}
	return cs
}
