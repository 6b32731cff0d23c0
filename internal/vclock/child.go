package vclock

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/drill-dev/drill/internal/exit"
)

// EnvChild is the environment variable that makes a drill process a
// virtual-clock child: its value names the registered body to run.
const EnvChild = "DRILL_VCLOCK_CHILD"

// sharedGCPercent is the GOGC of a virtual-clock process, and of drill
// while one plays beside a real-clock run (Beside), unless the environment
// sets GOGC.
const sharedGCPercent = 50

var beside struct {
	sync.Mutex
	n   int // Beside calls not yet undone
	old int // the GC percent before the first
}

// Beside lowers this process's GOGC to the virtual-clock process's while
// one plays beside a real-clock run (a baseline), so that the two stay
// small together; the returned function puts it back. Nothing changes when
// the environment sets GOGC.
func Beside() (undo func()) {
	if gcSetByEnv() {
		return func() {}
	}
	beside.Lock()
	if beside.n == 0 {
		beside.old = debug.SetGCPercent(sharedGCPercent)
	}
	beside.n++
	beside.Unlock()
	return sync.OnceFunc(func() {
		beside.Lock()
		defer beside.Unlock()
		if beside.n--; beside.n == 0 {
			debug.SetGCPercent(beside.old)
		}
	})
}

// gcSetByEnv reports whether the environment chooses GOGC (an empty value
// does not: the runtime takes it as unset).
func gcSetByEnv() bool { return os.Getenv("GOGC") != "" }

// PollInterval is how often, in virtual time, a bubble looks whether the
// process was asked to stop (Ctrl-C, SIGTERM).
const PollInterval = 250 * time.Millisecond

// pollLimit is the virtual time after which the interrupt watcher gives up,
// so that a body whose goroutines are stuck for good fails with synctest's
// deadlock report instead of ticking on forever.
const pollLimit = 30 * 24 * time.Hour

// Body is work run inside a synctest bubble in the child process. ctx is
// bubble-local and ends when the process is interrupted; in is the input
// Call was given; everything written to out is copied to Call's out.
type Body func(ctx context.Context, in []byte, out io.Writer) error

var (
	regMu  sync.Mutex
	bodies = map[string]Body{}
)

// Register makes body callable by name through Call. Register in an init
// function, so that the child process, which runs the same binary, knows
// it. Registering a name twice panics.
func Register(name string, body Body) {
	regMu.Lock()
	defer regMu.Unlock()
	if _, dup := bodies[name]; dup {
		panic("vclock: body " + name + " registered twice")
	}
	bodies[name] = body
}

func lookup(name string) Body {
	regMu.Lock()
	defer regMu.Unlock()
	return bodies[name]
}

// Error is a body's error as Call returns it: the message and the exit code
// the body asked for (an exit.Coder keeps its code across the process
// boundary); 1 if it asked for none.
type Error struct {
	Message string `json:"message"`
	Code    int    `json:"code"`
}

func (e *Error) Error() string { return e.Message }

// Call runs the body registered as name in virtual time, in a child process
// of this binary, with in (JSON-encoded) as its input, and copies what the
// body writes to out. The child's stderr is stderr (a panic's stack shows
// there). When ctx ends the child is told to stop and given 10 s to
// finish; the body sees its context end as on Ctrl-C, and what it wrote
// stands. A ctx that ended before the call still starts the child, told to
// stop at once, so that the body says how far it got (an interrupted
// journal) rather than nothing. A child that dies of an interrupt first gives an *Error with
// Code 130.
//
// The stop is the end of a pipe (the child's fd 5), not a signal: a signal
// that came while the child was still starting, before it could catch it,
// killed it (drill exited 1 on a Ctrl-C in a run's first milliseconds),
// where the pipe's end waits until the child reads it. The child runs in
// its own process group, so a Ctrl-C at the terminal reaches drill alone,
// which stops the child so; if drill dies, the pipe ends and the child
// stops too.
func Call(ctx context.Context, name string, in any, out, stderr io.Writer) error {
	return callStarted(ctx, name, in, out, stderr, nil)
}

// callStarted is Call with a hook run once the child has started (tests
// time an interrupt from it).
func callStarted(ctx context.Context, name string, in any, out, stderr io.Writer, started func()) error {
	if lookup(name) == nil {
		return fmt.Errorf("vclock: no body registered as %q", name)
	}
	input, err := json.Marshal(in)
	if err != nil {
		return fmt.Errorf("vclock: encoding the input of %s: %w", name, err)
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("vclock: finding this program to run %s in virtual time: %w", name, err)
	}
	p, err := openChildPipes()
	if err != nil {
		return err
	}
	defer p.close()

	var chatter bytes.Buffer
	// Not exec.CommandContext: it refuses to start once ctx has ended, and
	// a Ctrl-C that came before this call (while a baseline played, say)
	// must still give the body its run, stopped at once, so that it
	// records how far it got (an interrupted journal) instead of nothing.
	cmd := exec.Command(exe)
	cmd.Env = append(childGODEBUG(os.Environ()), EnvChild+"="+name)
	cmd.Stdin = bytes.NewReader(input)
	cmd.Stdout = &chatter
	cmd.Stderr = stderr
	cmd.ExtraFiles = []*os.File{p.resW, p.errW, p.stopR} // fd 3, 4 and 5 in the child
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("vclock: starting the virtual-clock process: %w", err)
	}
	p.started()
	r := p.collect(ctx, cmd, out, started)
	r.chatter = chatter.String()
	return r.err(ctx, name)
}

// childPipes are the three pipes between drill and its virtual-clock child:
// the body's output (fd 3), its error record (fd 4) and the stop pipe (fd
// 5), whose closing asks the child to stop.
type childPipes struct {
	resR, resW, errR, errW, stopR, stopW *os.File
	stopOnce                             sync.Once
}

// openChildPipes opens the three pipes, or none.
func openChildPipes() (*childPipes, error) {
	p := &childPipes{}
	var err error
	if p.resR, p.resW, err = os.Pipe(); err != nil {
		return nil, fmt.Errorf("vclock: %w", err)
	}
	if p.errR, p.errW, err = os.Pipe(); err != nil {
		p.close()
		return nil, fmt.Errorf("vclock: %w", err)
	}
	if p.stopR, p.stopW, err = os.Pipe(); err != nil {
		p.close()
		return nil, fmt.Errorf("vclock: %w", err)
	}
	return p, nil
}

// started closes the child's ends once it holds them, so reads end at its
// exit (and the stop pipe's read end, which only the child reads).
func (p *childPipes) started() {
	for _, f := range []*os.File{p.resW, p.errW, p.stopR} {
		_ = f.Close()
	}
}

// stop asks the child to stop, once.
func (p *childPipes) stop() { p.stopOnce.Do(func() { _ = p.stopW.Close() }) }

// close closes every end still open (closing one twice does no harm).
func (p *childPipes) close() {
	for _, f := range []*os.File{p.resR, p.resW, p.errR, p.errW, p.stopR} {
		if f != nil {
			_ = f.Close()
		}
	}
	if p.stopW != nil {
		p.stop()
	}
}

// childResult is what a finished child left: its exit, its error record,
// what it printed on stdout and whether copying its output failed.
type childResult struct {
	waitErr, copyErr error
	success          bool // the process exited with status 0
	record           []byte
	chatter          string
}

// collect copies the child's output to out while it runs, stopping it
// when ctx ends, and waits for it to exit.
func (p *childPipes) collect(ctx context.Context, cmd *exec.Cmd, out io.Writer, started func()) childResult {
	exited := make(chan struct{})
	var watch sync.WaitGroup
	watch.Go(func() { stopOnCancel(ctx, exited, p.stop, cmd.Process.Kill) })
	if started != nil {
		started()
	}
	var r childResult
	var wg sync.WaitGroup
	wg.Go(func() {
		if _, r.copyErr = io.Copy(out, p.resR); r.copyErr != nil {
			_, _ = io.Copy(io.Discard, p.resR) // never leave the child blocked on a full pipe
		}
	})
	wg.Go(func() { r.record, _ = io.ReadAll(p.errR) })
	wg.Wait()
	r.waitErr = cmd.Wait()
	close(exited)
	watch.Wait()
	r.success = cmd.ProcessState != nil && cmd.ProcessState.Success()
	return r
}

// err turns a finished child's result into Call's error.
func (r childResult) err(ctx context.Context, name string) error {
	waitErr := r.waitErr
	if waitErr != nil && ctx.Err() != nil && r.success {
		// Interrupted through ctx, and the body finished what it had: its
		// output says how far it got.
		waitErr = nil
	}
	if len(bytes.TrimSpace(r.record)) > 0 {
		var e Error
		if err := json.Unmarshal(r.record, &e); err != nil {
			return fmt.Errorf("vclock: unreadable error record from the virtual-clock process: %q", r.record)
		}
		if c := strings.TrimSpace(r.chatter); strings.Contains(c, "--- FAIL") {
			e.Message += ":\n" + c // testing's report: a deadlock, a panic
		}
		return &e
	}
	if waitErr != nil && ctx.Err() != nil {
		// Interrupted before the child could say how far it got.
		return &Error{Message: fmt.Sprintf("interrupted (%v)", waitErr), Code: 130}
	}
	if waitErr != nil {
		msg := strings.TrimSpace(r.chatter)
		if msg != "" {
			msg = ":\n" + msg
		}
		return fmt.Errorf("vclock: the virtual-clock process running %s failed: %w%s", name, waitErr, msg)
	}
	if r.copyErr != nil {
		return fmt.Errorf("vclock: copying the output of %s: %w", name, r.copyErr)
	}
	return nil
}

// stopGrace is how long a child told to stop (ctx ended) has to hand back
// how far it got before it is killed.
const stopGrace = 10 * time.Second

// stopOnCancel tells the child to stop (stop) when ctx ends, also when it
// had ended before the child started, and kills it (kill) if it has not
// exited stopGrace later. It returns when exited is closed.
func stopOnCancel(ctx context.Context, exited <-chan struct{}, stop func(), kill func() error) {
	select {
	case <-exited:
		return
	case <-ctx.Done():
		stop()
	}
	grace := time.NewTimer(stopGrace)
	defer grace.Stop()
	select {
	case <-exited:
	case <-grace.C:
		_ = kill()
	}
}

// childGODEBUG returns env with adaptivestackstart=0 added to its GODEBUG
// unless that names it already. By default a new goroutine's stack starts
// at the average size stacks have grown to, and a drill's are deep (the
// SDK, net/http, the fake model): each of the small goroutines net/http
// starts per attempt with a time limit then starts that big too, about a
// sixth of a large virtual drill's stack memory. The deep goroutines are
// reused from email to email, so they keep the stacks they grew.
func childGODEBUG(env []string) []string {
	out := make([]string, 0, len(env)+1)
	found := false
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GODEBUG="); ok {
			found = true
			switch {
			case v == "":
				kv = "GODEBUG=adaptivestackstart=0"
			case !strings.Contains(v, "adaptivestackstart="):
				kv += ",adaptivestackstart=0"
			}
		}
		out = append(out, kv)
	}
	if !found {
		out = append(out, "GODEBUG=adaptivestackstart=0")
	}
	return out
}

// Main makes this process a virtual-clock child if EnvChild is set: it runs
// the body named there and exits. Otherwise it returns at once. Call it
// first thing in main, and in TestMain of any test package that uses Call,
// since Call re-executes the running binary.
func Main() {
	name, ok := os.LookupEnv(EnvChild)
	if !ok {
		return
	}
	os.Exit(serve(name))
}

// serve runs body name as the child: input on stdin, output on fd 3, an
// error record on fd 4. It returns the exit code.
func serve(name string) int {
	out := os.NewFile(3, "vclock-output")
	errOut := os.NewFile(4, "vclock-error")
	if !isPipe(out) || !isPipe(errOut) {
		fmt.Fprintf(os.Stderr, "drill: %s is set, but this process was not started by drill's --clock virtual (fd 3 and 4 are not its pipes); unset it\n", EnvChild)
		return 2
	}
	defer out.Close()
	defer errOut.Close()
	fail := func(code int, err error) int {
		e := &Error{Message: err.Error(), Code: code}
		if ec, ok := errors.AsType[exit.Coder](err); ok {
			e.Code = ec.ExitCode()
		}
		_ = json.NewEncoder(errOut).Encode(e)
		return e.Code
	}
	body := lookup(name)
	if body == nil {
		return fail(1, fmt.Errorf("vclock: no body registered as %q in this binary", name))
	}
	in, err := io.ReadAll(os.Stdin)
	if err != nil {
		return fail(1, fmt.Errorf("vclock: reading the input of %s: %w", name, err))
	}

	if !gcSetByEnv() {
		// A virtual-clock process is a batch job beside drill itself: it
		// trades some CPU for a heap that grows to 1.5× what it holds
		// rather than 2× (GOGC=100), so that it and a real-clock run
		// playing beside it stay small together.
		debug.SetGCPercent(sharedGCPercent)
		gcChosen.Store(true) // a body may choose otherwise (setGCPercent)
	}
	stop := &atomic.Bool{}
	unwatch := watchSignals(stop)
	defer unwatch()
	watchStopPipe(os.NewFile(5, "vclock-stop"), stop)

	var bodyErr error
	ran := false
	code, err := runInBubble(func(t *testing.T) {
		ran = true
		ctx, done := watchStop(t.Context(), stop)
		defer done()
		bodyErr = body(ctx, in, out)
	})
	if err != nil {
		return fail(1, err)
	}
	if code != 0 || !ran {
		return fail(1, fmt.Errorf("vclock: the virtual-clock run of %s failed (exit %d): a goroutine was left blocked in the bubble or the body panicked", name, code))
	}
	if bodyErr != nil {
		return fail(1, bodyErr)
	}
	return 0
}

// isPipe reports whether f is an open pipe, as Call's fd 3 and 4 are.
func isPipe(f *os.File) bool {
	if f == nil {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeNamedPipe != 0
}

// watchSignals sets stop on SIGINT or SIGTERM. The child keeps catching
// them until it exits: a Ctrl-C at the terminal reaches both drill and its
// child, and drill then forwards its own interrupt, which must not kill the
// child before it has handed back how far its drills got. (A second Ctrl-C
// still ends drill itself at once; the child, told to stop, follows within
// a poll.)
func watchSignals(stop *atomic.Bool) (unwatch func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-ch:
				stop.Store(true)
			case <-quit:
				return
			}
		}
	})
	return func() {
		signal.Stop(ch)
		close(quit)
		wg.Wait()
	}
}

// watchStopPipe sets stop when the parent's end of the stop pipe (fd 5)
// closes: the parent asks the child to stop so, or the parent died. The
// read never returns data; its end is the message.
func watchStopPipe(f *os.File, stop *atomic.Bool) {
	if !isPipe(f) {
		return
	}
	go func() {
		_, _ = io.Copy(io.Discard, f)
		stop.Store(true)
	}()
}

// watchStop returns a context of the bubble that ends when stop is set, as
// seen every PollInterval of virtual time, and a function to call when the
// body is done. It must be called inside the bubble.
func watchStop(parent context.Context, stop *atomic.Bool) (context.Context, func()) {
	ctx, cancel := context.WithCancel(parent)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(PollInterval)
		defer tick.Stop()
		limit := time.NewTimer(pollLimit)
		defer limit.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-limit.C:
				return
			case <-tick.C:
				if stop.Load() {
					cancel()
					return
				}
			}
		}
	})
	return stopAware{ctx, stop}, func() {
		close(done)
		wg.Wait()
		cancel()
	}
}

// stopAware is the bubble's context, whose Err reports a stop the moment
// it is asked, before the next poll ends Done. Virtual time stands still
// while a goroutine of the bubble computes (a prediction over a million
// emails), so the poll that would end Done waits for the computation; one
// that looks at Err as it goes stops at once. Done ends at the next poll.
type stopAware struct {
	context.Context
	stop *atomic.Bool
}

// Err is context.Canceled once the stop is set, else the context's Err.
func (c stopAware) Err() error {
	if c.stop.Load() {
		return context.Canceled
	}
	return c.Context.Err()
}
