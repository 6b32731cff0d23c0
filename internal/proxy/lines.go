package proxy

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/scoring"
)

// WriteLines follows log, writing one line per finished request and one per
// outage window opening and closing, until the log is closed and read or ctx
// ends. It returns the tally of everything it read.
func WriteLines(ctx context.Context, log *event.Log, w io.Writer) (*scoring.ProxyTally, error) {
	t := scoring.NewProxyTally()
	cur := log.Cursor()
	for {
		evs, err := cur.Next(ctx)
		for _, e := range evs {
			if r, ok := t.Add(e); ok {
				fmt.Fprintln(w, format.ProxyLine(r))
				continue
			}
			switch e.Kind {
			case event.OutageStart:
				fmt.Fprintf(w, "outage %s starts at=%.3fs\n", e.Fault, e.At.Seconds())
			case event.OutageEnd:
				fmt.Fprintf(w, "outage %s ends at=%.3fs\n", e.Fault, e.At.Seconds())
			}
		}
		if errors.Is(err, io.EOF) {
			return t, nil
		}
		if err != nil {
			return t, err
		}
	}
}
