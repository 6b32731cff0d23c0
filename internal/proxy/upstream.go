package proxy

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/redact"
)

// Name is how an upstream is shown and recorded: its URL without user
// information and with its credential query values redacted
// (?api-key=[redacted]).
func Name(u *url.URL) string {
	clean := *u
	clean.User = nil
	return redact.URL(clean.String())
}

// CheckUpstream parses the upstream URL and makes sure something answers
// there: GET {upstream}/models without a key. Any HTTP answer will do (a
// 401 is expected without a key) except a 404, which means the URL is not
// the API's base; no answer at all is an error. Both are usage errors
// (exit 2).
func CheckUpstream(ctx context.Context, raw string, timeout time.Duration) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, exit.Usagef("--upstream %q is not an http(s) URL with a host (e.g. https://api.openai.com/v1)", redact.Text(raw))
	}
	probe := *u
	probe.Path = strings.TrimSuffix(u.Path, "/") + "/models"
	if u.Path == "" || u.Path == "/" {
		probe.Path = "/v1/models" // what a client's /v1/models reaches (see the proxy's path rule)
	}
	probe.User = nil
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(cctx, http.MethodGet, probe.String(), nil)
	if err != nil {
		return nil, exit.Usagef("--upstream %s: %s", redact.URL(probe.Redacted()), redact.String(err.Error()))
	}
	t := http.DefaultTransport.(*http.Transport).Clone()
	defer t.CloseIdleConnections()
	resp, err := (&http.Client{Transport: t}).Do(req)
	if err != nil {
		return nil, exit.Usagef("--upstream %s does not answer (GET %s): %s", Name(u), redact.URL(probe.Redacted()), redact.String(err.Error()))
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	if resp.StatusCode == http.StatusNotFound {
		return nil, exit.Usagef("--upstream %s answered 404 to GET %s: is it the API's base URL, with its /v1?", Name(u), redact.URL(probe.Redacted()))
	}
	return u, nil
}
