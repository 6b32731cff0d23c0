package plan

import (
	"slices"
	"testing"

	"github.com/spf13/pflag"
)

// TestCommandLineParsesBack: the flags given come back as --name=value,
// each value of a list flag on its own, and the shard's own flags (where
// its output goes, how it runs) are left out.
func TestCommandLineParsesBack(t *testing.T) {
	fs := pflag.NewFlagSet("sweep", pflag.ContinueOnError)
	fs.String("outage", "", "")
	fs.StringArray("trip", nil, "")
	fs.String("output", "", "")
	fs.Bool("force", false, "")
	if err := fs.Parse([]string{"--outage", "hang", "--trip", "count", "--trip", "count,in-flight", "--output=s.json", "--force"}); err != nil {
		t.Fatal(err)
	}
	got := CommandLine(fs, nil)
	want := []string{"--outage=hang", "--trip=count", "--trip=count,in-flight"}
	if !slices.Equal(got, want) {
		t.Errorf("CommandLine: %v, want %v", got, want)
	}
}
