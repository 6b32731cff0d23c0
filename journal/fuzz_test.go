package journal_test

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/drill-dev/drill/journal"
)

// FuzzReader feeds arbitrary bytes to the reader: it must never panic, every
// error names the input, and the events it accepts are numbered without gaps.
func FuzzReader(f *testing.F) {
	f.Add([]byte(`{"type":"header","format":1}` + "\n" + `{"type":"event","seq":0,"at_ns":0,"kind":"run_start"}` + "\n" + `{"type":"summary","status":"completed","summary":{}}` + "\n"))
	f.Add([]byte(`{"type":"header","format":1}` + "\n" + `{"type":"event","seq":0,"at_ns":5,"kind":"email_done","email":1,"result":{"served_by":"primary","wait_ns":3}}` + "\n" + `{"type":"ev`))
	f.Add([]byte(`{"type":"header","format":2}`))
	f.Add([]byte("not a journal\n"))
	f.Add([]byte(`{"type":"header","format":1}` + "\n\n" + `{"kind":"fault","type":"event","seq":0}` + "\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := journal.NewReader(bytes.NewReader(data), "fuzz.jsonl")
		if err != nil {
			if !bytes.Contains([]byte(err.Error()), []byte("fuzz.jsonl")) {
				t.Fatalf("error does not name the input: %v", err)
			}
			return
		}
		var want int64
		for {
			e, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				if !errors.Is(err, journal.ErrCorrupt) && !bytes.Contains([]byte(err.Error()), []byte("fuzz.jsonl")) {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if e.Seq != want || e.Kind == "" {
				t.Fatalf("accepted event seq %d kind %q, want seq %d", e.Seq, e.Kind, want)
			}
			want++
		}
		if _, ok := r.Summary(); ok == r.CutShort() {
			t.Fatal("Summary and CutShort disagree")
		}
	})
}
