package cli

import (
	"bytes"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/exit"
)

// TestFlagValuesRefuseUnknownNames: --clock and --format take their valid
// names and refuse any other, listing the valid ones.
func TestFlagValuesRefuseUnknownNames(t *testing.T) {
	var c Clock
	if err := c.Set(event.ClockVirtual); err != nil || !c.Virtual() {
		t.Errorf("--clock virtual: %v, virtual %v", err, c.Virtual())
	}
	if err := c.Set("fast"); err == nil || !strings.Contains(err.Error(), "valid: real, virtual") {
		t.Errorf("--clock fast: %v, want the valid clocks", err)
	}
	var f TableFormat
	if err := f.Set("md"); err != nil || f.Width(io.Discard) != -1 {
		t.Errorf("--format md: %v, width %d, want Markdown (-1)", err, f.Width(io.Discard))
	}
	if err := f.Set("html"); err == nil {
		t.Error("--format html accepted")
	}
}

// TestShareReadsBothForms: 5% and 0.05 are the same share, shown as 5%.
func TestShareReadsBothForms(t *testing.T) {
	for _, v := range []string{"5%", "0.05"} {
		var s Share
		if err := s.Set(v); err != nil || s.String() != "5%" {
			t.Errorf("%s: %v, %s, want 5%%", v, err, s.String())
		}
	}
}

// TestShardNeedsAnOutput: --shard without -o is a usage error; without -o
// the result goes to stdout, with it to the file only.
func TestShardNeedsAnOutput(t *testing.T) {
	s := ShardFlags{Shard: "1/2"}
	if err := s.Check(nil, false); exit.Code(err) != 2 {
		t.Errorf("--shard 1/2 without -o: exit %d (%v), want 2", exit.Code(err), err)
	}
	var out bytes.Buffer
	if err := (&ShardFlags{}).Write(&out, func(w io.Writer) error { _, err := io.WriteString(w, "table"); return err }); err != nil || out.String() != "table" {
		t.Errorf("no -o: %q, %v, want the table on stdout", out.String(), err)
	}
}

// TestInputsOfNamesTheFilesGiven: the files a command reads, from the
// input flags given, then the extra ones.
func TestInputsOfNamesTheFilesGiven(t *testing.T) {
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	fs.String("file", "", "")
	fs.String("emails-file", "", "")
	if err := fs.Parse([]string{"--file", "d.yaml"}); err != nil {
		t.Fatal(err)
	}
	if got := InputsOf(fs, "r.jsonl"); !slices.Equal(got, []string{"d.yaml", "r.jsonl"}) {
		t.Errorf("inputs %v, want [d.yaml r.jsonl]", got)
	}
	if err := NotInput(fs, "-o", "d.yaml"); exit.Code(err) != 2 {
		t.Errorf("-o d.yaml, the drill file read: exit %d (%v), want 2", exit.Code(err), err)
	}
}
