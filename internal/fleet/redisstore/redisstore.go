// Package redisstore is a breaker.Store in Redis: one breaker state per name
// shared by every replica of a fleet. Transitions are atomic in Lua scripts,
// the failure window is a sorted set in Redis, one probe goes out across the
// fleet, and every change is published so replicas learn of an open breaker
// from the message, not by asking before each call.
//
// A Store is one replica's connection. When Redis stops answering, its calls
// return ErrUnavailable at once for a short back-off (so a dead Redis does
// not slow every call), the breakers using it decide alone, and OnStatus
// says so; the first call that gets an answer again says so too.
package redisstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/drill-dev/drill/breaker"
	"github.com/drill-dev/drill/internal/redact"
)

// ErrUnavailable wraps every error of a Store whose Redis did not answer.
var ErrUnavailable = errors.New("redis breaker store unreachable")

// Options configure a Store. The zero value is usable.
type Options struct {
	// Prefix namespaces the keys and the channel, so drills sharing one
	// Redis do not share breakers; empty means "drill".
	Prefix string
	// Timeout bounds each Redis command, dial included; zero means 250 ms.
	Timeout time.Duration
	// Backoff is how long calls fail fast after Redis did not answer
	// before the next try; zero means 500 ms.
	Backoff time.Duration
	// OnStatus, if set, is called when the store becomes unreachable (up
	// false, with the error) and when it answers again (up true). It is
	// called without the store's lock held.
	OnStatus func(up bool, err error)
}

// Store is a breaker.Store backed by Redis. It is safe for concurrent use;
// Close it when done.
type Store struct {
	opts   Options
	client *redis.Client
	pubsub *redis.PubSub
	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}

	mu       sync.Mutex
	cache    map[string]breaker.Shared
	watchers map[string]map[int]func(breaker.Shared)
	nextW    int
	down     bool
	retryAt  time.Time
	statusMu sync.Mutex // orders OnStatus calls
}

var _ breaker.Store = (*Store)(nil)

// quiet drops go-redis's own log lines (a dropped pub/sub connection while
// Redis is down is an expected part of a drill; OnStatus reports it).
type quiet struct{}

func (quiet) Printf(context.Context, string, ...any) {}

var quietOnce sync.Once

// CheckURL reports whether url is a Redis URL Open can connect to
// (redis://host:port/db), without connecting. It is go-redis's own parser,
// so the fleet's check and Open never disagree.
func CheckURL(url string) error {
	_, err := redis.ParseURL(url)
	return err
}

// clientOptions are the go-redis options of url (Ping's and Open's), its
// password masked in the error, with go-redis's own logging silenced.
func clientOptions(url string) (*redis.Options, error) {
	ro, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("breaker store %q: %s", redact.URL(url), redact.Text(err.Error()))
	}
	quietOnce.Do(func() { redis.SetLogger(quiet{}) })
	return ro, nil
}

// ParseURL is the go-redis options of a redis://host:port/db URL, as Open
// reads it, its password masked in the error, with go-redis's own logging
// silenced: other users of drill's Redis (the proxy fleet) connect as the
// breaker store does.
func ParseURL(url string) (*redis.Options, error) {
	ro, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("redis %q: %s", redact.URL(url), redact.Text(err.Error()))
	}
	quietOnce.Do(func() { redis.SetLogger(quiet{}) })
	return ro, nil
}

// Ping connects to the Redis at url, authenticating as the URL says, and
// sends PING, waiting at most timeout: nil when the store answers. The
// error says whether nothing answered or Redis refused the password; the
// URL in it has its password masked.
func Ping(ctx context.Context, url string, timeout time.Duration) error {
	ro, err := clientOptions(url)
	if err != nil {
		return err
	}
	ro.DialTimeout, ro.ReadTimeout, ro.WriteTimeout = timeout, timeout, timeout
	ro.MaxRetries = -1
	c := redis.NewClient(ro)
	defer c.Close()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	err = c.Ping(ctx).Err()
	switch {
	case err == nil:
		return nil
	case isAuthError(err):
		return fmt.Errorf("breaker store %s refused the password: %w", redact.URL(url), err)
	}
	return fmt.Errorf("breaker store %s cannot be reached: %w", redact.URL(url), err)
}

// isAuthError reports whether Redis refused a connection's credentials
// (wrong password, none given where one is needed, or one given where
// none is set).
func isAuthError(err error) bool {
	msg := err.Error()
	for _, p := range []string{"WRONGPASS", "NOAUTH", "ERR AUTH", "invalid password", "invalid username-password"} {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}

// Open connects to the Redis at url (redis://host:port/db) and subscribes
// to the store's change channel. It does not wait for Redis: a Redis that
// is down at the start is a store that is unreachable until it comes up.
func Open(url string, opts Options) (*Store, error) {
	ro, err := clientOptions(url)
	if err != nil {
		return nil, err
	}
	if opts.Prefix == "" {
		opts.Prefix = "drill"
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 250 * time.Millisecond
	}
	if opts.Backoff <= 0 {
		opts.Backoff = 500 * time.Millisecond
	}
	ro.DialTimeout, ro.ReadTimeout, ro.WriteTimeout = opts.Timeout, opts.Timeout, opts.Timeout
	ro.MaxRetries = -1 // no retries: a failed command is a fallback, at once
	ro.PoolSize = 4
	s := &Store{opts: opts, client: redis.NewClient(ro), cache: map[string]breaker.Shared{},
		watchers: map[string]map[int]func(breaker.Shared){}, done: make(chan struct{})}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.pubsub = s.client.Subscribe(s.ctx, s.channel())
	go s.listen()
	return s, nil
}

// Close stops listening and closes the connections.
func (s *Store) Close() error {
	s.cancel()
	err := s.pubsub.Close()
	<-s.done
	return errors.Join(err, s.client.Close())
}

func (s *Store) channel() string        { return s.opts.Prefix + ":breaker:changes" }
func (s *Store) key(name string) string { return s.opts.Prefix + ":breaker:" + name }

// message is a published change.
type message struct {
	Name     string `json:"name"`
	State    int    `json:"state"`
	Gen      uint64 `json:"gen,string"`
	OpenedAt int64  `json:"opened_at,string"`
	ProbeAt  int64  `json:"probe_at,string"`
	Failures int    `json:"failures"`
	Reason   string `json:"reason"`
	At       int64  `json:"at,string"`
}

func (m message) shared() breaker.Shared {
	return breaker.Shared{State: breaker.State(m.State), Generation: m.Gen, OpenedAt: micros(m.OpenedAt),
		ProbeAt: micros(m.ProbeAt), Failures: m.Failures, Reason: m.Reason, At: micros(m.At)}
}

func micros(us int64) time.Time {
	if us == 0 {
		return time.Time{}
	}
	return time.UnixMicro(us)
}

// listen applies published changes to the cache and tells the watchers.
// go-redis resubscribes by itself after Redis comes back.
func (s *Store) listen() {
	defer close(s.done)
	ch := s.pubsub.Channel(redis.WithChannelHealthCheckInterval(time.Second))
	for msg := range ch {
		var m message
		if err := json.Unmarshal([]byte(msg.Payload), &m); err != nil {
			continue // not ours
		}
		s.apply(m.Name, m.shared())
	}
}

// apply keeps the newest state of name and tells its watchers.
func (s *Store) apply(name string, sh breaker.Shared) {
	s.mu.Lock()
	old, ok := s.cache[name]
	// Within a generation only the probe changes (a half-open breaker's
	// probe going out); anything else older than what is known is stale.
	if ok && (sh.Generation < old.Generation || (sh.Generation == old.Generation && sh.ProbeAt.Equal(old.ProbeAt))) {
		s.mu.Unlock()
		return
	}
	s.cache[name] = sh
	var fns []func(breaker.Shared)
	for _, fn := range s.watchers[name] {
		fns = append(fns, fn)
	}
	s.mu.Unlock()
	for _, fn := range fns {
		fn(sh)
	}
}

// Watch implements breaker.Store.
func (s *Store) Watch(name string, fn func(breaker.Shared)) func() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.watchers[name] == nil {
		s.watchers[name] = map[int]func(breaker.Shared){}
	}
	id := s.nextW
	s.nextW++
	s.watchers[name][id] = fn
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		delete(s.watchers[name], id)
	}
}

// Shared implements breaker.Store: the cached state, read from Redis the
// first time and after Redis was unreachable.
func (s *Store) Shared(name string) (breaker.Shared, error) {
	s.mu.Lock()
	sh, ok := s.cache[name]
	down, retryAt := s.down, s.retryAt
	s.mu.Unlock()
	if down && time.Now().Before(retryAt) {
		return breaker.Shared{}, ErrUnavailable
	}
	if ok && !down {
		return sh, nil
	}
	res, err := s.run(readScript, name, nil)
	if err != nil {
		return breaker.Shared{}, err
	}
	return res, nil
}

// Acquire implements breaker.Store.
func (s *Store) Acquire(name string, p breaker.StoreParams, now time.Time) (breaker.Shared, bool, error) {
	args := append(params(p), now.UnixMicro())
	var probe bool
	sh, err := s.runProbe(acquireScript, name, args, &probe)
	return sh, probe, err
}

// Record implements breaker.Store.
func (s *Store) Record(name string, p breaker.StoreParams, r breaker.StoreResult) (breaker.Shared, error) {
	probe := 0
	if r.Probe {
		probe = 1
	}
	args := append(params(p), r.At.UnixMicro(), strconv.FormatUint(r.Generation, 10), probe, int(r.Result))
	return s.run(recordScript, name, args)
}

func params(p breaker.StoreParams) []any {
	return []any{p.Failures, p.Window.Microseconds(), p.Cooldown.Microseconds(), p.ProbeTimeout.Microseconds(), p.Rule}
}

func (s *Store) run(script *redis.Script, name string, args []any) (breaker.Shared, error) {
	return s.runProbe(script, name, args, nil)
}

// runProbe runs a script on name's keys; every script returns the state as
// JSON, and then 1 if the caller got the probe.
func (s *Store) runProbe(script *redis.Script, name string, args []any, probe *bool) (breaker.Shared, error) {
	ctx, cancel := context.WithTimeout(s.ctx, 2*s.opts.Timeout)
	defer cancel()
	keys := []string{s.key(name), s.key(name) + ":failures", s.channel()}
	v, err := script.Run(ctx, s.client, keys, append([]any{name}, args...)...).Slice()
	if err != nil {
		s.status(false, err)
		return breaker.Shared{}, fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	s.status(true, nil)
	var m message
	if len(v) < 2 {
		return breaker.Shared{}, fmt.Errorf("breaker store: unexpected reply %v", v)
	}
	js, _ := v[0].(string)
	if err := json.Unmarshal([]byte(js), &m); err != nil {
		return breaker.Shared{}, fmt.Errorf("breaker store: bad state %q: %w", js, err)
	}
	if probe != nil {
		n, _ := v[1].(int64)
		*probe = n == 1
	}
	sh := m.shared()
	s.mu.Lock()
	if old, ok := s.cache[name]; !ok || sh.Generation >= old.Generation {
		s.cache[name] = sh
	}
	s.mu.Unlock()
	return sh, nil
}

// status records whether Redis answered and reports a change of it.
func (s *Store) status(up bool, err error) {
	s.statusMu.Lock()
	defer s.statusMu.Unlock()
	s.mu.Lock()
	changed := s.down == up
	if up {
		s.down = false
	} else {
		s.down = true
		s.retryAt = time.Now().Add(s.opts.Backoff)
		if changed {
			s.cache = map[string]breaker.Shared{} // Redis may come back empty
		}
	}
	s.mu.Unlock()
	if changed && s.opts.OnStatus != nil {
		s.opts.OnStatus(up, err)
	}
}
