package fleet

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/fleet/redisstore"
	"github.com/drill-dev/drill/internal/redact"
	"github.com/drill-dev/drill/scoring"
)

// RoutingQueue is a coordinated fleet's routing, as its summary names it:
// each email goes to whichever worker takes its work item first.
const RoutingQueue = "queue"

// Defaults of a coordinated fleet.
const (
	DefaultJoinTimeout = time.Minute
	DefaultClaimAfter  = 10 * time.Second
)

// ErrNotJoined is a coordinator whose workers did not all join in time.
var ErrNotJoined = errors.New("not every worker joined")

// coordination says what is wrong with a coordinated fleet's settings.
func (c Config) coordination() []error {
	if !c.Coordinated() {
		return nil
	}
	var errs []error
	if len(c.Worker) > 0 {
		errs = append(errs, errors.New("a coordinated fleet's workers join through Redis: --processes and --coordinate do not go together"))
	}
	if !strings.HasPrefix(c.Coordinate, "redis://") {
		errs = append(errs, fmt.Errorf("unknown coordinator %q (valid: redis://HOST:PORT/DB)", redact.Text(c.Coordinate)))
	} else if err := redisstore.CheckURL(c.Coordinate); err != nil {
		errs = append(errs, fmt.Errorf("coordinator %q: %s", redact.URL(c.Coordinate), redact.Text(err.Error())))
	}
	if c.Name == "" {
		errs = append(errs, errors.New("a coordinated fleet needs a name its workers join by (--fleet NAME)"))
	} else if err := CheckFleetName(c.Name); err != nil {
		errs = append(errs, err)
	}
	if c.Routing == RoutingRandom {
		errs = append(errs, errors.New("a coordinated fleet has no routing: each email goes to the worker that takes it (leave --routing out)"))
	}
	if c.JoinTimeout < 0 || c.ClaimAfter < 0 {
		errs = append(errs, errors.New("the join timeout and the claim time cannot be negative"))
	}
	return errs
}

// coordinator is the Redis side of a coordinated fleet.
type coordinator struct {
	q        *queue
	cfg      Config
	lastID   string   // how far the events stream has been read
	names    []string // the workers' names, by replica (from 0)
	stopOnce sync.Once
	stopped  chan struct{}
}

// startCoordinated publishes the run, waits for its workers, then starts
// it: one work item per email, and the start on the control stream.
func startCoordinated(ctx context.Context, cfg Config) (*Fleet, error) {
	if cfg.JoinTimeout == 0 {
		cfg.JoinTimeout = DefaultJoinTimeout
	}
	if cfg.ClaimAfter == 0 {
		cfg.ClaimAfter = DefaultClaimAfter
	}
	cfg.Routing = RoutingQueue
	q, err := openQueue(ctx, cfg.Coordinate, cfg.Name)
	if err != nil {
		return nil, err
	}
	info := cfg.info()
	info.Stamp(time.Now())
	c := &coordinator{q: q, cfg: cfg, lastID: "0", names: make([]string, cfg.Replicas), stopped: make(chan struct{})}
	spec := runSpec{ID: info.ID, Config: cfg.Run, Replicas: cfg.Replicas, Store: cfg.Store, Prefix: "drill:" + info.ID,
		ClaimAfter: cfg.ClaimAfter, JoinTimeout: cfg.JoinTimeout}
	err = q.publish(spec)
	if err == nil {
		err = c.waitJoins(ctx)
	}
	var f *Fleet
	if err == nil {
		f = &Fleet{cfg: cfg, log: event.NewLog(time.Now()), done: make(chan struct{}), coord: c}
		info.StartedAt = f.log.Start()
		f.append(event.Event{Kind: event.RunStart, Run: &info})
		if err = q.publishWork(cfg.Run.Emails); err == nil {
			err = q.control(ctlStart)
		}
	}
	if err != nil {
		_ = q.control(ctlStop) // the workers that joined go home
		q.finish()
		q.close()
		return nil, err
	}
	go func() {
		select {
		case <-ctx.Done():
			f.Stop()
		case <-f.done:
		}
	}()
	go f.gatherStream()
	return f, nil
}

// waitJoins waits until every worker has joined, up to the join timeout.
func (c *coordinator) waitJoins(ctx context.Context) error {
	deadline := time.Now().Add(c.cfg.JoinTimeout)
	joined := 0
	for joined < c.cfg.Replicas {
		if ctx.Err() != nil {
			return fmt.Errorf("fleet %s: waiting for its workers: %w", c.cfg.Name, exit.ErrInterrupted)
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("fleet %s: %d of %d workers joined within the join timeout (start them with drill fleet-worker --join %s --fleet %s): %w",
				c.cfg.Name, joined, c.cfg.Replicas, c.q.url, c.cfg.Name, ErrNotJoined)
		}
		ls, last, err := c.q.readEvents(ctx, c.lastID)
		if err != nil {
			pause(ctx)
			continue
		}
		c.lastID = last
		for _, l := range ls {
			if l.Line.Join != "" && l.Replica >= 1 && l.Replica <= len(c.names) {
				c.names[l.Replica-1] = l.Line.Join
				joined++
				if c.cfg.OnJoin != nil {
					c.cfg.OnJoin(joined, c.cfg.Replicas)
				}
			}
		}
	}
	return nil
}

// stop tells the workers to stop now; the fleet then waits stopGrace at
// most for their last events.
func (c *coordinator) stop() {
	c.stopOnce.Do(func() {
		close(c.stopped)
		_ = c.q.control(ctlStop)
	})
}

// gatherStream merges the workers' events from the events stream into the
// fleet's log (take, as for every fleet), says done on the control stream
// once every email is finished, and ends the log when every worker has
// ended or is lost (its emails taken over), or stopGrace after done or a
// stop.
func (f *Fleet) gatherStream() {
	defer close(f.done)
	c := f.coord
	m := newMerge(f.cfg.Replicas)
	t := tally{shift: make([]time.Duration, f.cfg.Replicas), finished: map[int]bool{}, sent: map[int]bool{}}
	var grace <-chan time.Time
	for !m.over() {
		if grace == nil {
			select {
			case <-c.stopped:
				grace = time.After(stopGrace)
			default:
			}
		}
		select {
		case <-grace:
			m.lostAll()
			continue
		default:
		}
		ls, last, err := c.q.readEvents(context.Background(), c.lastID)
		if err != nil {
			time.Sleep(250 * time.Millisecond) // Redis may come back before the grace ends
			continue
		}
		c.lastID = last
		for _, l := range ls {
			f.takeLine(m, &t, l)
		}
		if !t.done && len(t.finished) >= f.cfg.Run.Emails {
			_ = c.q.control(ctlDone)
			t.done, grace = true, time.After(stopGrace)
		}
	}
	f.finish(m, f.cfg.Run.Emails-len(t.sent))
	c.q.finish()
	c.q.close()
}

// tally is what a coordinator counts while it merges.
type tally struct {
	shift    []time.Duration // each worker's start after the fleet's
	finished map[int]bool    // emails finished
	sent     map[int]bool    // emails sent
	done     bool            // done was said
}

// takeLine merges one line of the events stream.
func (f *Fleet) takeLine(m *merge, t *tally, l line) {
	k := l.Replica - 1
	if k < 0 || k >= len(t.shift) {
		return
	}
	if l.Line.StartUnixNS != 0 {
		t.shift[k] = time.Unix(0, l.Line.StartUnixNS).Sub(f.log.Start())
	}
	if l.Line.Event == nil {
		return
	}
	e := *l.Line.Event
	e.At += t.shift[k]
	if id, ok := scoring.Finished(e); ok {
		t.finished[id] = true
	}
	if id, ok := scoring.SentEmail(e); ok {
		t.sent[id] = true
	}
	if r, ok := scoring.ReclaimedFrom(e); ok && r > 0 && r <= len(m.lost) {
		m.mu.Lock()
		m.lost[r-1] = !m.ended[r-1]
		m.mu.Unlock()
	}
	f.take(m, k, e)
}

// over reports whether every replica has ended or is lost.
func (m *merge) over() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	for k := range m.ends {
		if !m.ended[k] && !m.lost[k] {
			return false
		}
	}
	return true
}

// lostAll gives up on every replica that has not ended: its status still
// counts (interrupted).
func (m *merge) lostAll() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for k := range m.ended {
		m.ended[k] = true
	}
}
