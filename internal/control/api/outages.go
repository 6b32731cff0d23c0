package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/drill-dev/drill/internal/control"
)

// start serves POST /outages.
func (s *server) start(w http.ResponseWriter, r *http.Request) {
	who, err := sender(r)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	var body control.Start
	if status, err := readJSON(w, r, &body); err != nil {
		writeError(w, status, err.Error())
		return
	}
	cmd, err := body.Command(who, time.Now())
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	s.apply(w, cmd)
}

// stop serves DELETE /outages (?id=ID names the command).
func (s *server) stop(w http.ResponseWriter, r *http.Request) {
	who, err := sender(r)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	s.apply(w, control.Stop(r.URL.Query().Get("id"), who, time.Now()))
}

// apply applies cmd (with an ID made for it if it has none) and answers
// with the outages active after it, or the error's status.
func (s *server) apply(w http.ResponseWriter, cmd control.Command) {
	if cmd.ID == "" {
		cmd.ID = control.NewID()
	}
	if err := s.o.Target.Apply(cmd); err != nil {
		writeError(w, statusOf(err), err.Error())
		return
	}
	writeJSON(w, http.StatusOK, control.Reply{ID: cmd.ID, Op: cmd.Op, Who: cmd.Who, Outages: s.outages()})
}

// statusOf is the status an Apply error is answered with.
func statusOf(err error) int {
	switch {
	case errors.Is(err, control.ErrInvalid):
		return http.StatusBadRequest
	case errors.Is(err, control.ErrNoOutage):
		return http.StatusNotFound
	case errors.Is(err, control.ErrConflict):
		return http.StatusConflict
	case errors.Is(err, control.ErrLimit):
		return http.StatusTooManyRequests
	case errors.Is(err, control.ErrClosed):
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}

// sender is who sent r: NAME@ADDR with X-Drill-As: NAME, else ADDR.
func sender(r *http.Request) (string, error) {
	name := r.Header.Get(control.AsHeader)
	if name == "" {
		return r.RemoteAddr, nil
	}
	if err := control.CheckName(name); err != nil {
		return "", fmt.Errorf("%s: %w", control.AsHeader, err)
	}
	return name + "@" + r.RemoteAddr, nil
}

// readJSON decodes r's body (at most control.MaxBody bytes, no unknown
// keys) into v; on failure it returns the status to answer.
func readJSON(w http.ResponseWriter, r *http.Request, v any) (int, error) {
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, control.MaxBody))
	if mbe, ok := errors.AsType[*http.MaxBytesError](err); ok {
		return http.StatusRequestEntityTooLarge, fmt.Errorf("the body is larger than %d bytes", mbe.Limit)
	}
	if err != nil {
		return http.StatusBadRequest, fmt.Errorf("reading the body: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return http.StatusBadRequest, fmt.Errorf("the body is not the JSON expected (kind, params, for, models, id): %w", err)
	}
	if dec.More() {
		return http.StatusBadRequest, errors.New("the body has more than one JSON value")
	}
	return 0, nil
}
