package journal

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/event"
)

// checkDecode decodes line both ways and fails t where the direct
// decoding disagrees with encoding/json: it may decline any line, but a
// line it decodes must be one encoding/json accepts, decoded to the same
// event. It reports whether the direct decoding read the line.
func checkDecode(t *testing.T, line []byte, in *interner) bool {
	t.Helper()
	var want, got event.Event
	jerr := json.Unmarshal(line, &want)
	if !decodeEventLine(line, &got, in) {
		return false
	}
	if jerr != nil {
		t.Fatalf("decoded a line encoding/json refuses (%v):\n%s", jerr, line)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("decoded differently from encoding/json:\nline %s\n got %+v\nwant %+v", line, got, want)
	}
	return true
}

// randomLines returns the lines the writer writes for n events with every
// field drawn at random (fill), most of them the plain events of an
// email's life, the others with every kind of member.
func randomLines(r *rand.Rand, n int) [][]byte {
	var lines [][]byte
	for range n {
		var e event.Event
		fill(r, reflect.ValueOf(&e).Elem())
		if r.IntN(4) != 0 {
			e.Run, e.Breaker, e.Window, e.End, e.Proxy, e.Alert, e.Chat = nil, nil, nil, nil, nil, nil, nil
			e.Command, e.Fleet, e.Reclaim = nil, nil, nil
			if e.Result != nil {
				e.Result.Handover = nil
			}
		}
		if line, ok := appendEventLine(nil, &e); ok {
			lines = append(lines, line)
		} else if line := reflectLine(&e); line != nil {
			lines = append(lines, line)
		}
	}
	return lines
}

// TestDecodeEventLineIsEncodingJSON checks the direct decoding against
// encoding/json on the lines of 5,000 random events and on every line
// mutated as a hostile or foreign writer might write it (keys in another
// case or repeated, nulls, numbers with fractions, exponents, leading zeros
// or past any int, escapes, invalid UTF-8, white space, text after the
// object, lines cut short): wherever it decodes, it decodes as
// encoding/json does, and it decodes the writer's own lines of an email's
// events.
func TestDecodeEventLineIsEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var in interner
	lines := randomLines(r, 5000)
	decoded, mutated := 0, 0
	for _, line := range lines {
		if checkDecode(t, line, &in) {
			decoded++
		}
		for range 4 {
			if checkDecode(t, mutate(r, line), &in) {
				mutated++
			}
		}
	}
	t.Logf("%d of %d lines decoded directly; %d of %d mutated ones", decoded, len(lines), mutated, 4*len(lines))
	if decoded < len(lines)/2 {
		t.Errorf("decoded %d of %d lines directly, want at least half", decoded, len(lines))
	}
	if mutated == 0 {
		t.Error("no mutated line decoded directly: the mutations test nothing")
	}
}

// mutations are replacements a mutated line makes: a value or key of the
// writer's is changed into text encoding/json reads otherwise, or not at
// all.
var mutations = [][2]string{
	{`"seq":`, `"Seq":`}, {`"kind":`, `"KIND":`}, {`"email":`, `"email":1,"email":`}, {`"rung":`, `"rung":null,"rung":`},
	{`"at_ns":`, `"at_ns": `}, {`,"`, ` , "`}, {`:`, ` :`}, {`"result":{`, `"result":{ `}, {`}`, ` }`},
	{`"status":503`, `"status":503.0`}, {`"status":503`, `"status":5.03e2`}, {`"status":503`, `"status":0503`},
	{`"status":503`, `"status":-0`}, {`"email":`, `"email":99999999999999999999,"x":`}, {`"attempt":`, `"attempt":-`},
	{`"seq":`, `"seq":1e3,"q":`}, {`"primary"`, `"prim\u0061ry"`}, {`"primary"`, `"pri\ud800mary"`},
	{`"primary"`, "\"pri\xffmary\""}, {`"primary"`, "\"pri\tmary\""}, {`"primary"`, `"pri\/mary"`},
	{`"primary"`, `null`}, {`"primary"`, `1`}, {`true`, `TRUE`}, {`true`, `null`}, {`true`, `1`},
	{`"result":{`, `"result":null,"r":{`}, {`"truth":{`, `"truth":{},"t":{`}, {`"usage":{`, `"usage":{"cost":1e999,`},
	{`"fault_params":{`, `"fault_params":{"a":"1","a":"2",`}, {`"fault_params":{`, `"fault_params":{"é":"x",`},
	{`"served_by":`, `"served_by":"a","served_by":`}, {`"intent":`, `"Intent":`}, {`"kind":`, `"type":"x","kind":`},
	{`"tokens_per_s":`, `"tokens_per_s":-0.0,"tokens":`}, {`"cost":`, `"cost":1E+2,"x":`},
}

// mutate returns a copy of line with one mutation applied, or cut short,
// or with text after it.
func mutate(r *rand.Rand, line []byte) []byte {
	switch r.IntN(8) {
	case 0:
		return line[:r.IntN(len(line)+1)]
	case 1:
		return append(bytes.Clone(line), []string{" ", "x", "}", "\t\r", `{}`}[r.IntN(5)]...)
	}
	m, n := mutations[r.IntN(len(mutations))], 1
	if r.IntN(2) == 0 {
		n = -1 // every occurrence
	}
	return bytes.Replace(line, []byte(m[0]), []byte(m[1]), n)
}

// TestDecodeEventLineReadsAnEmailsEvents checks the lines of an email's
// events, as a drill writes them (usage, fault parameters, escapes in an
// error's text included), are decoded directly, as encoding/json decodes
// them.
func TestDecodeEventLineReadsAnEmailsEvents(t *testing.T) {
	truth := emails.Answer{Intent: "refund", OrderNumber: "DR-123456", Product: "Trail Runner 2", Urgency: "high"}
	evs := []event.Event{
		{Seq: 1, At: time.Millisecond, Kind: event.EmailSent, Email: 3, Truth: &truth, Class: "billing", TruthClass: "billing"},
		{Seq: 2, At: 2 * time.Millisecond, Kind: event.RungStart, Email: 3, Rung: "primary", Model: "gpt-5.4-mini", Probe: true},
		{Seq: 3, At: 3 * time.Millisecond, Kind: event.Fault, Email: 3, Rung: "primary", Fault: "busy", FaultParams: map[string]string{"status": "503", "rate": "0.5"}},
		{Seq: 4, At: 4 * time.Millisecond, Kind: event.AttemptEnd, Email: 3, Rung: "primary", Attempt: 1, Outcome: event.HTTP5xx, Status: 503,
			Detail: `POST "http://127.0.0.1:1/v1/chat/completions": 503 <busy> & é`, RetryAfter: time.Second},
		{Seq: 5, Kind: event.AttemptUsage, Email: 3, Usage: &event.Usage{InputTokens: 1500, OutputTokens: 30, Cost: 0.0006375, Priced: true, Estimated: true}},
		{Seq: 6, At: time.Second, Kind: event.EmailDone, Email: 3, Result: &event.Result{ServedBy: "primary", Answer: &truth, Wait: 41 * time.Millisecond}},
		{Seq: 7, Kind: event.EmailDone, Email: 4, Result: &event.Result{ServedBy: "canned", Reply: "A person will get back to you shortly.", Cancelled: true}},
		{Seq: 8, Kind: event.RungEnd, Email: 4, Rung: "backup", Outcome: event.OK, TTFT: 5, Tokens: 20, TokensPerS: 31.25, Hedged: true, HedgeLost: true},
		{Seq: 9, Kind: event.AttemptStart, Synthetic: true, Rung: "primary", Replica: 2, Member: "m1"},
		{Seq: 10, Kind: event.EmailSent, Email: 5, Unscored: true, Rejected: true},
	}
	var in interner
	for _, e := range evs {
		line, ok := appendEventLine(nil, &e)
		if !ok {
			line = reflectLine(&e)
		}
		if !checkDecode(t, line, &in) {
			t.Errorf("%s event left to encoding/json: %s", e.Kind, line)
		}
	}
}

// FuzzDecodeEventLine compares the direct decoding with encoding/json on
// any line that starts as the writer's event lines do.
func FuzzDecodeEventLine(f *testing.F) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, line := range randomLines(r, 40) {
		f.Add(line)
	}
	f.Add([]byte(`{"type":"event","seq":3,"at_ns":5,"kind":"fault","fault":"busy","fault_params":{"status":"503"}}`))
	f.Add([]byte(`{"type":"event","seq":9,"at_ns":9,"kind":"usage","usage":{"input_tokens":897,"output_tokens":27,"cost":0.5}}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		var in interner
		checkDecode(t, line, &in)
	})
}
