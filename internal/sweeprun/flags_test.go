package sweeprun

import (
	"strings"
	"testing"

	"github.com/drill-dev/drill/internal/exit"
)

// TestAShardsCommandLineParsesAsDrillSweeps: a shard's recorded command
// line parses into the flags drill sweep would have, and one that does
// not parse is a usage error naming it.
func TestAShardsCommandLineParsesAsDrillSweeps(t *testing.T) {
	sf, err := parseArgs([]string{"--clock=virtual", "--repeat=3", "--json"})
	if err != nil {
		t.Fatal(err)
	}
	if !sf.clock.Virtual() || sf.Repeat != 3 || !sf.json {
		t.Errorf("parsed clock %s, repeat %d, json %v; want virtual, 3, true", sf.clock, sf.Repeat, sf.json)
	}
	_, err = parseArgs([]string{"--no-such-flag=1"})
	if exit.Code(err) != 2 || !strings.Contains(err.Error(), "the shard's command line") {
		t.Errorf("an unknown flag: exit %d, %v; want a usage error about the shard's command line", exit.Code(err), err)
	}
}
