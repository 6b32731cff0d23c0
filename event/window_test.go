package event

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

// TestWindowReadsEveryRecordedForm: an outage event's window from a journal
// recorded before the window types became one ({start_ns, end_ns,
// by_hand}), a configuration's window written by the injector's old type
// (from_ns, to_ns) and a window written now all read back the same.
func TestWindowReadsEveryRecordedForm(t *testing.T) {
	s := time.Second
	for _, c := range []struct {
		json string
		want Window
	}{
		{`{"start_ns":15000000000,"end_ns":40000000000,"by_hand":false}`, Window{From: 15 * s, To: 40 * s}},
		{`{"kind":"busy","params":{"status":"500"},"from_ns":2000000000,"to_ns":-1,"rate":0.5,"models":["backup"]}`,
			Window{FaultSpec: FaultSpec{Kind: "busy", Params: map[string]string{"status": "500"}}, From: 2 * s, To: -1, Rate: 0.5, Models: []string{"backup"}}},
		{`{"kind":"hang","start_ns":8700000000,"end_ns":-1,"by_hand":true,"index":1}`,
			Window{FaultSpec: FaultSpec{Kind: "hang"}, From: 8700 * time.Millisecond, To: -1, ByHand: true, Index: 1}},
	} {
		var got Window
		if err := json.Unmarshal([]byte(c.json), &got); err != nil {
			t.Fatalf("%s: %v", c.json, err)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s read as %+v, want %+v", c.json, got, c.want)
		}
		raw, err := json.Marshal(got)
		if err != nil {
			t.Fatal(err)
		}
		var again Window
		if err := json.Unmarshal(raw, &again); err != nil || !reflect.DeepEqual(again, got) {
			t.Errorf("%s round-trips as %s: %+v (%v)", c.json, raw, again, err)
		}
	}
}

// TestPlacement: which attempts a window's placement takes, flap, ramp
// and models included.
func TestPlacement(t *testing.T) {
	s := time.Second
	w := Window{From: 10 * s, To: 20 * s, Rate: 0.5, Ramp: true, Flap: &Flap{On: 2 * s, Off: 3 * s}, Models: []string{"backup"}}
	for _, c := range []struct {
		at   time.Duration
		want float64
	}{{9 * s, 0}, {10 * s, 0}, {11 * s, 0.05}, {13 * s, 0}, {15 * s, 0.25}, {20 * s, 0}} {
		if got := w.HitRate(c.at); got != c.want {
			t.Errorf("HitRate(%s) = %v, want %v", c.at, got, c.want)
		}
	}
	if w.Breaks("primary", "primary", 0) || !w.Breaks("backup", "primary", 0) {
		t.Error("a window on the backup must break the backup's attempts only")
	}
	w.Replicas = []int{2}
	if w.Breaks("backup", "primary", 1) || !w.Breaks("backup", "primary", 2) {
		t.Error("a window on replica 2 must break replica 2's attempts only")
	}
	if plain := (Window{From: 0, To: -1}); !plain.Open() || !plain.Contains(time.Hour) || plain.HitRate(time.Hour) != 1 || plain.Partial() {
		t.Error("an open plain window hits every attempt from its start on")
	}
	c := w.Clone()
	c.Flap.On, c.Models[0] = time.Hour, "primary"
	if w.Flap.On != 2*s || w.Models[0] != "backup" {
		t.Error("Clone shares the window's flap or models")
	}
}
