package proxyfleet

import (
	"context"
	"encoding/json"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/drill-dev/drill/event"
)

// eventField is the field of an events stream entry holding the event.
const eventField = "e"

// sendBatch is the most events sent in one round trip.
const sendBatch = 500

// read queues every event of the member's log, read through cur and tagged
// with the member, until the log is closed and read (or the member stops).
func (m *Member) read(cur *event.Cursor) {
	defer cur.Close()
	for {
		evs, err := cur.Next(m.ctx)
		if err != nil { // io.EOF: the log is closed; or the member stopped
			m.mu.Lock()
			m.logClosed = true
			m.mu.Unlock()
			m.poke()
			return
		}
		for _, e := range evs {
			e.Member = m.opts.Member
			b, err := json.Marshal(e)
			m.push(b, err == nil)
		}
		m.poke()
	}
}

// push queues one encoded event (ok false: it could not be encoded), or
// drops and counts it when the queue is full.
func (m *Member) push(b []byte, ok bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !ok || len(m.queue) >= m.opts.Buffer {
		m.dropped++
		return
	}
	m.queue = append(m.queue, b)
	if m.down {
		m.held++
	}
}

// next is the queue's first events (at most sendBatch) while the link is
// up, and whether the log is closed and fully queued.
func (m *Member) next() (batch [][]byte, down, closed bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.down {
		batch = m.queue[:min(len(m.queue), sendBatch)]
	}
	return batch, m.down, m.logClosed
}

// send sends the queued events to the fleet's events stream, in order,
// until the log is closed and every event sent (or the member stops).
// While the link is down it waits for the heartbeat to find Redis back.
func (m *Member) send() {
	defer close(m.sent)
	for {
		batch, down, closed := m.next()
		if len(batch) == 0 {
			if closed && !down {
				m.mu.Lock()
				empty := len(m.queue) == 0
				m.mu.Unlock()
				if empty {
					return
				}
			}
			select {
			case <-m.wake:
			case <-m.ctx.Done():
				return
			}
			continue
		}
		if err := m.xadd(batch); err != nil {
			if m.ctx.Err() != nil {
				return
			}
			m.linkFail(err)
			continue
		}
		m.sentBatch(len(batch))
	}
}

// xadd appends encoded events to the events stream in one round trip.
func (m *Member) xadd(batch [][]byte) error {
	ctx, cancel := context.WithTimeout(m.ctx, 2*timeout)
	defer cancel()
	_, err := m.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		for _, b := range batch {
			p.XAdd(ctx, &redis.XAddArgs{Stream: m.k.events(), MaxLen: EventsMaxLen, Approx: true, Values: []any{eventField, b}})
		}
		return nil
	})
	return err
}

// sentBatch takes n sent events off the queue; when the link had come
// back and the queue is empty, it logs fleet_link up with what was held.
func (m *Member) sentBatch(n int) {
	m.mu.Lock()
	m.queue = m.queue[n:]
	if len(m.queue) == 0 {
		m.queue = nil // let the sent events' memory go
	}
	var note *event.FleetNote
	if m.announceUp && len(m.queue) == 0 {
		note = &event.FleetNote{Held: m.held, Dropped: m.dropped}
		m.announceUp, m.held, m.dropped = false, 0, 0
	}
	m.mu.Unlock()
	if note != nil {
		m.opts.Log.Append(event.Event{Kind: event.FleetLink, Detail: event.LinkUp, Fleet: note})
	}
}

// beat renews the member's heartbeat every third of its time to live.
// A failed renewal marks the link down, a good one up; once the link has
// been up a whole time to live (every live member has renewed since), it
// marks the members whose heartbeat expired as lost.
func (m *Member) beat() {
	t := time.NewTicker(m.opts.Heartbeat / 3)
	defer t.Stop()
	var upSince time.Time
	for {
		ctx, cancel := context.WithTimeout(m.ctx, timeout)
		err := m.heartbeat(ctx)
		if err != nil && m.ctx.Err() == nil {
			m.linkFail(err)
			upSince = time.Time{}
		} else if err == nil {
			m.linkOK()
			if upSince.IsZero() {
				upSince = time.Now()
			} else if time.Since(upSince) >= m.opts.Heartbeat {
				lost, _ := markLost(ctx, m.c, m.k, m.opts.Member)
				for _, id := range lost {
					m.opts.Log.Append(event.Event{Kind: event.MemberLost, Fleet: &event.FleetNote{Lost: id}})
				}
			}
		}
		cancel()
		select {
		case <-t.C:
		case <-m.ctx.Done():
			return
		}
	}
}

// heartbeat renews the member's heartbeat key and its place in the
// fleet's members, in one transaction.
func (m *Member) heartbeat(ctx context.Context) error {
	_, err := m.c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Set(ctx, m.k.heartbeat(m.opts.Member), time.Now().UnixMilli(), m.opts.Heartbeat)
		p.SAdd(ctx, m.k.members(), m.opts.Member)
		return nil
	})
	return err
}

// markLost takes out of the fleet's members every one but self whose
// heartbeat key has expired, and returns those it took out: SREM answers
// 1 to one caller only, so each lost member is marked once, by whoever
// noticed first.
func markLost(ctx context.Context, c *redis.Client, k keys, self string) ([]string, error) {
	ids, err := c.SMembers(ctx, k.members()).Result()
	if err != nil {
		return nil, err
	}
	var lost []string
	for _, id := range ids {
		if id == self {
			continue
		}
		n, err := c.Exists(ctx, k.heartbeat(id)).Result()
		if err != nil {
			return lost, err
		}
		if n > 0 {
			continue
		}
		if r, err := c.SRem(ctx, k.members(), id).Result(); err == nil && r == 1 {
			lost = append(lost, id)
		}
	}
	return lost, nil
}
