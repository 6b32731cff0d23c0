package tui

import (
	"strings"
	"testing"

	"github.com/drill-dev/drill/scoring"
)

// TestServedSegmentShowsRejectedAndHandedOver: the summary's served counts
// add the worker pool's rejections (R) and the emails handed to a person
// (H) when there are any, lettered as the Emails pane tags them, and keep
// the four counts alone otherwise.
func TestServedSegmentShowsRejectedAndHandedOver(t *testing.T) {
	for _, c := range []struct {
		served scoring.Served
		want   string
	}{
		{scoring.Served{Primary: 67, Backup: 53}, "served P/B/C/E 67/53/0/0"},
		{scoring.Served{Primary: 322, Backup: 20, Rejected: 258}, "served P/B/C/E/R 322/20/0/0/258"},
		{scoring.Served{Primary: 100, Backup: 10, Canned: 2, Error: 1, HandedOver: 7}, "served P/B/C/E/H 100/10/2/1/7"},
		{scoring.Served{Primary: 1, HandedOver: 2, Rejected: 3}, "served P/B/C/E/H/R 1/0/0/0/2/3"},
	} {
		segs := summarySegments(asciiStyles(), scoring.Summary{Served: c.served})
		if got := strings.Join(segs, " · "); !strings.Contains(got, c.want) {
			t.Errorf("%+v: summary %q lacks %q", c.served, got, c.want)
		}
	}
}
