package report

import (
	"fmt"
	"strings"

	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/scoring"
)

// proxyFacts describes the requests of a run recorded by drill proxy: per
// model, then the first failed requests. A drill's own run has none.
func proxyFacts(t *scoring.ProxyTally) []string {
	if t == nil || t.Requests == 0 {
		return nil
	}
	facts := []string{fmt.Sprintf("%d requests through drill proxy.", t.Requests)}
	for _, l := range plain.ProxyModelLines(t) {
		facts = append(facts, l+".")
	}
	if t.Failed == 0 {
		return facts
	}
	var failed []string
	for _, r := range t.FirstFailed {
		failed = append(failed, fmt.Sprintf("#%d at=%s %s %s (%s%s)", r.ID, format.LogSecs(r.At), r.Method, r.Path, r.Outcome, faultNote(r.Fault)))
	}
	more := ""
	if t.Failed > len(failed) {
		more = fmt.Sprintf(", and %d more", t.Failed-len(failed))
	}
	return append(facts, fmt.Sprintf("Failed requests: %s%s.", strings.Join(failed, "; "), more))
}

func faultNote(f string) string {
	if f == "" {
		return ""
	}
	return ", fault " + f
}
