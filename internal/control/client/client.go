// Package client is drill ctl's client of the control API (package
// control/api): it sends outage commands and reads the schedule and the
// live figures, and writes them for a person (plain.go) or as the API's
// JSON.
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/drill-dev/drill/internal/control"
)

// maxAnswer bounds what the client reads of an answer.
const maxAnswer = 8 << 20

// Client talks to one control API.
type Client struct {
	// Addr is the API's HOST:PORT.
	Addr string
	// Token, if set, is sent as the bearer token.
	Token string
	// As, if set, names the sender (X-Drill-As): the journal records
	// NAME@ADDR.
	As string
	// HTTP sends the requests (default: http.DefaultClient); its Timeout
	// bounds each.
	HTTP *http.Client
}

// Error is the API's refusal: the status and its {"error": ...} message.
type Error struct {
	Status  int
	Message string
}

func (e *Error) Error() string {
	return fmt.Sprintf("the control API refused (%d %s): %s", e.Status, http.StatusText(e.Status), e.Message)
}

// Start starts an outage now.
func (c *Client) Start(ctx context.Context, s control.Start) (control.Reply, []byte, error) {
	body, err := json.Marshal(s)
	if err != nil {
		return control.Reply{}, nil, fmt.Errorf("encoding the command: %w", err)
	}
	var r control.Reply
	raw, err := c.do(ctx, http.MethodPost, "/outages", body, &r)
	return r, raw, err
}

// Stop ends every outage active now; id, if set, names the command.
func (c *Client) Stop(ctx context.Context, id string) (control.Reply, []byte, error) {
	path := "/outages"
	if id != "" {
		path += "?id=" + url.QueryEscape(id)
	}
	var r control.Reply
	raw, err := c.do(ctx, http.MethodDelete, path, nil, &r)
	return r, raw, err
}

// Status reads the live figures.
func (c *Client) Status(ctx context.Context) (control.Status, []byte, error) {
	var s control.Status
	raw, err := c.do(ctx, http.MethodGet, "/status", nil, &s)
	return s, raw, err
}

// Schedule reads the outage timeline and the outages active.
func (c *Client) Schedule(ctx context.Context) (control.Schedule, []byte, error) {
	var s control.Schedule
	raw, err := c.do(ctx, http.MethodGet, "/schedule", nil, &s)
	return s, raw, err
}

// do sends one request and decodes a 200's JSON into v; it returns the
// answer's bytes too.
func (c *Client) do(ctx context.Context, method, path string, body []byte, v any) ([]byte, error) {
	addr := c.Addr
	if !strings.Contains(addr, "://") {
		addr = "http://" + addr
	}
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimSuffix(addr, "/")+path, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("the control API's address %q: %w", c.Addr, err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	if c.As != "" {
		req.Header.Set(control.AsHeader, c.As)
	}
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("reaching the control API at %s: %w", c.Addr, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	if err != nil {
		return nil, fmt.Errorf("reading the control API's answer: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		var e control.ErrorBody
		if json.Unmarshal(raw, &e) != nil || e.Error == "" {
			e.Error = strings.TrimSpace(string(raw))
		}
		return raw, &Error{Status: resp.StatusCode, Message: e.Error}
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return raw, fmt.Errorf("the control API's answer is not the JSON expected: %w", err)
	}
	return raw, nil
}

// IsRefusal reports whether err is the API's refusal (an *Error).
func IsRefusal(err error) bool {
	var e *Error
	return errors.As(err, &e)
}
