package proxy

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/scoring"
)

// WriteLines reads the log through cur (attached where the caller needs it:
// before the log releases what its readers have read), writing one line per
// finished request and one per outage window opening and closing, until the
// log is closed and read or ctx ends. It returns the tally of everything it
// read.
func WriteLines(ctx context.Context, cur *event.Cursor, w io.Writer) (*scoring.ProxyTally, error) {
	t := scoring.NewProxyTally()
	defer cur.Close()
	for {
		evs, err := cur.Next(ctx)
		for _, e := range evs {
			switch s := t.Step(e); {
			case s.Request != nil:
				fmt.Fprintln(w, plain.ProxyLine(*s.Request))
			case s.Outage != nil:
				fmt.Fprintln(w, plain.ProxyOutageLine(*s.Outage))
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
