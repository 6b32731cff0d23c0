package journal_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/report"
	"github.com/drill-dev/drill/scoring"
)

// FuzzReader feeds arbitrary bytes to the reader, and every journal it
// accepts to everything that reads journals: it must never panic, every
// error names the input, the events it accepts are numbered without gaps
// and keep the format's rules (offsets not negative, within scoring.MaxOffset),
// and the accepted events go through the whole fold — scoring.Fold as the
// live run, replay and the dashboard use it, its summary encoded as
// `drill replay --json` prints it — and through the report: loaded,
// compared with itself, and written as HTML and as Markdown with charts.
//
// CI runs it for a short budget:
//
//	go test ./internal/journal/ -run '^$' -fuzz '^FuzzReader$' -fuzztime 60s -fuzzminimizetime 5s
func FuzzReader(f *testing.F) {
	f.Add([]byte(`{"type":"header","format":1}` + "\n" + `{"type":"event","seq":0,"at_ns":0,"kind":"run_start"}` + "\n" + `{"type":"summary","status":"completed","summary":{}}` + "\n"))
	f.Add([]byte(`{"type":"header","format":1}` + "\n" + `{"type":"event","seq":0,"at_ns":5,"kind":"email_done","email":1,"result":{"served_by":"primary","wait_ns":3}}` + "\n" + `{"type":"ev`))
	f.Add([]byte(`{"type":"header","format":2}`))
	f.Add([]byte("not a journal\n"))
	f.Add([]byte(`{"type":"header","format":1}` + "\n\n" + `{"kind":"fault","type":"event","seq":0}` + "\r\n"))
	// Crafted journals: a step back in time, a negative and a huge offset.
	f.Add([]byte(validHeader + "\n" + validRunStart + "\n" +
		`{"type":"event","seq":1,"at_ns":-2000000000,"kind":"attempt_start","email":1,"rung":"primary"}` + "\n"))
	f.Add([]byte(validHeader + "\n" + validRunStart + "\n" +
		`{"type":"event","seq":1,"at_ns":5000000000,"kind":"outage_start","fault":"busy","rung":"primary"}` + "\n" +
		`{"type":"event","seq":2,"at_ns":100000000000000000,"kind":"attempt_start","email":1,"rung":"primary","attempt":1}` + "\n"))
	f.Add([]byte(`{"type":"header","format":1}` + "\n" + validRunStart + "\n" +
		`{"type":"event","seq":1,"at_ns":9000000000000000000,"kind":"attempt_start","email":1,"rung":"primary"}` + "\n"))
	// Whole recorded runs, so mutations start from every kind of event.
	for _, name := range []string{"small-breaker.jsonl", "small-fallback.jsonl"} {
		data, err := os.ReadFile(filepath.Join("..", "report", "testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		evs, ok := readFuzzed(t, data)
		if !ok {
			return
		}
		foldFuzzed(t, evs)
		reportFuzzed(t, data)
	})
}

// readFuzzed reads data as a journal, checking what the reader promises, and
// returns its events when it is accepted.
func readFuzzed(t *testing.T, data []byte) ([]event.Event, bool) {
	r, err := journal.NewReader(bytes.NewReader(data), "fuzz.jsonl")
	if err != nil {
		if !bytes.Contains([]byte(err.Error()), []byte("fuzz.jsonl")) {
			t.Fatalf("error does not name the input: %v", err)
		}
		return nil, false
	}
	var evs []event.Event
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			if !bytes.Contains([]byte(err.Error()), []byte("fuzz.jsonl")) {
				t.Fatalf("error does not name the input: %v", err)
			}
			return nil, false
		}
		if e.Seq != int64(len(evs)) || e.Kind == "" {
			t.Fatalf("accepted event seq %d kind %q, want seq %d", e.Seq, e.Kind, len(evs))
		}
		if e.At < 0 || e.At > scoring.MaxOffset || e.Email < 0 {
			t.Fatalf("accepted event %d with at_ns %d, email %d", e.Seq, e.At, e.Email)
		}
		evs = append(evs, e)
	}
	if _, ok := r.Summary(); ok == r.CutShort() {
		t.Fatal("Summary and CutShort disagree")
	}
	return evs, true
}

// foldFuzzed folds accepted events as the live run does, asking for the
// summary part way (as the dashboard does every frame) and at the end; the
// summary must encode as JSON (no NaN or infinity).
func foldFuzzed(t *testing.T, evs []event.Event) {
	fold := scoring.NewFold()
	for i, e := range evs {
		fold.Add(e)
		if i == len(evs)/2 {
			_ = fold.Summary()
		}
	}
	if _, err := json.Marshal(fold.Summary()); err != nil {
		t.Fatalf("the summary of accepted events does not encode: %v", err)
	}
}

// reportFuzzed writes an accepted journal to a file and makes both reports
// from it, paired with itself.
func reportFuzzed(t *testing.T, data []byte) {
	dir := t.TempDir()
	path := filepath.Join(dir, "fuzz.jsonl")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	run, err := report.Load(path)
	if err != nil {
		t.Fatalf("report cannot load a journal the reader accepted: %v", err)
	}
	rep := report.FromRuns([]*report.Run{run, run})
	rep.DPI = 10
	if err := rep.WriteHTML(io.Discard); err != nil {
		t.Logf("HTML report: %v", err) // an error is a clean outcome; a panic is not
	}
	if err := rep.WriteMarkdown(filepath.Join(dir, "r.md")); err != nil {
		t.Logf("Markdown report: %v", err)
	}
}
