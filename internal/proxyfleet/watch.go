package proxyfleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/redact"
	"github.com/drill-dev/drill/scoring"
)

// Watch follows the fleet's events stream from its start until ctx ends,
// calling fn with each new batch of events (each member's events once,
// in the stream's order). Every heartbeat interval it also marks the
// members whose heartbeat expired as lost (MarkLost). It returns nil when
// ctx ends; while Redis is away it tries again every second.
func Watch(ctx context.Context, url, fleet string, fn func([]event.Event)) error {
	if err := CheckName("fleet", fleet); err != nil {
		return err
	}
	c, err := dial(url)
	if err != nil {
		return err
	}
	defer c.Close()
	k := keys{fleet}
	d := newDedup()
	last, nextCheck := "0-0", time.Now()
	for ctx.Err() == nil {
		if time.Now().After(nextCheck) {
			_, _ = markLostAs(ctx, c, k)
			nextCheck = time.Now().Add(DefaultHeartbeat / 3)
		}
		res, err := c.XRead(ctx, &redis.XReadArgs{Streams: []string{k.events(), last}, Block: DefaultHeartbeat / 3, Count: pullPage}).Result()
		switch {
		case ctx.Err() != nil:
			return nil
		case errors.Is(err, redis.Nil):
			continue
		case err != nil:
			if !sleep(ctx, time.Second) {
				return nil
			}
			continue
		}
		var fresh []event.Event
		for _, s := range res {
			if n := len(s.Messages); n > 0 {
				last = s.Messages[n-1].ID
			}
			for _, e := range decode(s.Messages) {
				if d.fresh(e) {
					fresh = append(fresh, e)
				}
			}
		}
		if len(fresh) > 0 {
			fn(fresh)
		}
	}
	return nil
}

// sleep waits d, or until ctx ends (false).
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// MarkLost marks, as drill watch, the fleet's members whose heartbeat
// expired as lost: a member_lost event with no member goes to the events
// stream for each. It returns the members it marked.
func MarkLost(ctx context.Context, url, fleet string) ([]string, error) {
	if err := CheckName("fleet", fleet); err != nil {
		return nil, err
	}
	c, err := dial(url)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	lost, err := markLostAs(ctx, c, keys{fleet})
	if err != nil {
		return lost, fmt.Errorf("proxy fleet %s: checking heartbeats through %s: %w", fleet, redact.URL(url), err)
	}
	return lost, nil
}

// markLostAs marks expired members lost, recording each in the events
// stream as drill watch (no member), offset from the plan's start when
// known.
func markLostAs(ctx context.Context, c *redis.Client, k keys) ([]string, error) {
	lost, err := markLost(ctx, c, k, "")
	if len(lost) == 0 {
		return lost, err
	}
	var at time.Duration
	if raw, perr := c.Get(ctx, k.plan()).Bytes(); perr == nil {
		var p Plan
		if json.Unmarshal(raw, &p) == nil {
			at = time.Since(p.Start)
		}
	}
	for _, id := range lost {
		b, _ := json.Marshal(event.Event{At: at, Kind: event.MemberLost, Fleet: &event.FleetNote{Lost: id}})
		if xerr := c.XAdd(ctx, &redis.XAddArgs{Stream: k.events(), MaxLen: EventsMaxLen, Approx: true,
			Values: []any{eventField, b}}).Err(); xerr != nil {
			err = errors.Join(err, xerr)
		}
	}
	return lost, err
}

// Snapshot marks the members whose heartbeat expired as lost (as drill
// watch), then reads the fleet's events and folds them: the fleet as it
// stands now.
func Snapshot(ctx context.Context, url, fleet string) (*scoring.ProxyFleetFold, error) {
	if _, err := MarkLost(ctx, url, fleet); err != nil {
		return nil, err
	}
	p, err := Pull(ctx, url, fleet)
	if err != nil {
		return nil, err
	}
	f := scoring.NewProxyFleetFold()
	f.AddAll(p.Events)
	return f, nil
}

// Follow folds the fleet's events as they come (Watch) and calls show with
// the fold at most once every interval while it changes, until ctx ends.
// show is called from Follow's goroutine only.
func Follow(ctx context.Context, url, fleet string, interval time.Duration, show func(*scoring.ProxyFleetFold)) error {
	f := scoring.NewProxyFleetFold()
	var shown time.Time
	changed := false
	t := time.NewTicker(interval)
	defer t.Stop()
	batches := make(chan []event.Event, 16)
	errc := make(chan error, 1)
	go func() { errc <- Watch(ctx, url, fleet, func(evs []event.Event) { batches <- evs }) }()
	for {
		select {
		case evs := <-batches:
			f.AddAll(evs)
			changed = true
		case <-t.C:
		case err := <-errc:
			if changed {
				show(f)
			}
			return err
		}
		if changed && time.Since(shown) >= interval {
			show(f)
			shown, changed = time.Now(), false
		}
	}
}
