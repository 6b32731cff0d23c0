package scoring

import (
	"time"

	"github.com/drill-dev/drill/event"
)

// Stream is one streamed call of an email (a stream_end event): its time
// to first token, tokens and pace, and how it ended.
type Stream struct {
	Rung       string
	Model      string
	TTFT       time.Duration // 0: no token arrived
	Tokens     int
	TokensPerS float64
	Outcome    event.Outcome
}

// streamEnd keeps a streamed call's figures on its email's record.
func (f *Fold) streamEnd(e event.Event) {
	if r := f.keptRecord(e.Email); r != nil {
		r.Streams = append(r.Streams, Stream{Rung: e.Rung, Model: e.Model, TTFT: e.TTFT, Tokens: e.Tokens,
			TokensPerS: e.TokensPerS, Outcome: e.Outcome})
		r.Version++
	}
}
