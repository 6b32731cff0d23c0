package journal

import (
	"github.com/drill-dev/drill/event"
)

// eventField reads the value of the event's member key into e and returns
// the key's bit (decodeEventLine).
func (d *lineDecoder) eventField(key []byte, e *event.Event) (bit uint64, ok bool) {
	switch string(key) {
	case "seq":
		e.Seq, ok = d.int64()
		return 1 << 0, ok
	case "at_ns":
		e.At, ok = d.duration()
		return 1 << 1, ok
	case "kind":
		var s string
		s, ok = d.str()
		e.Kind = event.Kind(s)
		return 1 << 2, ok
	case "email":
		e.Email, ok = d.int()
		return 1 << 3, ok
	case "attempt":
		e.Attempt, ok = d.int()
		return 1 << 4, ok
	case "status":
		e.Status, ok = d.int()
		return 1 << 5, ok
	case "tokens":
		e.Tokens, ok = d.int()
		return 1 << 6, ok
	case "replica":
		e.Replica, ok = d.int()
		return 1 << 7, ok
	case "ttft_ns":
		e.TTFT, ok = d.duration()
		return 1 << 8, ok
	case "retry_after_ns":
		e.RetryAfter, ok = d.duration()
		return 1 << 9, ok
	case "tokens_per_s":
		e.TokensPerS, ok = d.float()
		return 1 << 10, ok
	case "result":
		e.Result, ok = d.result()
		return 1 << 11, ok
	case "truth":
		e.Truth, ok = d.answer()
		return 1 << 12, ok
	case "usage":
		e.Usage, ok = d.usage()
		return 1 << 13, ok
	case "fault_params":
		e.FaultParams, ok = d.strMap()
		return 1 << 14, ok
	}
	if bit, ok = d.eventString(key, e); bit != 0 {
		return bit, ok
	}
	return d.eventBool(key, e)
}

// eventString reads the event's string members; bit is 0 for another key.
func (d *lineDecoder) eventString(key []byte, e *event.Event) (bit uint64, ok bool) {
	var p *string
	switch string(key) {
	case "rung":
		p, bit = &e.Rung, 1<<20
	case "model":
		p, bit = &e.Model, 1<<21
	case "fault":
		p, bit = &e.Fault, 1<<22
	case "detail":
		p, bit = &e.Detail, 1<<23
	case "class":
		p, bit = &e.Class, 1<<24
	case "truth_class":
		p, bit = &e.TruthClass, 1<<25
	case "member":
		p, bit = &e.Member, 1<<26
	case "outcome":
		var s string
		s, ok = d.str()
		e.Outcome = event.Outcome(s)
		return 1 << 27, ok
	default:
		return 0, false
	}
	*p, ok = d.str()
	return bit, ok
}

// eventBool reads the event's boolean members; any other key declines.
func (d *lineDecoder) eventBool(key []byte, e *event.Event) (bit uint64, ok bool) {
	var p *bool
	switch string(key) {
	case "probe":
		p, bit = &e.Probe, 1<<30
	case "synthetic":
		p, bit = &e.Synthetic, 1<<31
	case "hedged":
		p, bit = &e.Hedged, 1<<32
	case "hedge_lost":
		p, bit = &e.HedgeLost, 1<<33
	case "unscored":
		p, bit = &e.Unscored, 1<<34
	case "rejected":
		p, bit = &e.Rejected, 1<<35
	default:
		return 0, false
	}
	*p, ok = d.bool()
	return bit, ok
}

// result reads an email_done's result (without a handover, which
// declines).
func (d *lineDecoder) result() (*event.Result, bool) {
	r := &event.Result{}
	ok := d.object(func(key []byte) (bit uint64, ok bool) {
		switch string(key) {
		case "served_by":
			r.ServedBy, ok = d.str()
			return 1 << 0, ok
		case "answer":
			r.Answer, ok = d.answer()
			return 1 << 1, ok
		case "reply":
			r.Reply, ok = d.str()
			return 1 << 2, ok
		case "wait_ns":
			r.Wait, ok = d.duration()
			return 1 << 3, ok
		case "cancelled":
			r.Cancelled, ok = d.bool()
			return 1 << 4, ok
		}
		return 0, false
	})
	return r, ok
}

// usage reads an attempt's usage.
func (d *lineDecoder) usage() (*event.Usage, bool) {
	u := &event.Usage{}
	ok := d.object(func(key []byte) (bit uint64, ok bool) {
		switch string(key) {
		case "input_tokens":
			u.InputTokens, ok = d.int()
			return 1 << 0, ok
		case "output_tokens":
			u.OutputTokens, ok = d.int()
			return 1 << 1, ok
		case "estimated":
			u.Estimated, ok = d.bool()
			return 1 << 2, ok
		case "cost":
			u.Cost, ok = d.float()
			return 1 << 3, ok
		case "priced":
			u.Priced, ok = d.bool()
			return 1 << 4, ok
		}
		return 0, false
	})
	return u, ok
}

// interner shares the strings of one journal's lines that repeat on every
// line (kinds, rungs, models, outcomes, answers' fields), so reading an
// event allocates none of them. It holds at most internMax strings of at
// most internMaxLen bytes, so a hostile journal cannot grow it.
type interner struct{ m map[string]string }

const (
	internMax    = 1024
	internMaxLen = 64
)

// plain returns raw, a string's text, as a string when it holds only
// printable ASCII (no escape, nothing encoding/json would change): shared
// when short; ok is false for any other text.
func (in *interner) plain(raw []byte) (string, bool) {
	for _, c := range raw {
		if c < 0x20 || c >= 0x7f || c == '\\' {
			return "", false
		}
	}
	return in.str(raw), true
}

// str returns b as a string, shared when short.
func (in *interner) str(b []byte) string {
	if len(b) > internMaxLen {
		return string(b)
	}
	if s, ok := in.m[string(b)]; ok {
		return s
	}
	s := string(b)
	if in.m == nil {
		in.m = make(map[string]string, 64)
	}
	if len(in.m) < internMax {
		in.m[s] = s
	}
	return s
}
