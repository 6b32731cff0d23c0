// Package fleet runs one drill as a fleet of replicas: the workload's emails
// are routed to N replicas (round-robin, or seeded random), each with its
// own SDK clients, chain and breakers, as goroutine groups in one process.
// The breakers are each replica's own (store local) or one shared state per
// rung in Redis (fleet/redisstore). Every replica's events go into one log,
// each marked with its replica, so the one fold (scoring) gives the figures
// per replica and fleet-wide.
package fleet

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/drill-dev/drill/breaker"
	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/fleet/redisstore"
	"github.com/drill-dev/drill/internal/redact"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

// Routings and the local store, as flags and drill files spell them.
const (
	RoutingRoundRobin = "round-robin"
	RoutingRandom     = "random"
	StoreLocal        = "local"
)

// Routings lists the valid routings.
func Routings() []string { return []string{RoutingRoundRobin, RoutingRandom} }

// MaxReplicas bounds a fleet's size.
const MaxReplicas = 64

// Config is a fleet drill: the drill every replica runs, and the fleet.
type Config struct {
	// Run is the drill: its emails, rate, outage timeline and policy.
	// Its Replica, Serves and BreakerStore are set per replica.
	Run workload.Config
	// Replicas is how many replicas serve the emails, 1 to MaxReplicas.
	Replicas int
	// Routing is round-robin (email i to replica i mod N + 1) or random
	// (drawn from Run.Seed). Empty means round-robin.
	Routing string
	// Store is local (each replica's own breakers) or a redis:// URL (one
	// shared breaker state per rung). Empty means local.
	Store string
	// Worker, if set, runs each replica as its own process: the command
	// line of a drill fleet worker (see Work). The parent feeds each
	// worker its drill and its share of the emails on stdin, gathers its
	// events from stdout, and closes stdin to stop it; a worker whose
	// stdin closes (the parent ended, even by kill -9) stops and exits.
	Worker []string
	// WorkerEnv is added to the workers' environment (e.g. the API key,
	// which is never serialised).
	WorkerEnv []string
	// Coordinate, if set (redis://HOST:PORT/DB), makes this process the
	// coordinator of a fleet whose workers join through Redis Streams from
	// anywhere (drill fleet-worker --join, see Join): it publishes the run
	// and one work item per email, waits for Replicas workers, and merges
	// the events they send back into the fleet's log (coordinate.go).
	Coordinate string
	// Name is a coordinated fleet's name, which its workers join by.
	Name string
	// JoinTimeout is how long a coordinator waits for its workers; zero
	// means a minute.
	JoinTimeout time.Duration
	// ClaimAfter is how long a coordinated fleet's email may sit with a
	// worker that stopped answering before another worker takes it over;
	// zero means 10 s.
	ClaimAfter time.Duration
	// OnJoin, if set, is called as a coordinator's workers join.
	OnJoin func(joined, want int)
}

// Coordinated reports whether the fleet's workers join through Redis.
func (c Config) Coordinated() bool { return c.Coordinate != "" }

// Shared reports whether the breakers are shared in Redis.
func (c Config) Shared() bool { return c.Store != "" && c.Store != StoreLocal }

// storeCheckTimeout bounds CheckStore's wait for the Redis store.
const storeCheckTimeout = 2 * time.Second

// CheckStore reports whether the fleet's Redis store (its address checked
// first, StoreURL) answers and takes its password, before any replica
// starts: nil for a local store. A fleet started on a store that fails this
// check runs on each replica's own breakers, which a drill of shared
// breakers must not do silently.
func (c Config) CheckStore(ctx context.Context) error {
	if !c.Shared() {
		return nil
	}
	if err := c.StoreURL(); err != nil {
		return err
	}
	return redisstore.Ping(ctx, c.Store, storeCheckTimeout)
}

// StoreURL says what is wrong with a shared store's address: an unknown
// scheme (listing the valid ones) or a Redis URL that does not parse.
func (c Config) StoreURL() error {
	if !strings.HasPrefix(c.Store, "redis://") {
		return fmt.Errorf("unknown breaker store %q (valid: local, redis://HOST:PORT/DB)", redact.Text(c.Store))
	}
	if err := redisstore.CheckURL(c.Store); err != nil {
		return fmt.Errorf("breaker store %q: %s", redact.URL(c.Store), redact.Text(err.Error()))
	}
	return nil
}

// StoreKind is "local" or "redis", as summaries name the store.
func (c Config) StoreKind() string {
	if c.Shared() {
		return "redis"
	}
	return StoreLocal
}

// Validate says what is wrong with the fleet's settings (the drill's own
// are checked when each replica starts).
func (c Config) Validate() error {
	var errs []error
	if c.Replicas < 1 || c.Replicas > MaxReplicas {
		errs = append(errs, fmt.Errorf("replicas must be between 1 and %d, got %d", MaxReplicas, c.Replicas))
	}
	if c.Routing != "" && c.Routing != RoutingRoundRobin && c.Routing != RoutingRandom {
		errs = append(errs, fmt.Errorf("unknown routing %q (valid: %s)", c.Routing, strings.Join(Routings(), ", ")))
	}
	if c.Shared() {
		if err := c.StoreURL(); err != nil {
			errs = append(errs, err)
		}
		errs = append(errs, c.sharedPolicy()...)
	}
	errs = append(errs, c.coordination()...)
	for k, w := range c.Run.Windows() {
		for _, r := range w.Replicas {
			if r > c.Replicas {
				errs = append(errs, fmt.Errorf("outage %d names replica %d, but the fleet has %d", k+1, r, c.Replicas))
			}
		}
	}
	return errors.Join(errs...)
}

// sharedPolicy checks that every breaker can be shared: the run policy's
// and each route's (a route's breakers share the store too, and one the
// store cannot keep would never trip).
func (c Config) sharedPolicy() []error {
	policies := []workload.Policy{c.Run.Policy}
	for _, r := range c.Run.Routes {
		policies = append(policies, r.Policy)
	}
	var errs []error
	found := false
	for _, p := range policies {
		for k, rp := range []*workload.RungPolicy{&p.Primary, p.Backup} {
			if rp == nil || rp.Breaker == nil || (k == 0 && !p.HasPrimary()) {
				continue
			}
			found = true
			if _, err := breaker.SharedTrip(*rp.Breaker); err != nil {
				errs = append(errs, fmt.Errorf("policy %s: %w", p.Name, err))
			}
			bp := rp.Breaker
			if bp.Probe == breaker.ProbeSynthetic || (bp.Probes != 0 && bp.Probes != 1) || bp.RetryAfter == breaker.RetryAfterHonour ||
				bp.Stale == breaker.StaleCount {
				errs = append(errs, fmt.Errorf("policy %s: a shared breaker store keeps one customer probe, drops stale results and ignores Retry-After; "+
					"leave --probe, --probes, --stale and --retry-after at their defaults", p.Name))
			}
		}
	}
	if !found {
		errs = append(errs, fmt.Errorf("a shared breaker store needs a policy with breakers; %s has none (e.g. --policy breaker)", c.Run.Policy.Name))
	}
	return errs
}

// Route returns the replica (from 1) of each of the first n emails.
func (c Config) Route(n int) []int {
	out := make([]int, n)
	var rng *rand.Rand
	if c.Routing == RoutingRandom {
		rng = rand.New(rand.NewPCG(uint64(c.Run.Seed), 0x666c656574)) // "fleet"
	}
	for i := range out {
		if rng != nil {
			out[i] = rng.IntN(c.Replicas) + 1
		} else {
			out[i] = i%c.Replicas + 1
		}
	}
	return out
}

// Fleet is a fleet drill in progress. Its methods are safe for concurrent use.
type Fleet struct {
	cfg    Config
	log    *event.Log
	runs   []replica
	stores []*redisstore.Store
	done   chan struct{}
	coord  *coordinator // a coordinated fleet's Redis side; nil otherwise

	mu     sync.Mutex
	status string

	appendMu sync.Mutex
	lastAt   time.Duration // offset of the last event appended
}

// append adds e to the fleet's log at its offset, or at the last event's
// if that is later: the replicas' events arrive interleaved, and a log's
// offsets never run backwards.
func (f *Fleet) append(e event.Event) {
	f.appendMu.Lock()
	defer f.appendMu.Unlock()
	e.At = max(e.At, f.lastAt)
	f.lastAt = e.At
	f.log.AppendRecorded(e)
}

// Start validates cfg and starts every replica. It returns at once; the
// fleet ends when every replica has, or on Stop, or when ctx ends.
func Start(ctx context.Context, cfg Config) (*Fleet, error) {
	if cfg.Routing == "" {
		cfg.Routing = RoutingRoundRobin
	}
	if cfg.Store == "" {
		cfg.Store = StoreLocal
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Coordinated() {
		return startCoordinated(ctx, cfg)
	}
	f := &Fleet{cfg: cfg, log: event.NewLog(time.Now()), done: make(chan struct{})}
	info := cfg.info()
	info.Stamp(f.log.Start())
	f.append(event.Event{Kind: event.RunStart, Run: &info})
	route := cfg.Route(cfg.Run.Emails)
	prefix := "drill:" + info.ID
	ok := false
	defer func() {
		if !ok {
			f.closeAll()
		}
	}()
	for r := 1; r <= cfg.Replicas; r++ {
		if len(cfg.Worker) > 0 {
			p, err := startProcess(cfg, workerSpec{Config: cfg.Run, Replica: r, Route: route, Store: cfg.Store, Prefix: prefix})
			if err != nil {
				return nil, fmt.Errorf("replica %d: %w", r, err)
			}
			f.runs = append(f.runs, p)
			continue
		}
		rc := cfg.Run
		rc.Replica = r
		rc.Serves = func(i int) bool { return route[i] == r }
		if cfg.Shared() {
			s, err := redisstore.Open(cfg.Store, redisstore.Options{Prefix: prefix, OnStatus: f.onStatus(r)})
			if err != nil {
				return nil, err
			}
			f.stores = append(f.stores, s)
			rc.BreakerStore = s
		}
		run, err := workload.Start(ctx, rc)
		if err != nil {
			return nil, fmt.Errorf("replica %d: %w", r, err)
		}
		f.runs = append(f.runs, localReplica{run})
	}
	ok = true
	if len(cfg.Worker) > 0 {
		go func() { // runs in this process end with ctx by themselves
			select {
			case <-ctx.Done():
				f.Stop()
			case <-f.done:
			}
		}()
	}
	go f.gather()
	return f, nil
}

// info is the fleet's run info: the drill's, with the fleet's settings.
func (c Config) info() event.RunInfo {
	info := c.Run.Info()
	info.Overrides = maps.Clone(info.Overrides)
	if info.Overrides == nil {
		info.Overrides = map[string]string{}
	}
	info.Overrides["replicas"] = strconv.Itoa(c.Replicas)
	info.Overrides["routing"] = c.Routing
	info.Overrides["breaker-store"] = c.StoreKind()
	return info
}

// onStatus logs replica r's store going away or coming back.
func (f *Fleet) onStatus(r int) func(bool, error) {
	return func(up bool, err error) {
		e := storeEvent(r, up, err)
		e.At = time.Since(f.log.Start())
		f.append(e)
	}
}

// gather copies every replica's events into the fleet's log (take), then
// ends it (finish).
func (f *Fleet) gather() {
	defer close(f.done)
	var wg sync.WaitGroup
	m := newMerge(len(f.runs))
	for k, run := range f.runs {
		wg.Go(func() {
			run.events(f.log.Start(), func(e event.Event) { f.take(m, k, e) })
		})
	}
	wg.Wait()
	f.closeStores()
	f.finish(m, -1)
}

// merge is what the fleet keeps while it merges its replicas' events.
type merge struct {
	mu       sync.Mutex
	ends     []event.RunEndInfo // how each replica ended, by replica index
	ended    []bool             // whether it said so
	lost     []bool             // a coordinated fleet's worker gone, its emails finished by others
	schedule []int              // outage events seen, by replica index
	kept     int                // outage events kept in the fleet's log
}

// newMerge is the merge of n replicas, none ended yet.
func newMerge(n int) *merge {
	m := &merge{ends: make([]event.RunEndInfo, n), ended: make([]bool, n), lost: make([]bool, n), schedule: make([]int, n)}
	for k := range m.ends {
		m.ends[k].Status = event.StatusInterrupted // unless the replica says how it ended
	}
	return m
}

// take puts replica k's (from 0) event into the fleet's log, marked with
// the replica, with offsets from the fleet's start. The replicas' own
// run_start and run_end give way to the fleet's; the outage schedule,
// the same on every replica, is kept once: each of its events from the
// first replica to log it (a replica that died leaves it to the others).
func (f *Fleet) take(m *merge, k int, e event.Event) {
	m.mu.Lock()
	defer m.mu.Unlock()
	switch scoring.ReplicaPartOf(e) {
	case scoring.ReplicaRunStart:
		return
	case scoring.ReplicaRunEnd:
		if e.End != nil {
			m.ends[k] = *e.End
		}
		m.ended[k] = true
		return
	case scoring.ReplicaSchedule:
		m.schedule[k]++
		if m.schedule[k] <= m.kept {
			return
		}
		m.kept++
	case scoring.ReplicaOwn:
		e.Replica = k + 1
	}
	f.append(e)
}

// finish ends the fleet's log with its run_end: completed if every replica
// completed (a lost worker whose emails others finished aside), else the
// first other status. notSent, unless negative, is the emails never sent
// (a coordinated fleet counts them itself).
func (f *Fleet) finish(m *merge, notSent int) {
	status := event.StatusCompleted
	end := &event.RunEndInfo{}
	for k := range m.ends {
		if m.lost[k] {
			continue
		}
		if s := m.ends[k].Status; s != event.StatusCompleted && status == event.StatusCompleted {
			status = s
		}
		end.NotSent += m.ends[k].NotSent
		if end.NotSentReason == "" {
			end.NotSentReason = m.ends[k].NotSentReason
		}
	}
	if notSent >= 0 {
		end.NotSent = notSent
		if notSent == 0 {
			end.NotSentReason = ""
		}
	}
	end.Status = status
	f.append(event.Event{Kind: event.RunEnd, Detail: fmt.Sprintf("%d replicas: %s", len(m.ends), status), End: end,
		At: time.Since(f.log.Start())})
	f.log.Close()
	f.mu.Lock()
	f.status = status
	f.mu.Unlock()
}

// closeAll stops the replicas started so far and closes the stores (a
// fleet that failed to start).
func (f *Fleet) closeAll() {
	for _, r := range f.runs {
		r.stop()
		r.events(f.log.Start(), func(event.Event) {})
	}
	f.closeStores()
}

// closeStores closes the replicas' store connections.
func (f *Fleet) closeStores() {
	for _, s := range f.stores {
		_ = s.Close()
	}
	f.stores = nil
}

// Log is the fleet's one event log.
func (f *Fleet) Log() *event.Log { return f.log }

// Config is the fleet's configuration, defaults filled in.
func (f *Fleet) Config() Config { return f.cfg }

// Done is closed when every replica has ended and the log is closed.
func (f *Fleet) Done() <-chan struct{} { return f.done }

// Stop ends every replica now (status interrupted).
func (f *Fleet) Stop() {
	if f.coord != nil {
		f.coord.stop()
	}
	for _, r := range f.runs {
		r.stop()
	}
}

// Wait waits for the fleet to end and returns its status: completed if
// every replica completed, else the first other status.
func (f *Fleet) Wait() string {
	<-f.done
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.status
}

// replica is one replica as the fleet drives it: a run in this process or
// a worker process.
type replica interface {
	// events calls emit with each of the replica's events, in order, with
	// offsets from start, until its log ends. Call it once.
	events(start time.Time, emit func(event.Event))
	// stop ends the replica now (its remaining events still follow).
	stop()
}

// localReplica is a replica run in this process.
type localReplica struct{ run *workload.Run }

func (l localReplica) events(start time.Time, emit func(event.Event)) {
	shift := l.run.Log().Start().Sub(start)
	c := l.run.Log().Cursor()
	for {
		evs, err := c.Next(context.Background())
		if err != nil {
			return // io.EOF: the replica's log is closed
		}
		for _, e := range evs {
			e.At += shift
			emit(e)
		}
	}
}

func (l localReplica) stop() { l.run.Stop() }
