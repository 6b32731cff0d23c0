package sdkprofile

import (
	"fmt"
	"strings"
	"time"

	"github.com/drill-dev/drill/internal/format"
)

// Case is one row of the per-SDK table: a fault every attempt meets and
// the application's settings.
type Case struct {
	Label    string
	Fault    Fault
	Settings Settings
}

// Cases are the rows of the docs' per-SDK table: each fault kind, streamed
// and not where that differs, under the SDKs' default retries.
func Cases() []Case {
	five := Settings{Timeout: 5 * time.Second}
	one := Settings{Timeout: time.Second}
	trickle := Fault{Kind: Trickle, Body: 20 * time.Second, Gap: 500 * time.Millisecond}
	trickleStream := trickle
	trickleStream.Stream = true
	return []Case{
		{Label: "busy (503)", Fault: Fault{Kind: Busy}},
		{Label: "rate-limit, Retry-After 1 s", Fault: Fault{Kind: RateLimit, RetryAfter: time.Second}},
		{Label: "rate-limit, Retry-After 90 s", Fault: Fault{Kind: RateLimit, RetryAfter: 90 * time.Second}},
		{Label: "rate-limit, Retry-After 3 min", Fault: Fault{Kind: RateLimit, RetryAfter: 3 * time.Minute}},
		{Label: "rate-limit, no hint (spend cap)", Fault: Fault{Kind: RateLimit}},
		{Label: "hang, no timeout set", Fault: Fault{Kind: Hang}},
		{Label: "hang, 5 s timeout", Fault: Fault{Kind: Hang}, Settings: five},
		{Label: "stall, not streamed, 5 s timeout", Fault: Fault{Kind: Stall}, Settings: five},
		{Label: "stall, streamed, 5 s timeout", Fault: Fault{Kind: Stall, Stream: true}, Settings: five},
		{Label: "trickle (20 s body), not streamed, 1 s timeout", Fault: trickle, Settings: one},
		{Label: "trickle (20 s body), streamed, 1 s timeout", Fault: trickleStream, Settings: one},
		{Label: "reset before the headers", Fault: Fault{Kind: Reset}},
		{Label: "reset mid-body, not streamed", Fault: Fault{Kind: Reset, AtBody: true}},
		{Label: "reset mid-body, streamed", Fault: Fault{Kind: Reset, AtBody: true, Stream: true}},
	}
}

// Cell says what one call of this SDK does in case c, for a table cell:
// "3 attempts, waits 0.375–0.5 s, 0.75–1 s: RateLimitError after
// 1.1–1.5 s".
func (p Profile) Cell(c Case) string {
	call := p.Play(c.Fault, c.Settings)
	var b strings.Builder
	b.WriteString(format.Plural(call.Attempts, "attempt"))
	if len(call.Waits) > 0 {
		ws := make([]string, len(call.Waits))
		for i, w := range call.Waits {
			ws[i] = span(w[0], w[1])
		}
		fmt.Fprintf(&b, ", waits %s", strings.Join(ws, ", "))
	}
	b.WriteString(": " + ending(call))
	return b.String()
}
