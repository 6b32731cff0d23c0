package plain

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/redact"
	"github.com/drill-dev/drill/scoring"
)

// proxyLineFmt is ProxyLine as fmt built it: the reference the line built
// in one buffer is checked against.
func proxyLineFmt(r scoring.ProxyRequest) string {
	var b strings.Builder
	fmt.Fprintf(&b, "#%d at=%s %s %s", r.ID, format.LogSecs(r.At), redact.Terminal(r.Method), redact.Terminal(r.Path))
	if r.Model != "" {
		fmt.Fprintf(&b, " model=%s", redact.Terminal(r.Model))
	}
	if r.Stream {
		b.WriteString(" stream")
	}
	fmt.Fprintf(&b, " retry=%d status=%s outcome=%s fault=%s wait=%s ttft=%s tokens=%s",
		r.Retry, dashUnless(r.Status != 0, fmt.Sprint(r.Status)), r.Outcome, dashUnless(r.Fault != "", r.Fault),
		format.LogSecs(r.Wait), dashUnless(r.TTFT > 0, format.LogSecs(r.TTFT)),
		dashUnless(r.In+r.Out > 0, fmt.Sprintf("%d/%d", r.In, r.Out)))
	if r.Cost > 0 {
		b.WriteString(" cost=" + format.Money(r.Cost))
	}
	if r.Outcome != event.OK && r.Detail != "" {
		fmt.Fprintf(&b, " detail=%q", redact.String(r.Detail))
	}
	return b.String()
}

// TestProxyLineAsFmt compares ProxyLine with proxyLineFmt on requests
// drawn at random: empty and odd strings (controls, quotes, bytes past
// ASCII, invalid UTF-8, keys to redact), zero, negative and large numbers.
func TestProxyLineAsFmt(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-proj-line-test-0123456789")
	strs := []string{"", "POST", "/v1/chat/completions", "gpt-5.4-mini", "busy", "a \"quoted\"\tdetail\n", "\x1b[2Jx",
		"é\xff", "sk-proj-line-test-0123456789", "key sk-abcdefghijklmnopqrstuvwxyz012345 here", "\u2028"}
	ints := []int{0, 1, -1, 200, 429, 1 << 40, -1 << 40}
	durs := []time.Duration{0, 1, -1, 499999, 500000, 1500 * time.Microsecond, time.Hour, -time.Second}
	outcomes := []event.Outcome{event.OK, event.HTTP4xx, event.Timeout, ""}
	r := rand.New(rand.NewPCG(38, 2))
	pick := func(s []string) string { return s[r.IntN(len(s))] }
	for range 20000 {
		req := scoring.ProxyRequest{ID: ints[r.IntN(len(ints))], At: durs[r.IntN(len(durs))], Method: pick(strs), Path: pick(strs),
			Model: pick(strs), Stream: r.IntN(2) == 0, Retry: ints[r.IntN(len(ints))], Status: ints[r.IntN(len(ints))],
			Outcome: outcomes[r.IntN(len(outcomes))], Fault: pick(strs), Wait: durs[r.IntN(len(durs))], TTFT: durs[r.IntN(len(durs))],
			In: ints[r.IntN(len(ints))], Out: ints[r.IntN(len(ints))], Cost: []float64{0, -1, 0.0006375, 12.5}[r.IntN(4)], Detail: pick(strs)}
		if got, want := ProxyLine(req), proxyLineFmt(req); got != want {
			t.Fatalf("ProxyLine(%+v):\n got %q\nwant %q", req, got, want)
		}
	}
}

// FuzzProxyLine compares ProxyLine with proxyLineFmt on any strings and
// numbers.
func FuzzProxyLine(f *testing.F) {
	f.Add(1, int64(1500000), "POST", "/v1/chat/completions", "gpt-5.4-mini", true, 2, 200, "ok", "", int64(2000000), int64(900000), 12, 3, 0.0006375, "")
	f.Add(-7, int64(-1), "\x1b[2J", "é\xff", "sk-abcdefghijklmnopqrstuvwxyz012345", false, -1, 0, "timeout", "hang", int64(0), int64(-5), 0, 0, 0.0, "a \"q\"\n")
	f.Fuzz(func(t *testing.T, id int, at int64, method, path, model string, stream bool, retry, status int, outcome, fault string,
		wait, ttft int64, in, out int, cost float64, detail string) {
		req := scoring.ProxyRequest{ID: id, At: time.Duration(at), Method: method, Path: path, Model: model, Stream: stream,
			Retry: retry, Status: status, Outcome: event.Outcome(outcome), Fault: fault, Wait: time.Duration(wait),
			TTFT: time.Duration(ttft), In: in, Out: out, Cost: cost, Detail: detail}
		if got, want := ProxyLine(req), proxyLineFmt(req); got != want {
			t.Errorf("ProxyLine(%+v):\n got %q\nwant %q", req, got, want)
		}
	})
}
