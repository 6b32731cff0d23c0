package drillfile

import (
	"fmt"
	"os"
	"strings"

	"github.com/drill-dev/drill/internal/price"
	"github.com/drill-dev/drill/workload"
)

// BaseURLEnv is the environment variable the OpenAI SDKs read the base URL
// from when none is given; drill reads it the same way for a rung whose
// base_url is not set (base_url: fake still means the built-in fake model).
const BaseURLEnv = "OPENAI_BASE_URL"

// URL is the endpoint the model is served at: its base_url, else
// $OPENAI_BASE_URL (as the SDK reads it), else "" for the built-in fake model.
func (m Model) URL() string {
	switch m.BaseURL {
	case BaseURLFake:
		return ""
	case "":
		return strings.TrimSpace(os.Getenv(BaseURLEnv))
	}
	return m.BaseURL
}

// KeyEnv is the name of the environment variable holding the model's key.
func (m Model) KeyEnv() string {
	if m.APIKeyEnv != "" {
		return m.APIKeyEnv
	}
	return DefaultAPIKeyEnv
}

// IsEnvName reports whether s can name an environment variable: letters,
// digits and underscores, not starting with a digit.
func IsEnvName(s string) bool { return envName.MatchString(s) }

// ResolveEndpoint reads one rung's endpoint: the base URL ("" or "fake":
// the built-in fake model, the zero Endpoint) and its key from the
// environment variable keyEnv (default OPENAI_API_KEY). A key of only
// spaces is no key. An https endpoint without a key, or a key variable
// named on purpose (explicitKey) but unset, is an error that names the rung
// and the variable; nothing has been sent.
func ResolveEndpoint(rung, baseURL, keyEnv string, explicitKey bool) (workload.Endpoint, error) {
	if baseURL == "" || baseURL == BaseURLFake {
		return workload.Endpoint{}, nil
	}
	if keyEnv == "" {
		keyEnv = DefaultAPIKeyEnv
	}
	if !envName.MatchString(keyEnv) {
		return workload.Endpoint{}, fmt.Errorf("%s: %q does not name an environment variable", rung, keyEnv)
	}
	key := strings.TrimSpace(os.Getenv(keyEnv))
	if key == "" && (explicitKey || strings.HasPrefix(baseURL, "https://")) {
		return workload.Endpoint{}, fmt.Errorf("%s: %s needs a key and %s is not set (or blank): nothing was sent",
			rung, redactURL(baseURL), keyEnv)
	}
	return workload.Endpoint{BaseURL: baseURL, APIKey: key, KeyEnv: keyEnv}, nil
}

// RedactedURL is the model's URL without its user information and query
// (they may hold keys), for printing.
func (m Model) RedactedURL() string { return redactURL(m.URL()) }

// redactURL drops a URL's user information and query (they may hold keys).
func redactURL(u string) string {
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	if scheme, rest, ok := strings.Cut(u, "://"); ok {
		if at := strings.LastIndex(rest, "@"); at >= 0 && at < strings.IndexByte(rest+"/", '/') {
			rest = rest[at+1:]
		}
		u = scheme + "://" + rest
	}
	return u
}

// PriceTable reads the file's prices: model → "IN/OUT", per million input
// and output tokens.
func (f *File) PriceTable() (price.Table, error) {
	t := price.Table{}
	for model, p := range f.Prices {
		_, pr, err := price.Parse(model + "=" + p)
		if err != nil {
			return nil, fmt.Errorf("prices: %w", err)
		}
		t[model] = pr
	}
	return t, nil
}
