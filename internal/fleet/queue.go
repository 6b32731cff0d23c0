package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/drill-dev/drill/internal/redact"
	"github.com/drill-dev/drill/workload"
)

// A coordinated fleet (Config.Coordinate) keeps one run at a time per
// fleet name in Redis, under keys that share the hash tag {NAME} (one
// Redis Cluster slot):
//
//	drill:fleet:{NAME}:run      the run: drill, replicas, claim time (a JSON string)
//	drill:fleet:{NAME}:members  the replica numbers handed out (a counter)
//	drill:fleet:{NAME}:workers  worker name → replica (a hash)
//	drill:fleet:{NAME}:control  start, stop and done (a stream)
//	drill:fleet:{NAME}:work     one entry per email (a stream; consumer group "workers")
//	drill:fleet:{NAME}:events   every worker's events (a stream)
const (
	keyRun     = "run"
	keyMembers = "members"
	keyWorkers = "workers"
	keyControl = "control"
	keyWork    = "work"
	keyEvents  = "events"
	// workGroup is the consumer group the workers read the work from.
	workGroup = "workers"
	// keepFor is how long a run's keys stay in Redis after its end.
	keepFor = time.Hour
	// queueTimeout bounds each Redis command but the blocking reads.
	queueTimeout = 2 * time.Second
	// blockFor is how long a blocking read waits for an entry.
	blockFor = 200 * time.Millisecond
)

// Control commands on the control stream.
const (
	ctlStart = "start" // the run starts: every joined worker begins its drill
	ctlStop  = "stop"  // the coordinator was stopped: workers stop at once
	ctlDone  = "done"  // every email is finished: workers end their drill
)

// runSpec is the run a coordinator publishes for its workers.
type runSpec struct {
	ID          string          `json:"id"`
	Config      workload.Config `json:"config"`
	Replicas    int             `json:"replicas"`
	Store       string          `json:"store"`
	Prefix      string          `json:"prefix"`
	ClaimAfter  time.Duration   `json:"claim_after_ns"`
	JoinTimeout time.Duration   `json:"join_timeout_ns"`
}

// fleetName is what a fleet name may be: it sits inside Redis keys.
var fleetName = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

// CheckFleetName says what is wrong with a fleet name, if anything.
func CheckFleetName(name string) error {
	if !fleetName.MatchString(name) {
		return fmt.Errorf("fleet name %q: use 1 to 64 letters, digits, '.', '_' or '-'", name)
	}
	return nil
}

// queue is a coordinated fleet's keys in one Redis.
type queue struct {
	c    *redis.Client
	name string
	url  string
}

// openQueue connects to the Redis at url for fleet name and checks that it
// answers.
func openQueue(ctx context.Context, url, name string) (*queue, error) {
	if err := CheckFleetName(name); err != nil {
		return nil, err
	}
	ro, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("fleet Redis %q: %s", redact.URL(url), redact.Text(err.Error()))
	}
	ro.DialTimeout, ro.WriteTimeout = queueTimeout, queueTimeout
	ro.ReadTimeout = queueTimeout
	q := &queue{c: redis.NewClient(ro), name: name, url: redact.URL(url)}
	pctx, cancel := context.WithTimeout(ctx, queueTimeout)
	defer cancel()
	if err := q.c.Ping(pctx).Err(); err != nil {
		_ = q.c.Close()
		return nil, fmt.Errorf("fleet Redis %s cannot be reached: %w", q.url, err)
	}
	return q, nil
}

// key is one of the fleet's keys.
func (q *queue) key(k string) string { return "drill:fleet:{" + q.name + "}:" + k }

// close closes the connection.
func (q *queue) close() { _ = q.c.Close() }

// short is a context for one non-blocking command.
func short() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), queueTimeout)
}

// publish clears the fleet's keys of any earlier run, then publishes spec
// and creates the work stream and its consumer group.
func (q *queue) publish(spec runSpec) error {
	b, err := json.Marshal(spec)
	if err != nil {
		return fmt.Errorf("fleet %s: encoding the run: %w", q.name, err)
	}
	ctx, cancel := short()
	defer cancel()
	_, err = q.c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Del(ctx, q.key(keyRun), q.key(keyMembers), q.key(keyWorkers), q.key(keyControl), q.key(keyWork), q.key(keyEvents))
		p.XGroupCreateMkStream(ctx, q.key(keyWork), workGroup, "0")
		p.Set(ctx, q.key(keyRun), b, keepFor)
		return nil
	})
	if err != nil {
		return fmt.Errorf("fleet %s: publishing the run on %s: %w", q.name, q.url, err)
	}
	return nil
}

// publishWork adds one work item per email, in order.
func (q *queue) publishWork(emails int) error {
	ctx, cancel := short()
	defer cancel()
	_, err := q.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i := range emails {
			p.XAdd(ctx, &redis.XAddArgs{Stream: q.key(keyWork), Values: []string{"email", strconv.Itoa(i)}})
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("fleet %s: publishing the emails: %w", q.name, err)
	}
	return nil
}

// control adds a command to the control stream.
func (q *queue) control(cmd string) error {
	ctx, cancel := short()
	defer cancel()
	if err := q.c.XAdd(ctx, &redis.XAddArgs{Stream: q.key(keyControl), Values: []string{"do", cmd}}).Err(); err != nil {
		return fmt.Errorf("fleet %s: sending %s: %w", q.name, cmd, err)
	}
	return nil
}

// readControl waits up to blockFor for control commands after id; it
// returns them and the last id read (id itself when there are none).
func (q *queue) readControl(ctx context.Context, id string) ([]string, string, error) {
	msgs, last, err := q.read(ctx, keyControl, id, 10)
	var cmds []string
	for _, m := range msgs {
		if s, ok := m.Values["do"].(string); ok {
			cmds = append(cmds, s)
		}
	}
	return cmds, last, err
}

// read waits up to blockFor for up to n entries of stream k after id.
func (q *queue) read(ctx context.Context, k, id string, n int64) ([]redis.XMessage, string, error) {
	res, err := q.c.XRead(ctx, &redis.XReadArgs{Streams: []string{q.key(k), id}, Count: n, Block: blockFor}).Result()
	if errors.Is(err, redis.Nil) {
		return nil, id, nil
	}
	if err != nil {
		return nil, id, fmt.Errorf("fleet %s: reading %s: %w", q.name, k, err)
	}
	var msgs []redis.XMessage
	for _, s := range res {
		msgs = append(msgs, s.Messages...)
	}
	if len(msgs) > 0 {
		id = msgs[len(msgs)-1].ID
	}
	return msgs, id, nil
}

// line is one entry of the events stream: a worker's line, and who sent it.
type line struct {
	Replica int
	Worker  string
	Line    workerLine
}

// readEvents waits up to blockFor for events after id.
func (q *queue) readEvents(ctx context.Context, id string) ([]line, string, error) {
	msgs, last, err := q.read(ctx, keyEvents, id, 500)
	out := make([]line, 0, len(msgs))
	for _, m := range msgs {
		r, _ := strconv.Atoi(fmt.Sprint(m.Values["r"]))
		l := line{Replica: r, Worker: fmt.Sprint(m.Values["w"])}
		if s, ok := m.Values["line"].(string); !ok || json.Unmarshal([]byte(s), &l.Line) != nil {
			continue // not a line of ours
		}
		out = append(out, l)
	}
	return out, last, err
}

// finish keeps the run's keys for keepFor and removes the run itself, so
// a worker started later waits for the next run.
func (q *queue) finish() {
	ctx, cancel := short()
	defer cancel()
	_, _ = q.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.Del(ctx, q.key(keyRun))
		for _, k := range []string{keyMembers, keyWorkers, keyControl, keyWork, keyEvents} {
			p.Expire(ctx, q.key(k), keepFor)
		}
		return nil
	})
}
