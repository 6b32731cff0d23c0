package fleet

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/workload"
)

// WorkerCommand is drill's hidden command a --processes worker runs, and
// APIKeyEnv the variable that hands it the API key (never serialised).
const (
	WorkerCommand = "fleet-worker"
	APIKeyEnv     = "DRILL_FLEET_API_KEY"
)

// workerSpec is what the parent sends a worker process, as the first line
// on its stdin: the drill, which replica it is, the route (the replica of
// every email, so it sends exactly its share) and the breaker store.
type workerSpec struct {
	Config  workload.Config `json:"config"`
	Replica int             `json:"replica"`
	Route   []int           `json:"route"`
	Store   string          `json:"store"`
	Prefix  string          `json:"prefix"`
}

// workerLine is one line a worker writes on stdout (or, in a coordinated
// fleet, on the events stream): first its start time, then its events in
// order. A coordinated fleet's worker first says it joined.
type workerLine struct {
	StartUnixNS int64        `json:"start_unix_ns,omitempty"`
	Event       *event.Event `json:"event,omitempty"`
	Join        string       `json:"join,omitempty"`
}

// stopGrace is how long a stopped worker has to send its last events and
// exit before it is killed.
const stopGrace = 5 * time.Second

// processReplica is a replica run as a worker process.
type processReplica struct {
	cmd      *exec.Cmd
	stdin    io.WriteCloser
	stdout   io.ReadCloser
	stopOnce sync.Once
	exited   chan struct{}
}

// startProcess starts a worker and sends it its spec.
func startProcess(cfg Config, spec workerSpec) (*processReplica, error) {
	cmd := exec.Command(cfg.Worker[0], cfg.Worker[1:]...)
	cmd.Env = append(os.Environ(), cfg.WorkerEnv...)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("worker stdin: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("worker stdout: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the worker %s: %w", cfg.Worker[0], err)
	}
	p := &processReplica{cmd: cmd, stdin: stdin, stdout: stdout, exited: make(chan struct{})}
	b, err := json.Marshal(spec)
	if err == nil {
		_, err = stdin.Write(append(b, '\n'))
	}
	if err != nil {
		p.stop()
		p.events(time.Now(), func(event.Event) {})
		return nil, fmt.Errorf("sending the worker its drill: %w", err)
	}
	return p, nil
}

// events reads the worker's lines until it closes stdout, then reaps it.
func (p *processReplica) events(start time.Time, emit func(event.Event)) {
	sc := bufio.NewScanner(p.stdout)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	var shift time.Duration
	for sc.Scan() {
		var l workerLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			continue // not a line of ours
		}
		if l.StartUnixNS != 0 {
			shift = time.Unix(0, l.StartUnixNS).Sub(start)
		}
		if l.Event != nil {
			e := *l.Event
			e.At += shift
			emit(e)
		}
	}
	_, _ = io.Copy(io.Discard, p.stdout)
	_ = p.cmd.Wait()
	close(p.exited)
}

// stop closes the worker's stdin, which makes it stop its drill, send its
// last events and exit; a worker still there after stopGrace is killed.
func (p *processReplica) stop() {
	p.stopOnce.Do(func() {
		_ = p.stdin.Close()
		go func() {
			select {
			case <-p.exited:
			case <-time.After(stopGrace):
				_ = p.cmd.Process.Kill()
			}
		}()
	})
}

// Work is the body of a fleet worker process: it reads its spec from in,
// runs its replica of the drill (wire fills in what the spec cannot carry,
// such as the built-in fake model's transport), writes its events to out
// as JSON lines, and stops the drill as soon as in closes (the parent
// stopped it, or is gone). It returns when the drill has ended.
func Work(ctx context.Context, in io.Reader, out io.Writer, wire func(*workload.Config)) error {
	br := bufio.NewReader(in)
	line, err := br.ReadBytes('\n')
	if err != nil {
		return fmt.Errorf("fleet worker: reading the drill from the parent: %w", err)
	}
	var spec workerSpec
	if err := json.Unmarshal(line, &spec); err != nil {
		return fmt.Errorf("fleet worker: bad drill from the parent: %w", err)
	}
	cfg := spec.Config
	cfg.Replica = spec.Replica
	cfg.Serves = func(i int) bool { return i < len(spec.Route) && spec.Route[i] == spec.Replica }
	if wire != nil {
		wire(&cfg)
	}
	var run atomic.Pointer[workload.Run]
	store, err := openStore(spec.Store, spec.Prefix, &run)
	if err != nil {
		return err
	}
	if store != nil {
		defer store.Close()
		cfg.BreakerStore = store
	}
	r, err := workload.Start(ctx, cfg)
	if err != nil {
		return fmt.Errorf("fleet worker %d: %w", spec.Replica, err)
	}
	run.Store(r)
	go func() {
		_, _ = io.Copy(io.Discard, br) // until the parent closes the pipe
		r.Stop()
	}()
	enc := json.NewEncoder(out)
	werr := enc.Encode(workerLine{StartUnixNS: r.Log().Start().UnixNano()})
	c := r.Log().Cursor()
	for werr == nil {
		evs, err := c.Next(context.Background())
		if err != nil {
			break // io.EOF: the drill is over
		}
		for _, e := range evs {
			if werr = enc.Encode(workerLine{Event: &e}); werr != nil {
				break
			}
		}
	}
	if werr != nil {
		r.Stop() // the parent is gone
	}
	r.Wait()
	if werr != nil && !errors.Is(werr, os.ErrClosed) {
		return fmt.Errorf("fleet worker %d: writing events: %w", spec.Replica, werr)
	}
	return nil
}

// storeEvent is replica r's store going away (up false) or coming back.
func storeEvent(r int, up bool, err error) event.Event {
	detail := event.StoreShared + " (redis answered again)"
	if !up {
		detail = fmt.Sprintf("%s (%v)", event.StoreFallback, err)
	}
	return event.Event{Kind: event.StoreChange, Replica: r, Detail: detail}
}
