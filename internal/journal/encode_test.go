package journal

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/event"
)

// reflectLine is the line the writer's encoding/json path writes for e,
// or nil when encoding/json refuses e.
func reflectLine(e *event.Event) []byte {
	b, err := json.Marshal(e)
	if err != nil {
		return nil
	}
	return append(append([]byte(nil), eventPrefix...), b[1:]...)
}

var (
	sampleStrings = []string{"", "primary", "gpt-5.4-mini", "DR-123456", "A person will get back to you shortly.", "x"}
	// oddStrings have bytes encoding/json escapes; they are drawn rarely,
	// so that many events have none.
	oddStrings   = []string{`say "hi"`, `back\slash`, "<b>&amp;</b>", "é", "tab\there", "\u2028", "bad \xff", "~\x7f"}
	sampleInts   = []int64{0, 1, -1, 7, 503, 1 << 40, math.MaxInt64, math.MinInt64}
	sampleFloats = []float64{0, 1, -1, 0.1, 2.5, 1e-6, 9.99e-7, 1e-7, -2.5e-9, 1e20, 1e21, 123456.789, 5e-324,
		math.MaxFloat64, 0.000123, 3.0000000000000004, 0.0006375, 1.5e300, -1e-300}
)

// fill sets v, and everything it holds, to values drawn from the samples:
// pointers, maps and slices are nil half the time.
func fill(r *rand.Rand, v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		if r.IntN(40) == 0 {
			v.SetString(oddStrings[r.IntN(len(oddStrings))])
			return
		}
		v.SetString(sampleStrings[r.IntN(len(sampleStrings))])
	case reflect.Int, reflect.Int64, reflect.Int32, reflect.Int16, reflect.Int8:
		n := sampleInts[r.IntN(len(sampleInts))]
		if v.OverflowInt(n) {
			n = int64(r.IntN(100)) - 50
		}
		v.SetInt(n)
	case reflect.Uint, reflect.Uint64, reflect.Uint32, reflect.Uint16, reflect.Uint8:
		v.SetUint(uint64(r.IntN(300)))
	case reflect.Float64, reflect.Float32:
		if r.IntN(40) == 0 {
			v.SetFloat([]float64{math.NaN(), math.Inf(1), math.Inf(-1)}[r.IntN(3)])
			return
		}
		v.SetFloat(sampleFloats[r.IntN(len(sampleFloats))])
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 0)
	case reflect.Pointer:
		if r.IntN(2) == 0 {
			v.SetZero()
			return
		}
		p := reflect.New(v.Type().Elem())
		fill(r, p.Elem())
		v.Set(p)
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			v.Set(reflect.ValueOf(time.Unix(int64(r.IntN(1<<31)), 0).UTC()))
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(r, v.Field(i))
			}
		}
	case reflect.Slice:
		if r.IntN(2) == 0 {
			v.SetZero()
			return
		}
		s := reflect.MakeSlice(v.Type(), 1, 1)
		fill(r, s.Index(0))
		v.Set(s)
	case reflect.Map:
		if r.IntN(2) == 0 {
			v.SetZero()
			return
		}
		m := reflect.MakeMap(v.Type())
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fill(r, k)
		fill(r, e)
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.Interface:
		v.SetZero()
	}
}

// TestAppendEventLineIsTheEncodersLine checks every line appendEventLine
// writes is byte for byte the encoding/json line, on events with every
// field drawn at random (the fields it leaves to encoding/json most often
// nil, so that it writes many).
func TestAppendEventLineIsTheEncodersLine(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	written, proxied := 0, 0
	for range 50000 {
		var e event.Event
		fill(r, reflect.ValueOf(&e).Elem())
		if r.IntN(4) != 0 { // mostly the plain events of an email's life, or of a proxied request
			proxy := e.Proxy
			e.Run, e.Breaker, e.Window, e.End, e.FaultParams, e.Proxy, e.Alert, e.Chat = nil, nil, nil, nil, nil, nil, nil, nil
			e.Command = nil
			if r.IntN(2) == 0 {
				e.Proxy = proxy
			}
			if e.Result != nil {
				e.Result.Handover = nil
			}
		}
		got, ok := appendEventLine(nil, &e)
		want := reflectLine(&e)
		if !ok {
			continue
		}
		written++
		if e.Proxy != nil {
			proxied++
		}
		if want == nil {
			t.Fatalf("appendEventLine wrote an event encoding/json refuses: %s", got)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("appendEventLine differs from encoding/json:\n got %s\nwant %s", got, want)
		}
	}
	t.Logf("%d of the random events written directly, %d of them proxied requests'", written, proxied)
	if written < 500 || proxied < 500 {
		t.Errorf("appendEventLine wrote %d of the random events, %d of them proxied requests', want at least 500 of each", written, proxied)
	}
}

// TestAppendEventLineWritesAnEmailsEvents checks the events of an email
// served with prices are written without encoding/json, as encoding/json
// writes them.
func TestAppendEventLineWritesAnEmailsEvents(t *testing.T) {
	truth := emails.Answer{Intent: "refund", OrderNumber: "DR-123456", Product: "Trail Runner 2", Urgency: "high"}
	evs := []event.Event{
		{Seq: 1, At: time.Millisecond, Kind: event.EmailSent, Email: 3, Truth: &truth, Class: "billing", TruthClass: "billing"},
		{Seq: 2, At: 2 * time.Millisecond, Kind: event.RungStart, Email: 3, Rung: "primary", Model: "gpt-5.4-mini"},
		{Seq: 3, At: 3 * time.Millisecond, Kind: event.AttemptEnd, Email: 3, Rung: "primary", Model: "gpt-5.4-mini", Outcome: event.OK, Status: 200},
		{Seq: 4, Kind: event.AttemptUsage, Email: 3, Usage: &event.Usage{InputTokens: 1500, OutputTokens: 30, Cost: 0.0006375, Priced: true}},
		{Seq: 5, At: time.Second, Kind: event.EmailDone, Email: 3, Result: &event.Result{ServedBy: "primary", Answer: &truth, Wait: 41 * time.Millisecond}},
		{Seq: 6, Kind: event.EmailDone, Email: 4, Result: &event.Result{ServedBy: "canned", Reply: "A person will get back to you shortly.", Cancelled: true}},
	}
	checkDirectLines(t, evs)
}

// checkDirectLines checks that each event is written without
// encoding/json, as encoding/json writes it.
func checkDirectLines(t *testing.T, evs []event.Event) {
	t.Helper()
	for _, e := range evs {
		got, ok := appendEventLine(nil, &e)
		if !ok {
			t.Errorf("%s event left to encoding/json", e.Kind)
			continue
		}
		if want := reflectLine(&e); !bytes.Equal(got, want) {
			t.Errorf("%s event:\n got %s\nwant %s", e.Kind, got, want)
		}
	}
}

// TestAppendEventLineWritesAProxysEvents checks the events of a request
// through the proxy are written without encoding/json, as encoding/json
// writes them.
func TestAppendEventLineWritesAProxysEvents(t *testing.T) {
	call := event.ProxyCall{ID: 41, Method: "POST", Path: "/v1/chat/completions", Stream: true, SDK: "openai-node",
		SDKVersion: "7.60.0", SDKTimeout: 600 * time.Second}
	end := call
	end.Wait, end.TTFT, end.InputTokens, end.OutputTokens, end.Cost, end.Priced = 1500*time.Microsecond, time.Millisecond, 1500, 30, 0.0006375, true
	evs := []event.Event{
		{Seq: 1, At: time.Millisecond, Kind: event.AttemptStart, Rung: "upstream", Model: "gpt-5.4-mini", Attempt: 2, Proxy: &call},
		{Seq: 2, At: 2 * time.Millisecond, Kind: event.AttemptEnd, Rung: "upstream", Model: "gpt-5.4-mini", Outcome: event.OK, Status: 200, Proxy: &end},
		{Seq: 3, At: 3 * time.Millisecond, Kind: event.AttemptEnd, Rung: "upstream", Outcome: event.HTTP4xx, Status: 413, Proxy: &event.ProxyCall{ID: 42, Method: "GET", Path: "/"}},
	}
	checkDirectLines(t, evs)
}
