package report

import (
	"fmt"
	"strings"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/proxy"
)

// maxFailedListed is how many failed requests a proxy run's facts list.
const maxFailedListed = 10

// proxyFacts describes the requests of a run recorded by drill proxy: per
// model, then the first failed requests. A drill's own run has none.
func proxyFacts(t *proxy.Tally) []string {
	if t == nil || len(t.Requests) == 0 {
		return nil
	}
	facts := []string{fmt.Sprintf("%d requests through drill proxy.", len(t.Requests))}
	for _, l := range t.ModelLines() {
		facts = append(facts, l+".")
	}
	var failed []string
	n := 0
	for _, r := range t.Requests {
		if r.Outcome == event.OK {
			continue
		}
		n++
		if len(failed) < maxFailedListed {
			failed = append(failed, fmt.Sprintf("#%d at %.3f s %s %s (%s%s)", r.ID, r.At.Seconds(), r.Method, r.Path, r.Outcome, faultNote(r.Fault)))
		}
	}
	if n > 0 {
		more := ""
		if n > len(failed) {
			more = fmt.Sprintf(", and %d more", n-len(failed))
		}
		facts = append(facts, fmt.Sprintf("Failed requests: %s%s.", strings.Join(failed, "; "), more))
	}
	return facts
}

func faultNote(f string) string {
	if f == "" {
		return ""
	}
	return ", fault " + f
}
