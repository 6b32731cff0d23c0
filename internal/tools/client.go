package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/drill-dev/drill/emails"
)

// DefaultTimeout is the time limit of one tool call when Client.Timeout is
// 0: 30 s, as in the tool-breaker write-up, where a carrier that no longer
// answers makes every call wait this long.
const DefaultTimeout = 30 * time.Second

// The in-process services' base URLs (never resolved: Transport serves them).
const (
	OrdersURL  = "http://orders.drill.invalid"
	CarrierURL = "http://carrier.drill.invalid"
)

// maxResultBytes bounds a service's answer read into a tool result.
const maxResultBytes = 64 << 10

// Client calls the tools' services for the conversation engine. Each
// dependency has its own http.Client, so a drill can wrap each one's
// Transport with inject (a carrier hang with its own windows).
type Client struct {
	// Orders and Carrier are the services' HTTP clients.
	Orders, Carrier *http.Client
	// OrdersURL and CarrierURL are the services' base URLs.
	OrdersURL, CarrierURL string
	// Timeout limits each call (the request and reading its answer);
	// 0 means DefaultTimeout, a negative value no limit.
	Timeout time.Duration
}

// NewInProcess returns a client of in-process services answering from the
// set's orders (emails.All() for the built-in data set), each service's
// transport given to wrap (nil: used as is) so faults can be put under it;
// latency is each service's answer time.
func NewInProcess(set []emails.Email, latency time.Duration, wrap func(dependency string, rt http.RoundTripper) http.RoundTripper) *Client {
	return NewInProcessShop(NewShop(set), latency, wrap)
}

// NewInProcessShop is NewInProcess answering from shop (a shop whose
// RecordTokens sizes its answers).
func NewInProcessShop(shop *Shop, latency time.Duration, wrap func(dependency string, rt http.RoundTripper) http.RoundTripper) *Client {
	orders, carrier := Transport(OrderService(shop, latency)), Transport(CarrierService(shop, latency))
	if wrap != nil {
		orders, carrier = wrap(Orders, orders), wrap(Carrier, carrier)
	}
	return &Client{
		Orders:    &http.Client{Transport: orders},
		Carrier:   &http.Client{Transport: carrier},
		OrdersURL: OrdersURL, CarrierURL: CarrierURL,
	}
}

// Result is one tool call's outcome.
type Result struct {
	// Content is the text for the role "tool" message: the service's
	// answer (a not-found order included) or, when Err is set,
	// ErrorResult(Err).
	Content string
	// Dependency is the service called ("orders" or "carrier").
	Dependency string
	// Status is the HTTP status (0 when no answer came).
	Status int
	// Err is why the call failed: bad arguments (ErrBadArguments), a
	// timeout, a connection error or an error status. A not-found order
	// is not a failure.
	Err error
}

// Call runs the function name with the model's arguments. It never returns
// an error for the call itself: a failure is in Result.Err and its Content
// is the error result the model is shown. An unknown function name is an
// error (the engine offered only Names).
func (c *Client) Call(ctx context.Context, name, arguments string) (Result, error) {
	dep := Dependency(name)
	if dep == "" {
		return Result{}, fmt.Errorf("unknown tool %q (known: %v)", name, Names)
	}
	res := Result{Dependency: dep}
	args, err := ParseArgs(arguments)
	if err != nil {
		res.Err = err
		res.Content = ErrorResult(err)
		return res, nil
	}
	client, base := c.Orders, c.OrdersURL
	path := "/orders/" + url.PathEscape(args.OrderID)
	if dep == Carrier {
		client, base = c.Carrier, c.CarrierURL
		path = "/shipments/" + url.PathEscape(args.OrderID)
		if name == GetTrackingEvents {
			path += "/events"
		}
	}
	timeout := c.Timeout
	if timeout == 0 {
		timeout = DefaultTimeout
	}
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	res.Status, res.Content, res.Err = get(ctx, client, base+path)
	if res.Err != nil {
		res.Err = fmt.Errorf("%s: %w", name, res.Err)
		res.Content = ErrorResult(res.Err)
	}
	return res, nil
}

// StatusError is a service's error status other than 404 not found.
type StatusError struct {
	Status int
	Body   string
}

// Error says the status and the service's message.
func (e *StatusError) Error() string {
	return fmt.Sprintf("status %d %s: %s", e.Status, http.StatusText(e.Status), e.Body)
}

// get fetches url and returns the status and body; a 404 not_found is an
// answer, any other non-200 a *StatusError.
func get(ctx context.Context, client *http.Client, u string) (int, string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return 0, "", fmt.Errorf("building the request: %w", err)
	}
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxResultBytes))
	if err != nil {
		return resp.StatusCode, "", fmt.Errorf("reading the answer: %w", err)
	}
	body := string(b)
	switch {
	case resp.StatusCode == http.StatusOK && json.Valid(b):
		return resp.StatusCode, body, nil
	case resp.StatusCode == http.StatusOK:
		return resp.StatusCode, "", fmt.Errorf("the service's answer is not JSON: %.80q", body)
	case resp.StatusCode == http.StatusNotFound && isNotFound(b):
		return resp.StatusCode, body, nil
	}
	return resp.StatusCode, "", &StatusError{Status: resp.StatusCode, Body: body}
}

func isNotFound(b []byte) bool {
	var e struct {
		Error string `json:"error"`
	}
	return json.Unmarshal(b, &e) == nil && e.Error == "not_found"
}

// isTimeout reports whether err is a time limit running out.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
}
