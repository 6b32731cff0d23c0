package scoring

import (
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/sdkprofile"
)

// ProxyRequest is one finished request through drill proxy, as its log line
// shows it.
type ProxyRequest struct {
	ID      int
	At      time.Duration // arrival, from the proxy's start
	Method  string
	Path    string
	Model   string
	Stream  bool
	Retry   int // the client SDK's retry count (X-Stainless-Retry-Count)
	Status  int // 0 without a response
	Outcome event.Outcome
	Fault   string // the fault applied, "" for none
	Wait    time.Duration
	TTFT    time.Duration // 0 when no token came
	In, Out int           // tokens the upstream reported
	Cost    float64       // what they cost, 0 without a price
	Detail  string
}

// MaxProxyFailedKept is how many failed requests a ProxyTally keeps.
const MaxProxyFailedKept = 10

// A proxy's clients name the models and their client libraries, so a
// tally keeps at most MaxProxyModels models and MaxProxyClients clients;
// requests past them are tallied as OtherModels and OtherClients.
const (
	MaxProxyModels  = 1000
	MaxProxyClients = 100
	OtherModels     = "(other models)"
	OtherClients    = "(other clients)"
)

// ProxyTally folds a proxy's log: the requests that finished, per model. It is
// the fold behind the request lines and the closing summary. A ProxyTally is not
// safe for concurrent use.
type ProxyTally struct {
	faults   map[int]string // request ID -> fault applied, until it finishes
	Requests int            // finished requests
	Failed   int            // finished requests whose outcome was not ok
	// FirstFailed are the first MaxProxyFailedKept failed requests, in the
	// order they finished. A tally's memory does not grow with requests.
	FirstFailed []ProxyRequest
	Models      map[string]*ProxyModelTally
	// Clients are the requests per client library, by its label
	// ("openai-node 7.60.0", "unknown client").
	Clients map[string]*ProxyClientTally
	// Windows are the outage windows that opened and closed, in the order
	// they closed.
	Windows []ProxyWindow
	// Active is the outage window open now, if any (Fault "" for none).
	Active ProxyOutage
	open   map[string]time.Duration
	// Ended is the run_end's detail; Closed is true once run_end is folded.
	Ended  string
	Closed bool
	// Fleet is the proxy's place in a fleet (drill proxy --coordinate):
	// its link to Redis and the members it marked lost; zero alone.
	Fleet ProxyFleetLink
}

// ProxyFleetLink is what a fleet member's own log says of the fleet: its
// link to Redis and the other members it marked lost.
type ProxyFleetLink struct {
	// Down is true while the link is down; Downs counts the times it went
	// down.
	Down  bool
	Downs int
	// Held and Dropped are the events held while the link was down and
	// sent since, and those dropped from a full buffer.
	Held, Dropped int
	// Lost are the members this one marked lost, in order.
	Lost []string
}

// ProxyWindow is one outage window of drill proxy, opened and closed.
type ProxyWindow struct {
	Fault      string
	Start, End time.Duration // offsets from the proxy's start
}

// ProxyOutage is an outage window of drill proxy opening (or, with Ended,
// closing) at At.
type ProxyOutage struct {
	Fault  string
	At     time.Duration
	ByHand bool // started or ended by hand
	Ended  bool // the window closed; false: it opened
}

// ProxyStep is what one event changed in a proxy's tally: a request that
// finished, an outage window that opened or closed, or neither (both nil).
type ProxyStep struct {
	Request *ProxyRequest
	Outage  *ProxyOutage
}

// ProxyModelTally counts the finished requests that named one model.
type ProxyModelTally struct {
	Calls    int
	Failed   int                   // anything but ok
	Outcomes map[event.Outcome]int // failed calls by outcome
	Faults   int                   // calls the proxy faulted
	In, Out  int                   // tokens
	Cost     float64               // what the tokens cost, by the price table
}

// MaxProxyGapsKept is how many retry gaps a client's tally keeps.
const MaxProxyGapsKept = 8

// ProxyClientTally is what one client library did through the proxy, as
// its requests' headers name it (event.ProxyCall's SDK fields).
type ProxyClientTally struct {
	Label        string // "openai-node 7.60.0", or "unknown client"
	SDK, Version string
	// Timeout is the time limit the client declared last (0: none).
	Timeout time.Duration
	// Calls are its requests with retry count 0, Retries those above 0;
	// Requests those that finished, Failed those that did not end ok.
	Calls, Retries, Requests, Failed int
	Outcomes                         map[event.Outcome]int
	// RetryGaps are the waits before its first MaxProxyGapsKept retries:
	// from the end of the client's previous request to the retry's
	// arrival.
	RetryGaps []time.Duration
	// Fault and FaultParams are the last fault the proxy applied to its
	// requests, Stream whether that request asked for a stream ("": none
	// yet).
	Fault       string
	FaultParams map[string]string
	Stream      bool
	lastEnd     time.Duration
	ended       bool
}

// NewProxyTally returns an empty proxy tally.
func NewProxyTally() *ProxyTally {
	return &ProxyTally{faults: map[int]string{}, Models: map[string]*ProxyModelTally{}, Clients: map[string]*ProxyClientTally{},
		open: map[string]time.Duration{}}
}

// client returns the tally of the client a request names, made on first sight.
func (t *ProxyTally) client(p *event.ProxyCall) *ProxyClientTally {
	c := sdkprofile.Client{Package: p.SDK, Version: p.SDKVersion}
	label, sdk, version := c.Label(), p.SDK, p.SDKVersion
	if t.Clients[label] == nil && len(t.Clients) >= MaxProxyClients {
		label, sdk, version = OtherClients, "", ""
	}
	ct := t.Clients[label]
	if ct == nil {
		ct = &ProxyClientTally{Label: label, SDK: sdk, Version: version, Outcomes: map[event.Outcome]int{}}
		t.Clients[label] = ct
	}
	return ct
}

// Add folds one event; it returns the request an attempt_end finished, if
// the event is one.
func (t *ProxyTally) Add(e event.Event) (ProxyRequest, bool) {
	if s := t.Step(e); s.Request != nil {
		return *s.Request, true
	}
	return ProxyRequest{}, false
}

// Step folds one event and says what it changed: the request log lines and
// the proxy's dashboard read outage state from here, not from the events.
func (t *ProxyTally) Step(e event.Event) ProxyStep {
	switch e.Kind {
	case event.Fault:
		if e.Proxy != nil {
			t.faults[e.Proxy.ID] = e.Fault
			c := t.client(e.Proxy)
			c.Fault, c.FaultParams, c.Stream = e.Fault, e.FaultParams, e.Proxy.Stream
		}
	case event.AttemptStart:
		if e.Proxy == nil {
			break
		}
		c := t.client(e.Proxy)
		c.Timeout = e.Proxy.SDKTimeout
		if e.Attempt == 0 {
			c.Calls++
			break
		}
		c.Retries++
		if c.ended && len(c.RetryGaps) < MaxProxyGapsKept {
			c.RetryGaps = append(c.RetryGaps, max(e.At-c.lastEnd, 0))
		}
	case event.OutageStart:
		t.open[e.Fault] = e.At
		t.Active = ProxyOutage{Fault: e.Fault, At: e.At, ByHand: e.Detail == event.ByHand}
		o := t.Active
		return ProxyStep{Outage: &o}
	case event.OutageEnd:
		t.Windows = append(t.Windows, ProxyWindow{Fault: e.Fault, Start: t.open[e.Fault], End: e.At})
		delete(t.open, e.Fault)
		t.Active = ProxyOutage{}
		return ProxyStep{Outage: &ProxyOutage{Fault: e.Fault, At: e.At, ByHand: e.Detail == event.ByHand, Ended: true}}
	case event.RunEnd:
		t.Ended, t.Closed = e.Detail, true
	case event.FleetLink, event.MemberLost:
		t.Fleet.add(e)
	case event.AttemptEnd:
		if e.Proxy != nil {
			r := t.attemptEnd(e)
			return ProxyStep{Request: &r}
		}
	}
	return ProxyStep{}
}

// attemptEnd folds a request's end (e.Proxy set): the request, its
// client's counts and its model's, and returns the request.
func (t *ProxyTally) attemptEnd(e event.Event) ProxyRequest {
	r := ProxyRequest{ID: e.Proxy.ID, At: e.At - e.Proxy.Wait, Method: e.Proxy.Method, Path: e.Proxy.Path, Model: e.Model,
		Stream: e.Proxy.Stream, Retry: e.Attempt, Status: e.Status, Outcome: e.Outcome, Fault: t.faults[e.Proxy.ID],
		Wait: e.Proxy.Wait, TTFT: e.Proxy.TTFT, In: e.Proxy.InputTokens, Out: e.Proxy.OutputTokens, Cost: e.Proxy.Cost, Detail: e.Detail}
	delete(t.faults, e.Proxy.ID)
	t.Requests++
	c := t.client(e.Proxy)
	c.Requests++
	c.lastEnd, c.ended = e.At, true
	if r.Outcome != event.OK {
		c.Failed++
		c.Outcomes[r.Outcome]++
		t.Failed++
		if len(t.FirstFailed) < MaxProxyFailedKept {
			t.FirstFailed = append(t.FirstFailed, r)
		}
	}
	t.modelTally(r)
	return r
}

// modelTally adds a request to its model's tally.
func (t *ProxyTally) modelTally(r ProxyRequest) {
	name := r.Model
	if name == "" {
		name = "(no model)"
	}
	if t.Models[name] == nil && len(t.Models) >= MaxProxyModels {
		name = OtherModels
	}
	m := t.Models[name]
	if m == nil {
		m = &ProxyModelTally{Outcomes: map[event.Outcome]int{}}
		t.Models[name] = m
	}
	m.Calls++
	m.In += r.In
	m.Out += r.Out
	m.Cost += r.Cost
	if r.Fault != "" {
		m.Faults++
	}
	if r.Outcome != event.OK {
		m.Failed++
		m.Outcomes[r.Outcome]++
	}
}

// add folds a fleet_link or member_lost event of the member's own log.
func (l *ProxyFleetLink) add(e event.Event) {
	switch {
	case e.Kind == event.MemberLost && e.Fleet != nil:
		l.Lost = append(l.Lost, e.Fleet.Lost)
	case e.Detail == event.LinkDown:
		if !l.Down {
			l.Downs++
		}
		l.Down = true
	case e.Detail == event.LinkUp:
		l.Down = false
		if e.Fleet != nil {
			l.Held += e.Fleet.Held
			l.Dropped += e.Fleet.Dropped
		}
	}
}
