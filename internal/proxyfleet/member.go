package proxyfleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/control"
	"github.com/drill-dev/drill/internal/redact"
)

// Options configure a member of a proxy fleet.
type Options struct {
	// URL is the fleet's Redis (redis://HOST:PORT/DB); Fleet and Member
	// name the fleet and this member (CheckName).
	URL, Fleet, Member string
	// Log is the member's run log: every event in it is sent, tagged with
	// Member, to the fleet's events stream, and the member's fleet events
	// (fleet_link, member_lost) are appended to it. The caller closes it
	// (the proxy's Close) before Close.
	Log *event.Log
	// Target applies the fleet's outage commands.
	Target Target
	// Heartbeat is the heartbeat key's time to live (default
	// DefaultHeartbeat).
	Heartbeat time.Duration
	// Buffer is how many events the member holds while Redis is away
	// (default DefaultBuffer).
	Buffer int
	// OnLink, if set, is called when the link to Redis goes down (up
	// false, with the error) and when it is back (up true).
	OnLink func(up bool, err error)
	// OnCommand, if set, is called with each command the member applied
	// and what Apply returned.
	OnCommand func(cmd control.Command, err error)
}

// Member is one proxy of a fleet, joined through Redis: it applies the
// fleet's commands to its target, sends its log's events and keeps its
// heartbeat. Make it with Join and end it with Close.
type Member struct {
	opts   Options
	c      *redis.Client
	k      keys
	ctx    context.Context // ends at Close: stops every goroutine
	cancel context.CancelFunc
	wg     sync.WaitGroup
	sent   chan struct{} // closed when the sender stops
	wake   chan struct{} // pokes the sender

	mu         sync.Mutex
	queue      [][]byte // encoded events not sent yet, in log order
	logClosed  bool     // every event of the log is in the queue
	down       bool     // the link to Redis is down
	announceUp bool     // the link came back: log fleet_link up once the queue is sent
	held       int      // events queued since the link went down
	dropped    int      // events dropped (a full queue) since the link went down
}

// Join makes opts.Member a member of opts.Fleet: it renews its heartbeat
// and registers in the fleet's members, then applies every command sent
// to the fleet from now on, sends its log's events, and keeps its
// heartbeat until Close. Join fails if Redis does not answer.
func Join(ctx context.Context, opts Options) (*Member, error) {
	if err := CheckName("fleet", opts.Fleet); err != nil {
		return nil, err
	}
	if err := CheckName("member", opts.Member); err != nil {
		return nil, err
	}
	if opts.Log == nil || opts.Target == nil {
		return nil, errors.New("proxy fleet: a member needs a log and a target")
	}
	if opts.Heartbeat <= 0 {
		opts.Heartbeat = DefaultHeartbeat
	}
	if opts.Buffer <= 0 {
		opts.Buffer = DefaultBuffer
	}
	c, err := dial(opts.URL)
	if err != nil {
		return nil, err
	}
	m := &Member{opts: opts, c: c, k: keys{opts.Fleet}, sent: make(chan struct{}), wake: make(chan struct{}, 1)}
	last, err := m.lastCommand(ctx)
	if err == nil {
		err = m.heartbeat(ctx)
	}
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("proxy fleet %s: joining through %s: %w", opts.Fleet, redact.URL(opts.URL), err)
	}
	m.ctx, m.cancel = context.WithCancel(context.Background())
	cur := opts.Log.Cursor() // attached now: the log may release what its readers have read
	m.wg.Go(func() { m.read(cur) })
	m.wg.Go(m.send)
	m.wg.Go(func() { m.commands(last) })
	m.wg.Go(m.beat)
	return m, nil
}

// lastCommand is the id of the commands stream's newest entry ("0-0" when
// empty): a member applies the commands sent after it joined.
func (m *Member) lastCommand(ctx context.Context) (string, error) {
	msgs, err := m.c.XRevRangeN(ctx, m.k.commands(), "+", "-", 1).Result()
	if err != nil {
		return "", fmt.Errorf("reading the commands stream: %w", err)
	}
	if len(msgs) == 0 {
		return "0-0", nil
	}
	return msgs[0].ID, nil
}

// Close waits until every event of the member's log (closed by the caller
// first) has been sent, at most until ctx ends, then stops and leaves the
// fleet: its heartbeat and membership are removed, so a member that
// stopped is not marked lost. It returns how many events were never sent
// (Redis away at the end, or a buffer that overflowed).
func (m *Member) Close(ctx context.Context) (unsent int, err error) {
	select {
	case <-m.sent:
	case <-ctx.Done():
	}
	m.cancel()
	m.wg.Wait()
	m.mu.Lock()
	unsent = len(m.queue) + m.dropped
	m.mu.Unlock()
	lctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	_, err = m.c.TxPipelined(lctx, func(p redis.Pipeliner) error {
		p.Del(lctx, m.k.heartbeat(m.opts.Member))
		p.SRem(lctx, m.k.members(), m.opts.Member)
		return nil
	})
	if err != nil {
		err = fmt.Errorf("proxy fleet %s: leaving: %w", m.opts.Fleet, err)
	}
	return unsent, errors.Join(err, m.c.Close())
}

// poke wakes the sender.
func (m *Member) poke() {
	select {
	case m.wake <- struct{}{}:
	default:
	}
}

// pause waits d, or until the member stops (false).
func (m *Member) pause(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-m.ctx.Done():
		return false
	}
}

// linkFail marks the link down, the first time logging fleet_link down.
func (m *Member) linkFail(err error) {
	m.mu.Lock()
	if m.down || m.ctx.Err() != nil {
		m.mu.Unlock()
		return
	}
	m.down, m.announceUp, m.held = true, false, len(m.queue)
	m.mu.Unlock()
	m.opts.Log.Append(event.Event{Kind: event.FleetLink, Detail: event.LinkDown,
		Fleet: &event.FleetNote{Reason: redact.Text(err.Error())}})
	if m.opts.OnLink != nil {
		m.opts.OnLink(false, err)
	}
}

// linkOK marks the link up; the sender sends what was held, then logs
// fleet_link up.
func (m *Member) linkOK() {
	m.mu.Lock()
	if !m.down {
		m.mu.Unlock()
		return
	}
	m.down, m.announceUp = false, true
	m.mu.Unlock()
	if m.opts.OnLink != nil {
		m.opts.OnLink(true, nil)
	}
	m.poke()
}

// commandBlock is how long one XREAD of the commands stream waits: a
// command wakes it at once; the bound is how long Close waits for it.
const commandBlock = 250 * time.Millisecond

// commands applies the fleet's commands sent after the entry last, each
// command id once, until the member stops.
func (m *Member) commands(last string) {
	applied := map[string]bool{}
	for m.ctx.Err() == nil {
		res, err := m.c.XRead(m.ctx, &redis.XReadArgs{Streams: []string{m.k.commands(), last}, Block: commandBlock, Count: 100}).Result()
		switch {
		case errors.Is(err, redis.Nil):
			m.linkOK()
			continue
		case err != nil:
			if m.ctx.Err() != nil {
				return
			}
			m.linkFail(err)
			m.pause(m.opts.Heartbeat / 6)
			continue
		}
		m.linkOK()
		for _, s := range res {
			for _, msg := range s.Messages {
				last = msg.ID
				m.apply(msg, applied)
			}
		}
	}
}

// apply applies one entry of the commands stream, unless its command id
// was applied already.
func (m *Member) apply(msg redis.XMessage, applied map[string]bool) {
	raw, _ := msg.Values[commandField].(string)
	var cmd control.Command
	if json.Unmarshal([]byte(raw), &cmd) != nil || cmd.ID == "" || applied[cmd.ID] {
		return
	}
	applied[cmd.ID] = true
	err := m.opts.Target.Apply(cmd)
	if m.opts.OnCommand != nil {
		m.opts.OnCommand(cmd, err)
	}
}
