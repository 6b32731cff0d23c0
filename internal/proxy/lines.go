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

// WriteLines follows log, writing one line per finished request and one per
// outage window opening and closing, until the log is closed and read or ctx
// ends. It returns the tally of everything it read.
func WriteLines(ctx context.Context, log *event.Log, w io.Writer) (*scoring.ProxyTally, error) {
	t := scoring.NewProxyTally()
	cur := log.Cursor()
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
