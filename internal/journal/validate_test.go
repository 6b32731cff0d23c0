package journal_test

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/journal"
)

const (
	validHeader   = `{"type":"header","format":1,"config":{"emails":3,"ceiling_ns":60000000000}}`
	validRunStart = `{"type":"event","seq":0,"at_ns":0,"kind":"run_start","run":{"outage":"busy","policy":"breaker","emails":3,"rate":2,"outage_from_s":1,"outage_to_s":2}}`
)

// writeLines writes a journal of the given lines and returns its path.
func writeLines(t *testing.T, lines ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "crafted.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestInvalidEvents(t *testing.T) {
	for _, c := range []struct {
		name   string
		header string
		events []string // after run_start, from seq 1
		line   int
		want   []string
	}{
		{"negative at_ns", validHeader, []string{
			`{"type":"event","seq":1,"at_ns":-2000000000,"kind":"attempt_start","email":1,"rung":"primary"}`,
		}, 3, []string{`"at_ns"`, "-2000000000", "negative"}},
		{"at_ns goes back in time", validHeader, []string{
			`{"type":"event","seq":1,"at_ns":5000000000,"kind":"email_sent","email":1}`,
			`{"type":"event","seq":2,"at_ns":3000000000,"kind":"attempt_start","email":1,"rung":"primary"}`,
		}, 4, []string{`"at_ns"`, "2s before the previous event's (line 3)"}},
		{"at_ns 1e17 past the ceiling", validHeader, []string{
			`{"type":"event","seq":1,"at_ns":100000000000000000,"kind":"attempt_start","email":1,"rung":"primary"}`,
		}, 3, []string{`"at_ns"`, "100000000000000000", "ceiling (1m0s) plus 1m0s"}},
		{"at_ns 9e18 with no ceiling", `{"type":"header","format":1}`, []string{
			`{"type":"event","seq":1,"at_ns":9000000000000000000,"kind":"attempt_start","email":1,"rung":"primary"}`,
		}, 3, []string{`"at_ns"`, "9000000000000000000", "the longest run drill reads (168h0m0s)"}},
		{"email beyond the configured emails", validHeader, []string{
			`{"type":"event","seq":1,"at_ns":1,"kind":"email_sent","email":4}`,
		}, 3, []string{`"email"`, "outside 1..3", "run.emails on line 2"}},
		{"negative email", validHeader, []string{
			`{"type":"event","seq":1,"at_ns":1,"kind":"attempt_end","email":-1}`,
		}, 3, []string{`"email"`, "-1"}},
		{"email_done without email", validHeader, []string{
			`{"type":"event","seq":1,"at_ns":1,"kind":"email_done","result":{"served_by":"primary","wait_ns":1}}`,
		}, 3, []string{`"email"`, "missing"}},
		{"wait longer than the run", validHeader, []string{
			`{"type":"event","seq":1,"at_ns":1000,"kind":"email_done","email":1,"result":{"served_by":"primary","wait_ns":9000000000}}`,
		}, 3, []string{`"result.wait_ns"`}},
		{"unknown served_by", validHeader, []string{
			`{"type":"event","seq":1,"at_ns":1000,"kind":"email_done","email":1,"result":{"served_by":"oracle","wait_ns":1}}`,
		}, 3, []string{`"result.served_by"`, "oracle"}},
		{"negative attempt", validHeader, []string{
			`{"type":"event","seq":1,"at_ns":1,"kind":"attempt_start","email":1,"attempt":-3}`,
		}, 3, []string{`"attempt"`}},
		{"second run_start", validHeader, []string{
			`{"type":"event","seq":1,"at_ns":1,"kind":"run_start","run":{"emails":3,"rate":1}}`,
		}, 3, []string{"second run_start", "line 2"}},
		{"breaker without state", validHeader, []string{
			`{"type":"event","seq":1,"at_ns":1,"kind":"breaker"}`,
		}, 3, []string{`"breaker"`, "missing"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := writeLines(t, append([]string{c.header, validRunStart}, c.events...)...)
			_, err := journal.ReadFile(path)
			if !errors.Is(err, journal.ErrInvalid) {
				t.Fatalf("err = %v, want ErrInvalid", err)
			}
			prefix := path + ":" + strconv.Itoa(c.line) + ": invalid journal event: field"
			if c.name == "second run_start" {
				prefix = path + ":" + strconv.Itoa(c.line) + ": invalid journal event: a second"
			}
			if !strings.HasPrefix(err.Error(), prefix) {
				t.Errorf("err = %q, want it to start %q", err, prefix)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("err = %q lacks %q", err, w)
				}
			}
		})
	}
}

func TestInvalidRunStart(t *testing.T) {
	for _, c := range []struct{ run, field string }{
		{`{"emails":0,"rate":1}`, "run.emails"},
		{`{"emails":20000000,"rate":1}`, "run.emails"},
		{`{"emails":3,"rate":0}`, "run.rate"},
		{`{"emails":3,"rate":1,"outage_from_s":-1}`, "run.outage_from_s"},
		{`{"emails":3,"rate":1,"outage_to_s":1e300}`, "run.outage_to_s"},
		{`{"emails":3,"rate":1,"rungs":[{"name":"primary","time_limit_ns":-5}]}`, "run.rungs[0]"},
	} {
		path := writeLines(t, validHeader, `{"type":"event","seq":0,"at_ns":0,"kind":"run_start","run":`+c.run+`}`)
		_, err := journal.ReadFile(path)
		if !errors.Is(err, journal.ErrInvalid) || !strings.Contains(err.Error(), path+":2:") || !strings.Contains(err.Error(), `"`+c.field) {
			t.Errorf("run %s: err = %v, want ErrInvalid on line 2 naming %s", c.run, err, c.field)
		}
	}
}

// TestHugeCeilingIsCapped: a header ceiling beyond MaxOffset reads, but
// events still may not lie past MaxOffset.
func TestHugeCeilingIsCapped(t *testing.T) {
	path := writeLines(t, `{"type":"header","format":1,"config":{"ceiling_ns":9000000000000000000}}`, validRunStart,
		`{"type":"event","seq":1,"at_ns":8000000000000000000,"kind":"attempt_start","email":1}`)
	_, err := journal.ReadFile(path)
	if !errors.Is(err, journal.ErrInvalid) || !strings.Contains(err.Error(), path+":3:") || !strings.Contains(err.Error(), "168h0m0s") {
		t.Errorf("err = %v, want ErrInvalid on line 3 naming the 168h bound", err)
	}
}

func TestInvalidHeaderCeiling(t *testing.T) {
	for _, cfg := range []string{`{"ceiling_ns":-1}`, `{"ceiling_ns":"soon"}`, `{"ceiling_ns":1.5}`} {
		path := writeLines(t, `{"type":"header","format":1,"config":`+cfg+`}`)
		_, err := journal.ReadFile(path)
		if !errors.Is(err, journal.ErrInvalid) || !strings.Contains(err.Error(), path+":1:") || !strings.Contains(err.Error(), "config.ceiling_ns") {
			t.Errorf("config %s: err = %v, want ErrInvalid on line 1 naming config.ceiling_ns", cfg, err)
		}
	}
}

// TestValidEdges: what the rules allow is read without complaint: a step
// back within the tolerance, an event in the grace after the ceiling, email
// ids 0 (no email) on attempts, and unknown kinds.
func TestValidEdges(t *testing.T) {
	path := writeLines(t, validHeader, validRunStart,
		`{"type":"event","seq":1,"at_ns":2000000,"kind":"email_sent","email":3}`,
		`{"type":"event","seq":2,"at_ns":1500000,"kind":"attempt_start","rung":"primary"}`,
		`{"type":"event","seq":3,"at_ns":119000000000,"kind":"email_done","email":3,"result":{"served_by":"error","wait_ns":118000000000,"cancelled":true}}`,
		`{"type":"event","seq":4,"at_ns":119000000000,"kind":"some_future_kind"}`,
	)
	j, err := journal.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(j.Events) != 5 || j.Events[4].Kind != event.Kind("some_future_kind") {
		t.Errorf("read %d events, want 5", len(j.Events))
	}
}
