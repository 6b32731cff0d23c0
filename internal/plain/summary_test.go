package plain

import (
	"bytes"
	"strings"
	"testing"

	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/journal"
)

// TestRunTableReadsTheFold: drill run's table shows a recorded run cut
// short by SIGINT with the same formatted figures as the dashboard and the
// report (tui's TestOneJournalEveryReader checks those).
func TestRunTableReadsTheFold(t *testing.T) {
	sum, _, err := journal.Summarize("../../scoring/testdata/sigint-hang-breaker.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := Summary(&b, sum); err != nil {
		t.Fatal(err)
	}
	for _, fig := range []string{Status(sum), Served(sum.Served), All4(sum), format.Seconds(sum.MedianWaitOutageS),
		format.Seconds(sum.P95WaitOutageS), format.Seconds(sum.BreakerFirstOpenS), Followed(sum.Followed)} {
		if !strings.Contains(b.String(), fig) {
			t.Errorf("run's table lacks %q:\n%s", fig, b.String())
		}
	}
}
