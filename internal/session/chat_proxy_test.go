package session

import (
	"context"
	"net"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/chat"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/proxy"
	"github.com/drill-dev/drill/scoring"
)

// toProxy sends every request to the proxy at base, over a real socket.
type toProxy struct{ base *url.URL }

func (t toProxy) RoundTrip(req *http.Request) (*http.Response, error) {
	r := req.Clone(req.Context())
	r.URL.Scheme, r.URL.Host = t.base.Scheme, t.base.Host
	r.Host = t.base.Host
	return http.DefaultTransport.RoundTrip(r)
}

// chatThroughProxy runs a small chat drill whose model calls go through a
// drill proxy (upstream the fake model, no latency) with windows, and
// returns the drill's figures and the proxy's log.
func chatThroughProxy(t *testing.T, pol chat.Policy, windows []event.Window) (scoring.ChatSummary, []event.Event) {
	t.Helper()
	up, _ := url.Parse("http://fake.invalid/v1")
	p, err := proxy.New(proxy.Options{Upstream: up, Transport: fakemodel.New(fakemodel.Options{NoLatency: true}).Transport(),
		Windows: windows, Models: []string{chat.DefaultPrimaryModel}})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- proxy.Serve(ctx, ln, p, proxy.Limits{ShutdownGrace: 100 * time.Millisecond}) }()

	cfg := chat.DefaultConfig()
	cfg.Conversations, cfg.Rate = 8, 20
	cfg.Policy = pol
	// A quiet profile: the only faults are the proxy's (a slow stream of
	// the profile's would take tens of seconds of real time).
	cfg.Profile.Primary, cfg.Profile.Fallback = chat.ModelProfile{}, chat.ModelProfile{}
	base, _ := url.Parse("http://" + ln.Addr().String())
	cfg.Models = toProxy{base}
	run, err := chat.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if status := run.Start(t.Context()); status != event.StatusCompleted {
		t.Fatalf("the chat drill ended %s", status)
	}
	cancel()
	if err := <-served; err != nil {
		t.Errorf("Serve: %v", err)
	}
	p.Close("test over")
	return scoring.FoldChat(run.Log().Events()), p.Log().Events()
}

// drill proxy carries the chat workload: the agent's streamed tool calls
// pass through it (conversations get answered, so get_order's arguments
// arrived whole), and an outage on the proxy reaches the chat policy's
// checks (the status breaker opens and the fallback answers).
func TestChatThroughTheProxy(t *testing.T) {
	defaults, err := chat.PolicyByName(chat.PresetDefaults)
	if err != nil {
		t.Fatal(err)
	}
	sum, evs := chatThroughProxy(t, defaults, nil)
	if sum.Conversations != 8 || sum.Answered != 8 || sum.ToolCalls < sum.Answered {
		t.Errorf("through a quiet proxy: %+v; want all 8 answered, with their tool calls", sum)
	}
	attempts := 0
	for _, e := range evs {
		if e.Kind == event.AttemptEnd && e.Outcome == event.OK {
			attempts++
		}
	}
	if attempts != sum.ModelAttempts {
		t.Errorf("the proxy answered %d attempts, the drill made %d", attempts, sum.ModelAttempts)
	}

	withBreaker, err := chat.PolicyByName(chat.PresetBreaker)
	if err != nil {
		t.Fatal(err)
	}
	b := *withBreaker.Breaker
	b.Cooldown = time.Second // the trial call comes within the test's seconds
	withBreaker.Breaker = &b
	busy := []event.Window{{FaultSpec: event.FaultSpec{Kind: "busy"}, From: 0, To: 2 * time.Second}}
	sum, evs = chatThroughProxy(t, withBreaker, busy)
	if sum.BreakerOpens["primary"] < 1 || sum.FallbackCalls == 0 || sum.Answered == 0 {
		t.Errorf("a busy primary behind the proxy: %+v; want the status breaker open and the fallback answering", sum)
	}
	faults := 0
	for _, e := range evs {
		if e.Kind == event.Fault {
			faults++
		}
	}
	if faults < 5 {
		t.Errorf("the proxy injected %d faults, want at least the 5 that open the breaker", faults)
	}
}
