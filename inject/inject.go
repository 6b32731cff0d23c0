// Package inject applies outages to HTTP attempts, below the SDK: an
// http.RoundTripper that looks up the outage window each attempt starts in
// and hands the attempt to that window's fault. The SDK's retries, the chain
// and the breaker then see real errors. Each fault kind is one small file
// behind the Fault interface, registered by name (toxiproxy's toxics).
package inject

import (
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"
)

// Fault applies one kind of failure to one HTTP attempt. next is the
// transport to the model, for faults that let the request through.
type Fault interface {
	Apply(req *http.Request, next http.RoundTripper) (*http.Response, error)
}

var registry = map[string]Fault{}

// register adds a fault kind; called from each fault's file.
func register(name string, f Fault) { registry[name] = f }

// Kinds lists the registered fault kinds, sorted.
func Kinds() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Lookup returns the fault registered under kind, or an error listing the
// valid kinds.
func Lookup(kind string) (Fault, error) {
	f, ok := registry[kind]
	if !ok {
		return nil, fmt.Errorf("unknown outage kind %q (valid: %s)", kind, strings.Join(Kinds(), ", "))
	}
	return f, nil
}

// Window is one outage: attempts that start at an offset in [From, To)
// from the schedule's start get the fault Kind. To < 0 means open-ended
// (an outage started by hand and not yet ended).
type Window struct {
	Kind     string
	From, To time.Duration
}

// Contains reports whether an attempt starting at offset at falls inside.
func (w Window) Contains(at time.Duration) bool {
	return at >= w.From && (w.To < 0 || at < w.To)
}

// Injector is the fault-injecting http.RoundTripper. It is safe for
// concurrent use; windows can be added and ended while requests run.
type Injector struct {
	next    http.RoundTripper
	start   time.Time
	onFault func(req *http.Request, kind string)

	mu      sync.Mutex
	windows []Window
}

// New returns an injector in front of next whose window offsets count from
// start. onFault, if not nil, is called for every fault applied, before it
// takes effect.
func New(next http.RoundTripper, start time.Time, onFault func(req *http.Request, kind string)) *Injector {
	return &Injector{next: next, start: start, onFault: onFault}
}

// Add schedules a window. Its kind must be registered.
func (i *Injector) Add(w Window) error {
	if _, err := Lookup(w.Kind); err != nil {
		return err
	}
	if w.To >= 0 && w.To <= w.From {
		return fmt.Errorf("outage window %s–%s: the end must come after the start", w.From, w.To)
	}
	i.mu.Lock()
	defer i.mu.Unlock()
	i.windows = append(i.windows, w)
	return nil
}

// EndAt ends every window active at offset at, at that offset. It reports
// whether one was active.
func (i *Injector) EndAt(at time.Duration) bool {
	i.mu.Lock()
	defer i.mu.Unlock()
	ended := false
	for k, w := range i.windows {
		if w.Contains(at) {
			i.windows[k].To = at
			ended = true
		}
	}
	return ended
}

// Active returns the window active at offset at, if any. When windows
// overlap (an outage started by hand inside a scheduled one), the newest
// wins.
func (i *Injector) Active(at time.Duration) (Window, bool) {
	i.mu.Lock()
	defer i.mu.Unlock()
	for k := len(i.windows) - 1; k >= 0; k-- {
		if w := i.windows[k]; w.Contains(at) {
			return w, true
		}
	}
	return Window{}, false
}

// RoundTrip implements http.RoundTripper.
func (i *Injector) RoundTrip(req *http.Request) (*http.Response, error) {
	w, ok := i.Active(time.Since(i.start))
	if !ok {
		return i.next.RoundTrip(req)
	}
	f := registry[w.Kind]
	if i.onFault != nil {
		i.onFault(req, w.Kind)
	}
	return f.Apply(req, i.next)
}
