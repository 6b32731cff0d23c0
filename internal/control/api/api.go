// Package api is the control API a long-running drill serves on
// --control-listen (drill proxy, drill run on the real clock): a small
// REST API modelled on Toxiproxy's. GET /schedule lists the outage
// timeline and the outages active, GET /status the live figures, POST
// /outages starts an outage now and DELETE /outages ends every active one.
// drill ctl (internal/control/client) is its client.
package api

import (
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/control"
	"github.com/drill-dev/drill/internal/listen"
)

// Target is what the API steers: a proxy or a run.
type Target interface {
	// Apply applies a command (errors wrap control's: ErrInvalid,
	// ErrNoOutage, ErrConflict, ErrLimit, ErrClosed).
	Apply(cmd control.Command) error
	// Outages returns the outages active now.
	Outages() []control.Outage
}

// Options configure the API.
type Options struct {
	// Target is what commands steer. Required.
	Target Target
	// Name says what the target is: "proxy" or "run".
	Name string
	// Windows are the scheduled outage windows.
	Windows []event.Window
	// Start is when the target's run started.
	Start time.Time
	// Figures returns the live figures from the run's fold; nil: none.
	Figures func() []control.Figure
	// Token, if set, is the bearer token every request must carry.
	// Without it only loopback clients are served.
	Token string
}

// Listen serves the API on addr until the server is closed, with
// listen's limits (header, body and idle timeouts, a connection cap). An
// address that is not loopback needs a token (CheckListen).
func Listen(addr string, o Options) (*listen.Server, error) {
	if err := CheckListen(addr, o.Token); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("control API: listening on %s: %w", addr, err)
	}
	return Serve(ln, o), nil
}

// Serve serves the API on ln until the server is closed, with every drill
// listener's limits (listen.DefaultLimits: header, body and idle timeouts,
// a connection cap, healthy clients served first). The caller has checked
// the address (CheckListen).
func Serve(ln net.Listener, o Options) *listen.Server {
	return listen.Serve(ln, Handler(o))
}

// ErrNeedsToken is a non-loopback address to listen on without a token.
var ErrNeedsToken = errors.New("is not a loopback address: the control API needs a bearer token there")

// CheckListen refuses a non-loopback addr without a token.
func CheckListen(addr, token string) error {
	if token == "" && !Loopback(addr) {
		return fmt.Errorf("%s %w", addr, ErrNeedsToken)
	}
	return nil
}

// Loopback reports whether addr (HOST:PORT) names a loopback host:
// localhost or a loopback IP. An empty host (every interface) is not.
func Loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// Handler is the API's handler.
func Handler(o Options) http.Handler {
	s := &server{o: o}
	mux := http.NewServeMux()
	mux.HandleFunc("/schedule", s.only(http.MethodGet, s.schedule))
	mux.HandleFunc("/status", s.only(http.MethodGet, s.status))
	mux.HandleFunc("/outages", func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodPost:
			s.start(w, r)
		case http.MethodDelete:
			s.stop(w, r)
		default:
			w.Header().Set("Allow", "POST, DELETE")
			writeError(w, http.StatusMethodNotAllowed, fmt.Sprintf("%s /outages: use POST to start an outage, DELETE to end it", r.Method))
		}
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, fmt.Sprintf("no such endpoint %s (endpoints: GET /schedule, GET /status, POST /outages, DELETE /outages)", r.URL.Path))
	})
	return s.auth(mux)
}

type server struct{ o Options }

// auth lets a request through with the right bearer token or, without a
// token set, from a loopback client only.
func (s *server) auth(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.o.Token == "" {
			if !Loopback(r.RemoteAddr) {
				writeError(w, http.StatusUnauthorized, "this control API serves loopback clients only (it has no token)")
				return
			}
			next.ServeHTTP(w, r)
			return
		}
		got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || subtle.ConstantTimeCompare([]byte(got), []byte(s.o.Token)) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="drill"`)
			writeError(w, http.StatusUnauthorized, "missing or wrong bearer token")
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (s *server) only(method string, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method != method {
			w.Header().Set("Allow", method)
			writeError(w, http.StatusMethodNotAllowed, fmt.Sprintf("%s %s: use %s", r.Method, r.URL.Path, method))
			return
		}
		h(w, r)
	}
}

func (s *server) schedule(w http.ResponseWriter, _ *http.Request) {
	ws := s.o.Windows
	if ws == nil {
		ws = []event.Window{}
	}
	writeJSON(w, http.StatusOK, control.Schedule{Target: s.o.Name, Windows: ws, Outages: s.outages()})
}

func (s *server) status(w http.ResponseWriter, _ *http.Request) {
	st := control.Status{Target: s.o.Name, Elapsed: time.Since(s.o.Start), Outages: s.outages(), Figures: []control.Figure{}}
	if s.o.Figures != nil {
		st.Figures = s.o.Figures()
	}
	writeJSON(w, http.StatusOK, st)
}

func (s *server) outages() []control.Outage {
	if o := s.o.Target.Outages(); o != nil {
		return o
	}
	return []control.Outage{}
}

// writeJSON answers v as JSON with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "encoding the answer: "+err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}

// writeError answers {"error": msg} with status.
func writeError(w http.ResponseWriter, status int, msg string) {
	b, _ := json.Marshal(control.ErrorBody{Error: msg})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}
