package fleet

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/fleet/redisstore"
	"github.com/drill-dev/drill/internal/redact"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

// JoinOptions configure one worker of a coordinated fleet.
type JoinOptions struct {
	// URL is the fleet's Redis, redis://HOST:PORT/DB.
	URL string
	// Fleet is the fleet's name, as the coordinator was given it.
	Fleet string
	// Name is the worker's name in the fleet (its consumer in the work
	// stream's group); empty means HOST-PID.
	Name string
	// Timeout is how long the worker waits for a run to join; zero means
	// a minute. Once joined, it waits for the start as long as the
	// coordinator waits for its workers, and this long again.
	Timeout time.Duration
	// Wire fills in what the published drill cannot carry (the API key,
	// the built-in fake model's transport).
	Wire func(*workload.Config)
	// Status, if set, gets a line when the worker joins, starts and ends.
	Status io.Writer
}

// Join runs one worker of a coordinated fleet (drill fleet-worker --join):
// it waits for the fleet's run, joins it as the next replica, and from the
// start takes emails from the work stream (new ones, and those another
// worker held past the claim time), sends each through the same engine a
// pipe worker runs, and puts its events on the events stream, each email's
// work item acknowledged with its result. It returns when the coordinator
// says the run is done or stopped, or when ctx ends (ErrInterrupted).
func Join(ctx context.Context, o JoinOptions) error {
	if err := o.check(); err != nil {
		return exit.UsageError(err)
	}
	if o.Timeout == 0 {
		o.Timeout = DefaultJoinTimeout
	}
	if o.Name == "" {
		host, _ := os.Hostname()
		o.Name = fmt.Sprintf("%s-%d", host, os.Getpid())
	}
	q, err := openQueue(ctx, o.URL, o.Fleet)
	if err != nil {
		return err
	}
	defer q.close()
	spec, err := waitRun(ctx, q, o.Timeout)
	if err != nil {
		return err
	}
	replica, err := q.join(ctx, o.Name, spec.Replicas)
	if errors.Is(err, ErrFleetFull) || errors.Is(err, ErrNameTaken) {
		return exit.UsageError(err)
	}
	if err != nil {
		return err
	}
	o.say("joined fleet %s as replica %d of %d (worker %s)", o.Fleet, replica, spec.Replicas, o.Name)
	startID, started, err := waitStart(ctx, q, spec.JoinTimeout+o.Timeout)
	if err != nil || !started {
		return err
	}
	w := &worker{q: q, spec: spec, name: o.Name, replica: replica, held: map[int]string{}}
	status, err := w.run(ctx, o.Wire, startID)
	o.say("fleet %s: replica %d %s", o.Fleet, replica, status)
	if err == nil && ctx.Err() != nil {
		err = fmt.Errorf("fleet worker %s: %w", o.Name, exit.ErrInterrupted)
	}
	return err
}

// check says what is wrong with the options, if anything.
func (o JoinOptions) check() error {
	var errs []error
	if !strings.HasPrefix(o.URL, "redis://") {
		errs = append(errs, fmt.Errorf("--join %q: a coordinated fleet's Redis is redis://HOST:PORT/DB", redact.Text(o.URL)))
	} else if err := redisstore.CheckURL(o.URL); err != nil {
		errs = append(errs, fmt.Errorf("--join %q: %s", redact.URL(o.URL), redact.Text(err.Error())))
	}
	if o.Fleet == "" {
		errs = append(errs, errors.New("--fleet NAME is needed: the name drill fleet --coordinate was given"))
	} else if err := CheckFleetName(o.Fleet); err != nil {
		errs = append(errs, err)
	}
	if o.Timeout < 0 {
		errs = append(errs, errors.New("--join-timeout cannot be negative"))
	}
	return errors.Join(errs...)
}

// say writes a status line.
func (o JoinOptions) say(format string, a ...any) {
	if o.Status != nil {
		fmt.Fprintf(o.Status, format+"\n", a...)
	}
}

// pollEvery is how often a worker looks for a run to join.
const pollEvery = 100 * time.Millisecond

// waitRun waits up to timeout for the fleet's run.
func waitRun(ctx context.Context, q *queue, timeout time.Duration) (runSpec, error) {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		spec, ok, err := q.runSpec(ctx)
		if ok || err != nil {
			return spec, err
		}
		select {
		case <-ctx.Done():
			return spec, fmt.Errorf("waiting for fleet %s: %w", q.name, exit.ErrInterrupted)
		case <-deadline.C:
			return spec, fmt.Errorf("no run of fleet %s on %s within the join timeout (start it with drill fleet --coordinate)", q.name, q.url)
		case <-time.After(pollEvery):
		}
	}
}

// waitStart waits up to timeout for the coordinator's start, and returns
// the id of its entry; started is false if the coordinator stopped first.
func waitStart(ctx context.Context, q *queue, timeout time.Duration) (id string, started bool, err error) {
	deadline := time.Now().Add(timeout)
	id = "0"
	for time.Now().Before(deadline) {
		if ctx.Err() != nil {
			return id, false, fmt.Errorf("waiting for fleet %s to start: %w", q.name, exit.ErrInterrupted)
		}
		cmds, last, err := q.readControl(ctx, id)
		if err != nil {
			continue // read again until the deadline; Redis may come back
		}
		id = last
		for _, c := range cmds {
			switch c {
			case ctlStart:
				return id, true, nil
			case ctlStop, ctlDone:
				return id, false, nil
			}
		}
	}
	return id, false, fmt.Errorf("fleet %s did not start within %v of joining", q.name, timeout)
}

// worker is one joined worker of a coordinated fleet.
type worker struct {
	q       *queue
	spec    runSpec
	name    string
	replica int

	mu   sync.Mutex
	held map[int]string // email number → the work item it came in
}

// run runs the worker's drill from the start to its end and returns its
// status.
func (w *worker) run(ctx context.Context, wire func(*workload.Config), startID string) (string, error) {
	cfg := w.spec.Config
	cfg.Replica = w.replica
	feed := make(chan int)
	cfg.Feed = feed
	if wire != nil {
		wire(&cfg)
	}
	var run atomic.Pointer[workload.Run]
	store, err := openStore(w.spec.Store, w.spec.Prefix, &run)
	if err != nil {
		return "", err
	}
	if store != nil {
		defer store.Close()
		cfg.BreakerStore = store
	}
	r, err := workload.Start(ctx, cfg)
	if err != nil {
		return "", fmt.Errorf("fleet worker %s: %w", w.name, err)
	}
	run.Store(r)
	rctx, cancel := context.WithCancel(ctx) // taking work ends on done or stop
	var wg sync.WaitGroup
	wg.Go(func() { w.take(rctx, r, feed) })
	wg.Go(func() { w.watch(rctx, cancel, r, startID) })
	ferr := w.forward(r)
	cancel()
	wg.Wait()
	return r.Wait(), ferr
}

// openStore opens the shared breaker store a worker's breakers use, if the
// fleet has one; its status changes go into the run's log.
func openStore(url, prefix string, run *atomic.Pointer[workload.Run]) (*redisstore.Store, error) {
	if url == "" || url == StoreLocal {
		return nil, nil
	}
	return redisstore.Open(url, redisstore.Options{Prefix: prefix, OnStatus: func(up bool, err error) {
		if r := run.Load(); r != nil {
			r.Log().Append(storeEvent(0, up, err))
		}
	}})
}

// watch follows the control stream: done ends the taking of work (the run
// ends when its emails in flight have), stop stops the run now.
func (w *worker) watch(ctx context.Context, cancel context.CancelFunc, r *workload.Run, id string) {
	for ctx.Err() == nil {
		cmds, last, err := w.q.readControl(ctx, id)
		if err != nil {
			pause(ctx)
			continue
		}
		id = last
		for _, c := range cmds {
			switch c {
			case ctlStop:
				r.Stop()
				cancel()
				return
			case ctlDone:
				cancel()
				return
			}
		}
	}
}

// pause waits a moment after a failed Redis command, or until ctx ends.
func pause(ctx context.Context) {
	select {
	case <-ctx.Done():
	case <-time.After(250 * time.Millisecond):
	}
}

// take feeds the run the work items it reads and those it claims, until
// ctx ends; then it closes feed, which ends the run's arrivals.
func (w *worker) take(ctx context.Context, r *workload.Run, feed chan<- int) {
	defer close(feed)
	var wg sync.WaitGroup
	wg.Go(func() { w.keep(ctx, r, feed) })
	for ctx.Err() == nil {
		its, err := w.q.next(ctx, w.name)
		if err != nil {
			pause(ctx)
			continue
		}
		for _, it := range its {
			w.push(ctx, feed, it)
		}
	}
	wg.Wait()
}

// push hands one item's email to the run, remembering the item so its
// result acknowledges it.
func (w *worker) push(ctx context.Context, feed chan<- int, it item) {
	w.mu.Lock()
	w.held[w.spec.Config.Email(it.email+1).ID] = it.id
	w.mu.Unlock()
	select {
	case feed <- it.email:
	case <-ctx.Done():
	}
}

// keep, every quarter of the claim time, keeps the worker's own items
// (resets their idle time: a live worker's email in flight is never
// claimed) and claims the items others held past the claim time, logging
// a reclaimed event for each worker it took them from.
func (w *worker) keep(ctx context.Context, r *workload.Run, feed chan<- int) {
	every := max(w.spec.ClaimAfter/4, 50*time.Millisecond)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		_ = w.q.touch(ctx, w.name) // a failure here is a worker the others may claim from
		its, err := w.q.claim(ctx, w.name, w.spec.ClaimAfter)
		if err != nil || len(its) == 0 {
			continue
		}
		byFrom := map[string][]int{}
		var order []string
		for _, it := range its {
			if _, ok := byFrom[it.from]; !ok {
				order = append(order, it.from)
			}
			byFrom[it.from] = append(byFrom[it.from], w.spec.Config.Email(it.email+1).ID)
		}
		for _, from := range order {
			r.Log().Append(event.Event{Kind: event.Reclaimed, Reclaim: &event.Reclaim{From: from,
				FromReplica: w.q.replicaOf(ctx, from), By: w.name, Emails: byFrom[from]}})
		}
		for _, it := range its {
			w.push(ctx, feed, it)
		}
	}
}

// release forgets email id's work item and returns it, "" if none.
func (w *worker) release(id int) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	it := w.held[id]
	delete(w.held, id)
	return it
}

// sendTries bounds how long a worker tries to put one line on the events
// stream while Redis does not answer.
const sendTries = 240 // × 250 ms: a minute

// forward puts the run's start time and every event of its log on the
// events stream, acknowledging each finished email's work item with its
// result, until the log closes.
func (w *worker) forward(r *workload.Run) error {
	send := func(l workerLine, ack string) error {
		var err error
		for range sendTries {
			ctx, cancel := short()
			err = w.q.send(ctx, w.replica, w.name, l, ack)
			cancel()
			if err == nil {
				return nil
			}
			time.Sleep(250 * time.Millisecond)
		}
		return err
	}
	if err := send(workerLine{StartUnixNS: r.Log().Start().UnixNano()}, ""); err != nil {
		r.Stop()
		r.Wait()
		return err
	}
	c := r.Log().Cursor()
	for {
		evs, err := c.Next(context.Background())
		if err != nil {
			return nil // io.EOF: the drill is over
		}
		for _, e := range evs {
			ack := ""
			if id, ok := scoring.Finished(e); ok {
				ack = w.release(id)
			}
			if err := send(workerLine{Event: &e}, ack); err != nil {
				r.Stop()
				r.Wait()
				return err
			}
		}
	}
}
