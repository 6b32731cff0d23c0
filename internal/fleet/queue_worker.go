package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// ErrFleetFull is a worker joining a coordinated fleet that already has
// every replica it asked for.
var ErrFleetFull = errors.New("the fleet has all its workers")

// ErrNameTaken is a worker joining under a name another worker of the
// fleet's run already has.
var ErrNameTaken = errors.New("another worker of the fleet has this name")

// runSpec reads the fleet's current run; ok is false when there is none.
func (q *queue) runSpec(ctx context.Context) (spec runSpec, ok bool, err error) {
	b, err := q.c.Get(ctx, q.key(keyRun)).Bytes()
	if errors.Is(err, redis.Nil) {
		return spec, false, nil
	}
	if err != nil {
		return spec, false, fmt.Errorf("fleet %s: reading the run on %s: %w", q.name, q.url, err)
	}
	if err := json.Unmarshal(b, &spec); err != nil {
		return spec, false, fmt.Errorf("fleet %s: bad run in Redis: %w", q.name, err)
	}
	return spec, true, nil
}

// joinScript hands a worker its replica number, if the run has one left
// and its name is free, and announces it on the events stream, atomically.
// KEYS: members, workers, events; ARGV: name, replicas, the join line.
var joinScript = redis.NewScript(`
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return -1 end
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n >= tonumber(ARGV[2]) then return 0 end
n = redis.call('INCR', KEYS[1])
redis.call('HSET', KEYS[2], ARGV[1], n)
redis.call('XADD', KEYS[3], '*', 'r', n, 'w', ARGV[1], 'line', ARGV[3])
return n`)

// join makes the worker called name a member of the run: its replica.
func (q *queue) join(ctx context.Context, name string, replicas int) (int, error) {
	b, err := json.Marshal(workerLine{Join: name})
	if err != nil {
		return 0, err
	}
	n, err := joinScript.Run(ctx, q.c, []string{q.key(keyMembers), q.key(keyWorkers), q.key(keyEvents)}, name, replicas, b).Int()
	switch {
	case err != nil:
		return 0, fmt.Errorf("fleet %s: joining: %w", q.name, err)
	case n == -1:
		return 0, fmt.Errorf("fleet %s: worker %q: %w", q.name, name, ErrNameTaken)
	case n == 0:
		return 0, fmt.Errorf("fleet %s (%d workers): %w", q.name, replicas, ErrFleetFull)
	}
	return n, nil
}

// send adds one of the worker's lines to the events stream and, when ack
// names a work item, acknowledges it in the same transaction: an email's
// item is done exactly when its result is on the stream.
func (q *queue) send(ctx context.Context, replica int, name string, l workerLine, ack string) error {
	b, err := json.Marshal(l)
	if err != nil {
		return err
	}
	_, err = q.c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.XAdd(ctx, &redis.XAddArgs{Stream: q.key(keyEvents), Values: []string{"r", strconv.Itoa(replica), "w", name, "line", string(b)}})
		if ack != "" {
			p.XAck(ctx, q.key(keyWork), workGroup, ack)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("fleet %s: sending events: %w", q.name, err)
	}
	return nil
}

// item is one work item: the stream entry and the email index it holds.
type item struct {
	id    string
	email int
	from  string // the worker that held it before, for a reclaimed item
}

// items decodes work entries.
func items(msgs []redis.XMessage) []item {
	out := make([]item, 0, len(msgs))
	for _, m := range msgs {
		s, _ := m.Values["email"].(string)
		if i, err := strconv.Atoi(s); err == nil {
			out = append(out, item{id: m.ID, email: i})
		}
	}
	return out
}

// next waits up to blockFor for the next new work item for consumer name.
func (q *queue) next(ctx context.Context, name string) ([]item, error) {
	res, err := q.c.XReadGroup(ctx, &redis.XReadGroupArgs{Group: workGroup, Consumer: name,
		Streams: []string{q.key(keyWork), ">"}, Count: 1, Block: blockFor}).Result()
	if errors.Is(err, redis.Nil) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("fleet %s: reading work: %w", q.name, err)
	}
	var out []item
	for _, s := range res {
		out = append(out, items(s.Messages)...)
	}
	return out, nil
}

// touchScript resets the idle time of every item consumer ARGV[2] holds,
// so a live worker's emails in flight are never claimed from it.
var touchScript = redis.NewScript(`
local p = redis.call('XPENDING', KEYS[1], ARGV[1], '-', '+', 10000, ARGV[2])
if #p == 0 then return 0 end
local ids = {}
for i, e in ipairs(p) do ids[i] = e[1] end
local n = #ids
ids[n + 1] = 'JUSTID'
redis.call('XCLAIM', KEYS[1], ARGV[1], ARGV[2], 0, unpack(ids))
return n`)

// touch tells the fleet that consumer name is alive with what it holds.
func (q *queue) touch(ctx context.Context, name string) error {
	if err := touchScript.Run(ctx, q.c, []string{q.key(keyWork)}, workGroup, name).Err(); err != nil && !errors.Is(err, redis.Nil) {
		return fmt.Errorf("fleet %s: keeping the work: %w", q.name, err)
	}
	return nil
}

// claim takes over, for consumer name, the items another consumer has
// held for at least idle (it died, or stalled): XPENDING lists them,
// XCLAIM takes each only if it is still that idle, so two workers never
// both take one.
func (q *queue) claim(ctx context.Context, name string, idle time.Duration) ([]item, error) {
	pend, err := q.c.XPendingExt(ctx, &redis.XPendingExtArgs{Stream: q.key(keyWork), Group: workGroup, Idle: idle,
		Start: "-", End: "+", Count: 100}).Result()
	if err != nil {
		return nil, fmt.Errorf("fleet %s: reading the pending work: %w", q.name, err)
	}
	owner := map[string]string{}
	var ids []string
	for _, p := range pend {
		if p.Consumer != name {
			owner[p.ID] = p.Consumer
			ids = append(ids, p.ID)
		}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	msgs, err := q.c.XClaim(ctx, &redis.XClaimArgs{Stream: q.key(keyWork), Group: workGroup, Consumer: name,
		MinIdle: idle, Messages: ids}).Result()
	if err != nil {
		return nil, fmt.Errorf("fleet %s: claiming work: %w", q.name, err)
	}
	out := items(msgs)
	for k := range out {
		out[k].from = owner[out[k].id]
	}
	return out, nil
}

// replicaOf is the replica of the worker called name, 0 if unknown.
func (q *queue) replicaOf(ctx context.Context, name string) int {
	n, _ := q.c.HGet(ctx, q.key(keyWorkers), name).Int()
	return n
}
