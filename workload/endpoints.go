package workload

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// RungEndpoint returns the endpoint rung calls: its own (Config.RungEndpoints)
// when it has one, else the run's (Config.Endpoint).
func (c Config) RungEndpoint(rung string) Endpoint {
	if ep, ok := c.RungEndpoints[rung]; ok {
		return ep
	}
	return c.Endpoint
}

// RealEndpoints reports whether any rung calls a real endpoint (a BaseURL)
// rather than the built-in fake model.
func (c Config) RealEndpoints() bool {
	for _, r := range c.allRungs() {
		if c.RungEndpoint(r.name).BaseURL != "" {
			return true
		}
	}
	return false
}

// NeedsFakeModel reports whether any rung calls the built-in fake model: an
// endpoint without a BaseURL, for which the caller wires Endpoint.Transport.
func (c Config) NeedsFakeModel() bool {
	for _, r := range c.allRungs() {
		if c.RungEndpoint(r.name).BaseURL == "" {
			return true
		}
	}
	return false
}

// validateEndpoints checks every rung's base URL.
func (c Config) validateEndpoints() []error {
	var errs []error
	for rung, ep := range c.RungEndpoints {
		if u := ep.BaseURL; u != "" && !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
			errs = append(errs, fmt.Errorf("%s base URL must start with http:// or https://, got %q", rung, u))
		}
		if rung != "primary" && rung != "backup" {
			errs = append(errs, fmt.Errorf("endpoint for unknown rung %q (valid: primary, backup)", rung))
		}
	}
	return errs
}

// rungAddress is where one rung's SDK client sends its requests.
type rungAddress struct {
	baseURL string
	key     string
}

// endpoints resolves each rung's address and the one transport below the
// injector that serves them all: requests for the fake model's host go to
// the in-process fake model (Endpoint.Transport), others to the real network
// (Endpoint.Transport when the run's own Endpoint has a BaseURL, as tests
// wire it; else a transport of the run's own, whose idle connections
// closeIdle closes).
func (c Config) endpoints() (base http.RoundTripper, addrs map[string]rungAddress, closeIdle func(), err error) {
	addrs = map[string]rungAddress{}
	var fake, real http.RoundTripper
	for _, r := range c.allRungs() {
		ep := c.RungEndpoint(r.name)
		if ep.BaseURL == "" {
			if c.Endpoint.Transport == nil {
				return nil, nil, nil, ErrNoModel
			}
			fake = c.Endpoint.Transport
			addrs[r.name] = rungAddress{baseURL: fakeBaseURL, key: "drill-fake-model"}
			continue
		}
		addrs[r.name] = rungAddress{baseURL: ep.BaseURL, key: ep.APIKey}
		if real == nil && c.Endpoint.BaseURL != "" && c.Endpoint.Transport != nil {
			real = c.Endpoint.Transport
		}
		if real == nil {
			// A transport of the run's own, so its connections close with it.
			t := http.DefaultTransport.(*http.Transport).Clone()
			closeIdle, real = t.CloseIdleConnections, t
		}
	}
	switch {
	case fake == nil && real == nil:
		return nil, nil, nil, ErrNoModel
	case real == nil:
		return fake, addrs, closeIdle, nil
	case fake == nil:
		return real, addrs, closeIdle, nil
	}
	return hostRouter{fake: fake, real: real}, addrs, closeIdle, nil
}

// fakeHost is the host of fakeBaseURL.
var fakeHost = func() string {
	u, _ := url.Parse(fakeBaseURL)
	return u.Host
}()

// hostRouter sends requests for the fake model's host to the in-process fake
// model and every other request to the network: a run whose primary and
// backup are served by different endpoints, one of them the fake model.
type hostRouter struct {
	fake, real http.RoundTripper
}

var _ http.RoundTripper = hostRouter{}

func (h hostRouter) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Host == fakeHost {
		return h.fake.RoundTrip(req)
	}
	return h.real.RoundTrip(req)
}
