package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/control"
)

// fakeTarget records the commands it gets and answers with err.
type fakeTarget struct {
	got []control.Command
	err error
}

func (f *fakeTarget) Apply(c control.Command) error {
	f.got = append(f.got, c)
	return f.err
}

func (f *fakeTarget) Outages() []control.Outage {
	if len(f.got) == 0 || f.err != nil {
		return nil
	}
	return []control.Outage{{Window: event.Window{FaultSpec: event.FaultSpec{Kind: "hang"}, To: -1}}}
}

// call sends one request from remote to h and returns the status and body.
func call(h http.Handler, method, path, remote string, body string, header map[string]string) (int, string) {
	r := httptest.NewRequest(method, path, strings.NewReader(body))
	r.RemoteAddr = remote
	for k, v := range header {
		r.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w.Code, w.Body.String()
}

const local, far = "127.0.0.1:5000", "192.0.2.7:5000"

func TestTokenRules(t *testing.T) {
	open := Handler(Options{Target: &fakeTarget{}, Name: "proxy"})
	if code, body := call(open, http.MethodGet, "/status", far, "", nil); code != http.StatusUnauthorized || !strings.Contains(body, `"error":`) {
		t.Errorf("no token, a far client: %d %s, want 401 with an error", code, body)
	}
	if code, _ := call(open, http.MethodGet, "/status", local, "", nil); code != http.StatusOK {
		t.Errorf("no token, a loopback client: %d, want 200", code)
	}
	locked := Handler(Options{Target: &fakeTarget{}, Name: "proxy", Token: "s3cret"})
	for _, tc := range []struct {
		auth string
		want int
	}{{"", 401}, {"Bearer wrong", 401}, {"s3cret", 401}, {"Bearer s3cret", 200}} {
		if code, _ := call(locked, http.MethodGet, "/status", far, "", map[string]string{"Authorization": tc.auth}); code != tc.want {
			t.Errorf("Authorization %q: %d, want %d", tc.auth, code, tc.want)
		}
	}
}

func TestCheckListen(t *testing.T) {
	for addr, ok := range map[string]bool{"127.0.0.1:8475": true, "[::1]:8475": true, "localhost:8475": true,
		":8475": false, "0.0.0.0:8475": false, "10.1.2.3:8475": false} {
		err := CheckListen(addr, "")
		if (err == nil) != ok || (err != nil && !errors.Is(err, ErrNeedsToken)) {
			t.Errorf("CheckListen(%q) without a token = %v, want ok %v", addr, err, ok)
		}
		if err := CheckListen(addr, "s3cret"); err != nil {
			t.Errorf("CheckListen(%q) with a token = %v", addr, err)
		}
	}
	if _, err := Listen("0.0.0.0:0", Options{Target: &fakeTarget{}}); !errors.Is(err, ErrNeedsToken) {
		t.Errorf("Listen on every interface without a token: %v, want ErrNeedsToken", err)
	}
}

func TestStartCarriesTheCommand(t *testing.T) {
	ft := &fakeTarget{}
	h := Handler(Options{Target: ft, Name: "proxy"})
	code, body := call(h, http.MethodPost, "/outages", local, `{"kind":"hang","for":"30s","params":{"rate":"0.5"},"models":["a"],"id":"x1"}`,
		map[string]string{control.AsHeader: "ana"})
	if code != http.StatusOK {
		t.Fatalf("POST /outages: %d %s", code, body)
	}
	var reply control.Reply
	if err := json.Unmarshal([]byte(body), &reply); err != nil || reply.ID != "x1" || reply.Who != "ana@"+local || len(reply.Outages) != 1 {
		t.Errorf("reply %s (%v), want id x1 from ana@%s with one outage", body, err, local)
	}
	c := ft.got[0]
	if c.Op != control.OpStart || c.Fault.Kind != "hang" || c.Fault.Params["rate"] != "0.5" || c.For != 30*time.Second || c.Models[0] != "a" || c.Who != "ana@"+local {
		t.Errorf("command %+v", c)
	}
	call(h, http.MethodDelete, "/outages", local, "", nil)
	if stop := ft.got[1]; stop.Op != control.OpStop || stop.ID == "" || stop.Who != local {
		t.Errorf("stop %+v, want a stop with an id made for it, from %s", stop, local)
	}
}

func TestErrorsAreJSONWithTheirStatus(t *testing.T) {
	for _, tc := range []struct {
		name, method, path, body string
		header                   map[string]string
		err                      error
		want                     int
	}{
		{"unknown key", "POST", "/outages", `{"kind":"hang","bogus":1}`, nil, nil, 400},
		{"not json", "POST", "/outages", `kind=hang`, nil, nil, 400},
		{"bad for", "POST", "/outages", `{"kind":"hang","for":"soon"}`, nil, nil, 400},
		{"bad name", "POST", "/outages", `{"kind":"hang"}`, map[string]string{control.AsHeader: "a b"}, nil, 400},
		{"too big", "POST", "/outages", `{"kind":"` + strings.Repeat("h", control.MaxBody) + `"}`, nil, nil, 413},
		{"invalid", "POST", "/outages", `{"kind":"flood"}`, nil, fmt.Errorf("%w: unknown kind", control.ErrInvalid), 400},
		{"conflict", "POST", "/outages", `{"kind":"hang"}`, nil, fmt.Errorf("%w: busy", control.ErrConflict), 409},
		{"limit", "POST", "/outages", `{"kind":"hang"}`, nil, control.ErrLimit, 429},
		{"closed", "POST", "/outages", `{"kind":"hang"}`, nil, control.ErrClosed, 503},
		{"nothing to stop", "DELETE", "/outages", "", nil, control.ErrNoOutage, 404},
		{"no such path", "GET", "/toxics", "", nil, nil, 404},
		{"wrong method", "PUT", "/outages", "", nil, nil, 405},
		{"wrong method on status", "POST", "/status", "", nil, nil, 405},
	} {
		h := Handler(Options{Target: &fakeTarget{err: tc.err}, Name: "run"})
		code, body := call(h, tc.method, tc.path, local, tc.body, tc.header)
		var e control.ErrorBody
		if code != tc.want || json.Unmarshal([]byte(body), &e) != nil || e.Error == "" {
			t.Errorf("%s: %d %s, want %d with {\"error\": ...}", tc.name, code, body, tc.want)
		}
	}
}

func TestStatusAndSchedule(t *testing.T) {
	ws := []event.Window{{FaultSpec: event.FaultSpec{Kind: "busy"}, From: 10 * time.Second, To: 30 * time.Second}}
	h := Handler(Options{Target: &fakeTarget{}, Name: "proxy", Windows: ws, Start: time.Now().Add(-time.Minute),
		Figures: func() []control.Figure { return []control.Figure{{Key: "requests", Value: 7, Unit: control.UnitCount}} }})
	_, body := call(h, http.MethodGet, "/status", local, "", nil)
	var st control.Status
	if err := json.Unmarshal([]byte(body), &st); err != nil || st.Target != "proxy" || st.Elapsed < time.Minute ||
		len(st.Figures) != 1 || st.Figures[0].Value != 7 || st.Outages == nil {
		t.Errorf("status %s (%v)", body, err)
	}
	_, body = call(h, http.MethodGet, "/schedule", local, "", nil)
	var sc control.Schedule
	if err := json.Unmarshal([]byte(body), &sc); err != nil || len(sc.Windows) != 1 || sc.Windows[0].To != 30*time.Second {
		t.Errorf("schedule %s (%v)", body, err)
	}
}
