package plain

import (
	"fmt"
	"slices"
	"strings"

	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/route"
	"github.com/drill-dev/drill/scoring"
)

// ClassOrder lists a summary's classes in a stable order: by name, the
// default route last.
func ClassOrder(s scoring.Summary) []string {
	var names []string
	for n := range s.Classes {
		if n != route.DefaultClass {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	if _, ok := s.Classes[route.DefaultClass]; ok {
		names = append(names, route.DefaultClass)
	}
	return names
}

// ClassLine is one class's headline, as drill run prints it: "6 emails,
// 4 / 0 / 0 / 0, 2 handed over, all 4 right 67%, wait p95 4.1 s,
// fail-fast, backup never (person)".
func ClassLine(c scoring.ClassSummary) string {
	parts := []string{fmt.Sprintf("%d emails, %s", c.Emails, Served(c.Served))}
	if c.HandedOver > 0 {
		parts = append(parts, fmt.Sprintf("%d handed over", c.HandedOver))
	}
	if c.WaitedForPrimary > 0 {
		parts = append(parts, fmt.Sprintf("%d waited for the primary", c.WaitedForPrimary))
	}
	all4 := format.Dash
	if c.All4Right != nil {
		all4 = format.Percent(*c.All4Right)
	}
	parts = append(parts, "all 4 right "+all4, "wait p95 "+format.Seconds(c.P95WaitOutageS))
	if c.WithinS != nil {
		parts = append(parts, "within "+format.Seconds(c.WithinS))
	}
	policy := format.Text(c.Policy)
	if c.Hold != "" {
		policy += ", backup never (" + c.Hold + ")"
	}
	return strings.Join(append(parts, policy), ", ")
}

// classRows adds a row per class, and the classifier's accuracy, to a
// summary table; nothing for a run without routes.
func classRows(row func(k, v string), s scoring.Summary) {
	for _, n := range ClassOrder(s) {
		row("class "+n+" (served p/b/c/e)", ClassLine(s.Classes[n]))
	}
	if c := s.Classifier; c != nil {
		acc := format.Dash
		if c.Accuracy != nil {
			acc = format.Percent(*c.Accuracy)
		}
		row("classifier accuracy", fmt.Sprintf("%s (%d of %d routed to a class their right answer would not put them in)", acc, c.Misclassified, c.Checked))
	}
}
