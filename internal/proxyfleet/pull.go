package proxyfleet

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/redis/go-redis/v9"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/redact"
)

// pullPage is how many stream entries one XRANGE reads.
const pullPage = 10_000

// Pulled is a fleet's run as Redis holds it: its plan and every member's
// events, each once, in the order the events stream holds them.
type Pulled struct {
	Fleet string
	// Plan is the fleet's plan; HasPlan is false when its key has expired
	// or was never set.
	Plan    Plan
	HasPlan bool
	// Events are the members' events (Member set on each) and the
	// member_lost events drill watch recorded (no Member).
	Events []event.Event
	// Members are the members that sent events, in order of first sight.
	Members []string
}

// Pull reads the fleet's plan and its whole events stream.
func Pull(ctx context.Context, url, fleet string) (Pulled, error) {
	if err := CheckName("fleet", fleet); err != nil {
		return Pulled{}, err
	}
	c, err := dial(url)
	if err != nil {
		return Pulled{}, err
	}
	defer c.Close()
	k := keys{fleet}
	p := Pulled{Fleet: fleet}
	raw, err := c.Get(ctx, k.plan()).Bytes()
	switch {
	case errors.Is(err, redis.Nil):
	case err != nil:
		return Pulled{}, fmt.Errorf("proxy fleet %s: reading the plan through %s: %w", fleet, redact.URL(url), err)
	default:
		p.HasPlan = json.Unmarshal(raw, &p.Plan) == nil
	}
	d := newDedup()
	err = readStream(ctx, c, k.events(), "-", func(msgs []redis.XMessage) {
		for _, e := range decode(msgs) {
			if d.fresh(e) {
				p.Events = append(p.Events, e)
			}
		}
	})
	if err != nil {
		return Pulled{}, fmt.Errorf("proxy fleet %s: reading the events through %s: %w", fleet, redact.URL(url), err)
	}
	p.Members = d.order
	return p, nil
}

// readStream calls fn with the stream's entries after from ("-": from its
// start), a page at a time, until its end.
func readStream(ctx context.Context, c *redis.Client, stream, from string, fn func([]redis.XMessage)) error {
	for {
		msgs, err := c.XRangeN(ctx, stream, from, "+", pullPage).Result()
		if err != nil {
			return err
		}
		if len(msgs) == 0 {
			return nil
		}
		fn(msgs)
		if len(msgs) < pullPage {
			return nil
		}
		from = "(" + msgs[len(msgs)-1].ID
	}
}

// decode reads the events of stream entries; an entry that is not one is
// skipped.
func decode(msgs []redis.XMessage) []event.Event {
	evs := make([]event.Event, 0, len(msgs))
	for _, msg := range msgs {
		raw, ok := msg.Values[eventField].(string)
		var e event.Event
		if ok && json.Unmarshal([]byte(raw), &e) == nil {
			evs = append(evs, e)
		}
	}
	return evs
}

// dedup keeps each member's events once: a member sends its log's events
// in order, and sends a batch again when Redis failed partway through it,
// so an event whose sequence number is not above the member's last one
// seen is a copy.
type dedup struct {
	last  map[string]int64
	order []string
}

func newDedup() *dedup { return &dedup{last: map[string]int64{}} }

// fresh reports whether e is seen for the first time.
func (d *dedup) fresh(e event.Event) bool {
	if e.Member == "" {
		return true
	}
	last, ok := d.last[e.Member]
	if ok && e.Seq <= last {
		return false
	}
	if !ok {
		d.order = append(d.order, e.Member)
	}
	d.last[e.Member] = e.Seq
	return true
}

// sortByOffset orders events by their offset from the fleet's start,
// keeping the stream's order between events at the same offset, and
// numbers them from 0.
func sortByOffset(evs []event.Event) {
	slices.SortStableFunc(evs, func(a, b event.Event) int { return cmp.Compare(a.At, b.At) })
	for i := range evs {
		evs[i].Seq = int64(i)
	}
}
