package proxyview

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/proxy"
	"github.com/drill-dev/drill/tui"
)

func asciiStyles() tui.Styles {
	r := lipgloss.NewRenderer(nil)
	r.SetColorProfile(termenv.Ascii)
	return tui.NewStyles(r)
}

func newProxy(t *testing.T, ws []event.Window) *proxy.Proxy {
	t.Helper()
	u, _ := url.Parse("http://fake.invalid/v1")
	p, err := proxy.New(proxy.Options{Upstream: u, Windows: ws, Transport: fakemodel.New(fakemodel.Options{NoLatency: true}).Transport()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close("test over") })
	return p
}

func post(p *proxy.Proxy, model string) int {
	req := httptest.NewRequest(http.MethodPost, "/v1/chat/completions",
		strings.NewReader(`{"model":"`+model+`","messages":[{"role":"user","content":"Order DR-123456?"}]}`))
	rec := httptest.NewRecorder()
	p.ServeHTTP(rec, req)
	return rec.Code
}

// TestViewShowsRequestsModelsAndTheOutage: requests appear newest first
// with status, outcome and fault; models with calls and failures; the
// outage now and as scheduled.
func TestViewShowsRequestsModelsAndTheOutage(t *testing.T) {
	p := newProxy(t, []event.Window{{FaultSpec: event.FaultSpec{Kind: "busy"}, From: 0, To: time.Hour}})
	for len(p.Log().Events()) < 2 { // the scheduled outage_start
		time.Sleep(time.Millisecond)
	}
	post(p, fakemodel.ModelMini)
	post(p, fakemodel.ModelMini)
	m := New(asciiStyles(), p.Log(), p, Options{Title: "http://127.0.0.1:8089/v1 -> fake", Schedule: "busy 0s–1h0m0s"})
	m.Update(tickMsg(time.Now()))
	out := Render(m.st, m, 120, 20)
	for _, want := range []string{
		"drill proxy  http://127.0.0.1:8089/v1 -> fake",
		"now: OUTAGE busy (scheduled)   scheduled: busy 0s–1h0m0s",
		"gpt-5.4-mini: 2 calls, 2 failed (http_5xx 2), 2 faulted",
		"Requests (2, newest first)",
		"q quit · o end the outage now",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("view lacks %q:\n%s", want, out)
		}
	}
	if i, j := strings.Index(out, "\n  2 "), strings.Index(out, "\n  1 "); i < 0 || j < 0 || i > j {
		t.Errorf("requests not newest first:\n%s", out)
	}
	if !strings.Contains(out, "503    http_5xx   busy") {
		t.Errorf("a request row lacks status, outcome and fault:\n%s", out)
	}
	for _, l := range strings.Split(out, "\n") {
		if lipgloss.Width(l) > 120 {
			t.Errorf("line wider than 120: %q", l)
		}
	}
	if n := strings.Count(out, "\n") + 1; n != 20 {
		t.Errorf("%d lines, want the height, 20", n)
	}
}

// TestOStartsAndEndsAnOutageByHand: o then 2 starts a hang; o ends it.
func TestOStartsAndEndsAnOutageByHand(t *testing.T) {
	p := newProxy(t, nil)
	m := New(asciiStyles(), p.Log(), p, Options{})
	press := func(k string) {
		var msg tea.KeyMsg
		switch k {
		case "esc":
			msg = tea.KeyMsg{Type: tea.KeyEsc}
		default:
			msg = tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
		}
		m.Update(msg)
		m.Update(tickMsg(time.Now()))
	}
	press("o")
	if !strings.Contains(Render(m.st, m, 100, 12), "1 busy · 2 hang") {
		t.Fatal("o did not offer the outage kinds")
	}
	press("esc")
	press("o")
	press("2")
	if m.tally.Active.Fault != "hang" || !m.tally.Active.ByHand {
		t.Fatalf("after o 2: active %q by hand %v, want hang by hand", m.tally.Active.Fault, m.tally.Active.ByHand)
	}
	press("o")
	if m.tally.Active.Fault != "" {
		t.Fatalf("after o: active %q, want none", m.tally.Active.Fault)
	}
	starts := 0
	for _, e := range p.Log().Events() {
		if e.Kind == event.OutageStart {
			starts++
		}
	}
	if starts != 1 {
		t.Errorf("%d outage starts, want 1 (esc cancelled the first o)", starts)
	}
}

// TestQuitsWhenTheProxyCloses: the view ends with the proxy's log.
func TestQuitsWhenTheProxyCloses(t *testing.T) {
	p := newProxy(t, nil)
	m := New(asciiStyles(), p.Log(), p, Options{})
	p.Close("stopped")
	_, cmd := m.Update(tickMsg(time.Now()))
	if cmd == nil {
		t.Fatal("no command after the log closed")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Fatal("the view did not quit when the proxy closed")
	}
}

// TestViewShowsEachClient: a Node client and a Python client in a busy
// outage: the Clients pane names both, with what each SDK's profile
// predicts and what each did.
func TestViewShowsEachClient(t *testing.T) {
	p := newProxy(t, []event.Window{{FaultSpec: event.FaultSpec{Kind: "busy"}, From: 0, To: time.Hour}})
	for len(p.Log().Events()) < 2 { // the scheduled outage_start
		time.Sleep(time.Millisecond)
	}
	for _, h := range []map[string]string{
		{"X-Stainless-Lang": "js", "X-Stainless-Package-Version": "7.60.0"},
		{"X-Stainless-Lang": "python", "X-Stainless-Package-Version": "2.54.0"},
	} {
		req := httptest.NewRequest(http.MethodPost, "/v1/chat/completions",
			strings.NewReader(`{"model":"`+fakemodel.ModelMini+`","messages":[{"role":"user","content":"hi"}]}`))
		for k, v := range h {
			req.Header.Set(k, v)
		}
		p.ServeHTTP(httptest.NewRecorder(), req)
	}
	m := New(asciiStyles(), p.Log(), p, Options{})
	m.Update(tickMsg(time.Now()))
	out := Render(m.st, m, 200, 30)
	for _, want := range []string{
		"Clients",
		"  openai-node 7.60.0",
		"predicted (busy status=503): an instant 503 and retries after 0.5 s and 1 s",
		"InternalServerError after 1.1–1.5 s",
		"  openai-python 2.54.0",
		"did: 1 call, 0 retries, 1 failed (http_5xx 1)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("view lacks %q:\n%s", want, out)
		}
	}
}

// TestViewShowsTheFleetLink: a fleet member's view says when its link to
// Redis is down and which members it marked lost.
func TestViewShowsTheFleetLink(t *testing.T) {
	p := newProxy(t, nil)
	m := New(asciiStyles(), p.Log(), p, Options{Title: "t", Fleet: "fleet staging as pod-a"})
	p.Log().Append(event.Event{Kind: event.FleetLink, Detail: event.LinkDown, Fleet: &event.FleetNote{Reason: "refused"}})
	m.Update(tickMsg(time.Now()))
	if out := Render(m.st, m, 160, 20); !strings.Contains(out, "fleet staging as pod-a: Redis link DOWN (playing the last known schedule, holding events)") {
		t.Errorf("view lacks the link down:\n%s", out)
	}
	p.Log().Append(event.Event{Kind: event.FleetLink, Detail: event.LinkUp, Fleet: &event.FleetNote{Held: 3}})
	p.Log().Append(event.Event{Kind: event.MemberLost, Fleet: &event.FleetNote{Lost: "pod-c"}})
	m.Update(tickMsg(time.Now()))
	out := Render(m.st, m, 160, 20)
	for _, want := range []string{"Redis link up   went down 1×, 3 events held, 0 dropped", "lost: pod-c"} {
		if !strings.Contains(out, want) {
			t.Errorf("view lacks %q:\n%s", want, out)
		}
	}
}

// TestOOffersTheChatFaults: o offers the chat workload's faults too, and
// o 5 starts a loop by hand.
func TestOOffersTheChatFaults(t *testing.T) {
	p := newProxy(t, nil)
	m := New(asciiStyles(), p.Log(), p, Options{})
	press := func(k string) {
		m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)})
		m.Update(tickMsg(time.Now()))
	}
	press("o")
	if got := Render(m.st, m, 140, 12); !strings.Contains(got, "3 overloaded · 4 malformed-tool-call · 5 loop") {
		t.Fatalf("o offers:\n%s\nwant the chat faults as 3, 4 and 5", got)
	}
	press("5")
	if m.tally.Active.Fault != "loop" || !m.tally.Active.ByHand {
		t.Fatalf("after o 5: active %q by hand %v, want loop by hand", m.tally.Active.Fault, m.tally.Active.ByHand)
	}
}
