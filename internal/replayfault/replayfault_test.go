package replayfault

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
)

const ms = time.Millisecond

// attempts builds a run's log from (start, duration, outcome, status) rows
// on the primary, with one healthy backup attempt that must be ignored.
func attempts(rows ...struct {
	start, dur time.Duration
	out        event.Outcome
	status     int
}) []event.Event {
	evs := []event.Event{{Kind: event.RunStart, Run: &event.RunInfo{Target: event.ServedPrimary}}}
	for i, r := range rows {
		evs = append(evs,
			event.Event{At: r.start, Kind: event.AttemptStart, Email: i + 1, Rung: event.ServedPrimary, Model: "mini"},
			event.Event{At: r.start + r.dur, Kind: event.AttemptEnd, Email: i + 1, Rung: event.ServedPrimary, Model: "mini", Outcome: r.out, Status: r.status})
	}
	evs = append(evs,
		event.Event{At: 5 * ms, Kind: event.AttemptStart, Email: 99, Rung: event.ServedBackup, Model: "nano"},
		event.Event{At: 6 * ms, Kind: event.AttemptEnd, Email: 99, Rung: event.ServedBackup, Model: "nano", Outcome: event.HTTP5xx, Status: 500})
	return evs
}

type row = struct {
	start, dur time.Duration
	out        event.Outcome
	status     int
}

func TestDeriveWindowsFromClassesAndTimings(t *testing.T) {
	evs := attempts(
		row{0, 100 * ms, event.OK, 200},
		row{500 * ms, 1 * ms, event.HTTP5xx, 503},
		row{700 * ms, 1 * ms, event.HTTP5xx, 503},
		row{900 * ms, 1 * ms, event.HTTP5xx, 500}, // another status: another window
		row{1000 * ms, 100 * ms, event.OK, 200},
		row{2000 * ms, 3000 * ms, event.Timeout, 0},
		row{2500 * ms, 3000 * ms, event.Timeout, 0},
		row{6000 * ms, 2 * ms, event.HTTP429, 429},
		row{6100 * ms, 90 * ms, event.Canceled, 0}, // the run's end: says nothing
		row{6200 * ms, 100 * ms, event.OK, 200},
		row{7000 * ms, 9000 * ms, event.OK, 200}, // slow: over 5 s
		row{8000 * ms, 10 * ms, event.ConnError, 0},
		row{8100 * ms, 10 * ms, event.Invalid, 200},
	)
	for i := range evs {
		if evs[i].Kind == event.AttemptEnd && evs[i].Outcome == event.HTTP429 {
			evs[i].RetryAfter = 2 * time.Second
		}
	}
	as, err := Attempts(evs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := Derive(as)
	want := []Window{
		win(Busy, 500*ms, 900*ms, 2, "status=503"),
		win(Busy, 900*ms, 1000*ms, 1, "status=500"),
		win(Hang, 2000*ms, 6000*ms, 2),
		win(RateLimit, 6000*ms, 6200*ms, 1, "status=429", "retry_after=2s"),
		win(Slow, 7000*ms, 8000*ms, 1, "delay=9s"),
		win(Reset, 8000*ms, 8100*ms, 1),
		win(Malformed, 8100*ms, 8110*ms, 1),
	}
	if len(got) != len(want) {
		t.Fatalf("windows:\n%s\nwant %d", windows(got), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("window %d: %s, want %s", i, got[i], want[i])
		}
	}
}

func windows(ws []Window) string {
	var b strings.Builder
	for _, w := range ws {
		b.WriteString(w.String() + "\n")
	}
	return b.String()
}

func TestModelSelectsByRungOrModelName(t *testing.T) {
	evs := attempts(row{0, ms, event.HTTP5xx, 503})
	for _, sel := range []string{"backup", "nano"} {
		as, err := Attempts(evs, Options{Model: sel})
		if err != nil || len(as) != 1 || as[0].Status != 500 {
			t.Errorf("--model %s: %+v %v, want the backup's one 500", sel, as, err)
		}
	}
	_, err := Attempts(evs, Options{Model: "gpt-9"})
	if err == nil || !strings.Contains(err.Error(), "backup, mini, nano, primary") {
		t.Errorf("unknown model: %v, want an error listing backup, mini, nano, primary", err)
	}
}

func TestInjectCarriesTheRecordedParameters(t *testing.T) {
	iw, notes, err := Inject([]Window{
		win(Busy, 0, time.Second, 0, "status=500"),
		win(Hang, 2*time.Second, 3*time.Second, 0),
		win(RateLimit, 4*time.Second, 5*time.Second, 0, "status=429", "retry_after=20s"),
		win(Slow, 6*time.Second, 7*time.Second, 0, "delay=9s"),
		win(Reset, 8*time.Second, 9*time.Second, 0),
		win(Malformed, 10*time.Second, 11*time.Second, 0),
		win(Busy, 12*time.Second, 13*time.Second, 0, "status=501"),
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ kind, key, value string }{
		{"busy", "status", "500"}, {"hang", "", ""}, {"rate-limit", "retry_after", "20s"},
		{"slow", "delay", "9s"}, {"reset", "", ""}, {"malformed", "", ""}, {"busy", "status", "503"},
	}
	if len(iw) != len(want) {
		t.Fatalf("%d windows, want %d", len(iw), len(want))
	}
	for i, w := range want {
		if iw[i].Kind != w.kind || (w.key != "" && iw[i].Params[w.key] != w.value) || iw[i].From != time.Duration(2*i)*time.Second {
			t.Errorf("window %d: %+v, want %s with %s=%s from %ds", i, iw[i], w.kind, w.key, w.value, 2*i)
		}
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "501") {
		t.Errorf("notes %q, want one about the 501 replayed as 503", notes)
	}
	if _, _, err := Inject([]Window{win("teleport", 0, time.Second, 0)}); err == nil || !strings.Contains(err.Error(), "busy") {
		t.Errorf("unknown class: %v, want an error listing the injector's kinds", err)
	}
}

// win is a recorded window of class over [from, to) covering attempts,
// with the recorded parameters given as KEY=VALUE.
func win(class Class, from, to time.Duration, attempts int, params ...string) Window {
	p := map[string]string{}
	for _, kv := range params {
		k, v, _ := strings.Cut(kv, "=")
		p[k] = v
	}
	return Window{Window: event.Window{FaultSpec: event.FaultSpec{Kind: string(class), Params: p}, From: from, To: to}, Attempts: attempts}
}

// TestRecordedFaultsReplayAsThemselves: attempts drill injected a fault
// into replay as that fault with its recorded parameters, whatever their
// outcome showed: a malformed answer the SDK took as a 200, a trickle and
// a slow outage that slowed every answer alike (no typical answer to be
// slow against). Before, each of these journals replayed as no outage.
func TestRecordedFaultsReplayAsThemselves(t *testing.T) {
	evs := []event.Event{{Kind: event.RunStart, Run: &event.RunInfo{Target: event.ServedPrimary}}}
	add := func(email int, start, dur time.Duration, fault string, params map[string]string) {
		evs = append(evs, event.Event{At: start, Kind: event.AttemptStart, Email: email, Rung: event.ServedPrimary, Model: "mini"})
		if fault != "" {
			evs = append(evs, event.Event{At: start, Kind: event.Fault, Email: email, Rung: event.ServedPrimary, Fault: fault, FaultParams: params})
		}
		evs = append(evs, event.Event{At: start + dur, Kind: event.AttemptEnd, Email: email, Rung: event.ServedPrimary, Model: "mini",
			Outcome: event.OK, Status: 200})
	}
	add(1, 0, 2*time.Second, "slow", map[string]string{"delay": "2s", "jitter": "0s"})
	add(2, 500*ms, 2*time.Second, "slow", map[string]string{"delay": "2s", "jitter": "0s"})
	add(3, 3000*ms, 10*ms, "malformed", map[string]string{"kind": "schema"})
	add(4, 3100*ms, 10*ms, "malformed", map[string]string{"kind": "schema"})
	add(5, 4000*ms, 3*time.Second, "trickle", map[string]string{"tokens_per_s": "5"})
	add(6, 8000*ms, 2*time.Second, "", nil) // as slow as the rest, but nothing was injected
	as, err := Attempts(evs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := Derive(as)
	want := []Window{
		win(Slow, 0, 3000*ms, 2, "delay=2s", "jitter=0s"),
		win(Malformed, 3000*ms, 4000*ms, 2, "kind=schema"),
		win("trickle", 4000*ms, 8000*ms, 1, "tokens_per_s=5"), // open until the next attempt met something else
	}
	if windows(got) != windows(want) {
		t.Fatalf("windows:\n got %s\nwant %s", windows(got), windows(want))
	}
	iws, _, err := Inject(got)
	if err != nil {
		t.Fatal(err)
	}
	for i, kind := range []string{"slow", "malformed", "trickle"} {
		if iws[i].Kind != kind {
			t.Errorf("window %d replays as %s, want %s", i+1, iws[i].Kind, kind)
		}
	}
	if iws[0].Params["delay"] != "2s" || iws[1].Params["kind"] != "schema" || iws[2].Params["tokens_per_s"] != "5" {
		t.Errorf("replayed parameters %v %v %v", iws[0].Params, iws[1].Params, iws[2].Params)
	}
}
