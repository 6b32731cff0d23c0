package journal

import (
	"math"
	"strconv"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/event"
)

// appendEventLine appends e's journal line (eventPrefix, then e's JSON
// object without its opening brace) as the writer's encoding/json path
// writes it, for the events an email's life or a proxied request's is made
// of: ok is false, and dst is to be dropped, for an event holding anything
// else (a run, breaker, window, run end, fault parameters, alert, chat,
// command, fleet note, reclaim or handover),
// a string with a byte JSON escapes (a quote, a backslash, a control or
// non-ASCII byte, <, > or &) or a float JSON cannot hold. Encoding those
// few by reflection keeps this to plain fields; encoding the many by hand
// was most of the writer's CPU.
func appendEventLine(dst []byte, e *event.Event) (line []byte, ok bool) {
	if e.Run != nil || e.Breaker != nil || e.Window != nil || e.End != nil || len(e.FaultParams) > 0 ||
		e.Alert != nil || e.Chat != nil || e.Command != nil || e.Fleet != nil || e.Reclaim != nil ||
		(e.Result != nil && e.Result.Handover != nil) {
		return dst, false
	}
	l := eventLine{b: append(dst, eventPrefix...), ok: true}
	l.int(`"seq":`, e.Seq)
	l.int(`,"at_ns":`, int64(e.At))
	l.str(`,"kind":`, string(e.Kind))
	l.optInt(`,"email":`, int64(e.Email))
	l.optStr(`,"rung":`, e.Rung)
	l.optStr(`,"model":`, e.Model)
	l.optInt(`,"attempt":`, int64(e.Attempt))
	l.optStr(`,"outcome":`, string(e.Outcome))
	l.optInt(`,"status":`, int64(e.Status))
	l.optStr(`,"fault":`, e.Fault)
	l.optStr(`,"detail":`, e.Detail)
	if r := e.Result; r != nil {
		l.str(`,"result":{"served_by":`, r.ServedBy)
		if r.Answer != nil {
			l.answer(`,"answer":`, r.Answer)
		}
		l.optStr(`,"reply":`, r.Reply)
		l.int(`,"wait_ns":`, int64(r.Wait))
		l.optBool(`,"cancelled":true`, r.Cancelled)
		l.b = append(l.b, '}')
	}
	l.optBool(`,"probe":true`, e.Probe)
	l.optInt(`,"ttft_ns":`, int64(e.TTFT))
	l.optInt(`,"tokens":`, int64(e.Tokens))
	l.optFloat(`,"tokens_per_s":`, e.TokensPerS)
	l.optBool(`,"synthetic":true`, e.Synthetic)
	l.optBool(`,"hedged":true`, e.Hedged)
	l.optBool(`,"hedge_lost":true`, e.HedgeLost)
	l.optInt(`,"retry_after_ns":`, int64(e.RetryAfter))
	if e.Proxy != nil {
		l.proxy(e.Proxy)
	}
	if e.Truth != nil {
		l.answer(`,"truth":`, e.Truth)
	}
	l.optBool(`,"unscored":true`, e.Unscored)
	l.optBool(`,"rejected":true`, e.Rejected)
	l.optStr(`,"class":`, e.Class)
	l.optStr(`,"truth_class":`, e.TruthClass)
	l.optInt(`,"replica":`, int64(e.Replica))
	l.optStr(`,"member":`, e.Member)
	if u := e.Usage; u != nil {
		l.int(`,"usage":{"input_tokens":`, int64(u.InputTokens))
		l.int(`,"output_tokens":`, int64(u.OutputTokens))
		l.optBool(`,"estimated":true`, u.Estimated)
		l.optFloat(`,"cost":`, u.Cost)
		l.optBool(`,"priced":true`, u.Priced)
		l.b = append(l.b, '}')
	}
	return append(l.b, '}'), l.ok
}

// eventLine is a line being appended; ok turns false at the first value
// it leaves to encoding/json.
type eventLine struct {
	b  []byte
	ok bool
}

func (l *eventLine) int(key string, v int64) {
	l.b = strconv.AppendInt(append(l.b, key...), v, 10)
}

func (l *eventLine) optInt(key string, v int64) {
	if v != 0 {
		l.int(key, v)
	}
}

// optBool appends keyTrue (the key and true) when v is set: omitempty.
func (l *eventLine) optBool(keyTrue string, v bool) {
	if v {
		l.b = append(l.b, keyTrue...)
	}
}

// str appends s as a JSON string if no byte of it needs escaping.
func (l *eventLine) str(key, s string) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			l.ok = false
			return
		}
	}
	l.b = append(l.b, key...)
	l.b = append(l.b, '"')
	l.b = append(l.b, s...)
	l.b = append(l.b, '"')
}

func (l *eventLine) optStr(key, s string) {
	if s != "" {
		l.str(key, s)
	}
}

// proxy appends a proxied request's call, as encoding/json writes
// event.ProxyCall.
func (l *eventLine) proxy(p *event.ProxyCall) {
	l.int(`,"proxy":{"id":`, int64(p.ID))
	l.str(`,"method":`, p.Method)
	l.str(`,"path":`, p.Path)
	l.optBool(`,"stream":true`, p.Stream)
	l.optStr(`,"sdk":`, p.SDK)
	l.optStr(`,"sdk_version":`, p.SDKVersion)
	l.optInt(`,"sdk_timeout_ns":`, int64(p.SDKTimeout))
	l.optInt(`,"wait_ns":`, int64(p.Wait))
	l.optInt(`,"ttft_ns":`, int64(p.TTFT))
	l.optInt(`,"input_tokens":`, int64(p.InputTokens))
	l.optInt(`,"output_tokens":`, int64(p.OutputTokens))
	l.optFloat(`,"cost":`, p.Cost)
	l.optBool(`,"priced":true`, p.Priced)
	l.b = append(l.b, '}')
}

func (l *eventLine) answer(key string, a *emails.Answer) {
	l.b = append(l.b, key...)
	l.str(`{"intent":`, a.Intent)
	l.str(`,"order_number":`, a.OrderNumber)
	l.str(`,"product":`, a.Product)
	l.str(`,"urgency":`, a.Urgency)
	l.b = append(l.b, '}')
}

// optFloat appends a non-zero v as encoding/json writes a float64: the
// shortest decimal that reads back as v, with an exponent only below 1e-6
// or from 1e21 (and a one-digit negative exponent without its zero).
func (l *eventLine) optFloat(key string, v float64) {
	if v == 0 {
		return
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		l.ok = false // encoding/json refuses it, with its own error
		return
	}
	l.b = append(l.b, key...)
	format := byte('f')
	if abs := math.Abs(v); abs < 1e-6 || abs >= 1e21 {
		format = 'e'
	}
	l.b = strconv.AppendFloat(l.b, v, format, -1, 64)
	if format == 'e' {
		// 1e-07 becomes 1e-7.
		if n := len(l.b); n >= 4 && l.b[n-4] == 'e' && l.b[n-3] == '-' && l.b[n-2] == '0' {
			l.b[n-2] = l.b[n-1]
			l.b = l.b[:n-1]
		}
	}
}
