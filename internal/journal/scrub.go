package journal

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"slices"
	"strings"

	"github.com/drill-dev/drill/event"
)

// Redacted replaces a secret wherever one would have reached a journal.
const Redacted = "[redacted]"

// secretKeyParts are substrings of a normalised field name (lower case, no
// '_', '-' or '.') that mark a field as secret.
var secretKeyParts = []string{"apikey", "authorization", "secret", "password", "passwd", "bearer", "credential", "accesstoken", "privatekey"}

// secretKeys are normalised field names that are secret on their own.
var secretKeys = map[string]bool{"key": true, "token": true, "auth": true, "authtoken": true, "cookie": true,
	"sig": true, "signature": true, "pwd": true, "pass": true}

// secretKeySuffixes end normalised field names that are secret:
// subscription-key, refresh_token, X-Amz-Signature, db_password.
var secretKeySuffixes = []string{"key", "token", "secret", "signature", "password"}

// normaliseName lower-cases a field name and drops '_', '-', '.' and spaces.
var normaliseName = strings.NewReplacer("_", "", "-", "", ".", "", " ", "")

// SecretField reports whether a configuration field, HTTP header or URL
// query parameter of this name would hold a secret (an API key, an
// authorization header, a password, token or signature): key, api-key,
// api_key, token, access_token, sig, signature, password and any name
// containing apikey, secret, password, credential, accesstoken or
// authorization, or ending in key, token, secret, signature or password.
func SecretField(name string) bool {
	n := normaliseName.Replace(strings.ToLower(name))
	if secretKeys[n] {
		return true
	}
	for _, p := range secretKeyParts {
		if strings.Contains(n, p) {
			return true
		}
	}
	for _, p := range secretKeySuffixes {
		if strings.HasSuffix(n, p) {
			return true
		}
	}
	return false
}

// secretValue reports whether a string looks like a credential whatever its
// field is called: an OpenAI-style key or an authorization header value.
func secretValue(s string) bool {
	t := strings.TrimSpace(s)
	return (strings.HasPrefix(t, "sk-") && len(t) >= 20) ||
		strings.HasPrefix(strings.ToLower(t), "bearer ") ||
		strings.HasPrefix(strings.ToLower(t), "basic ")
}

// Scrub removes secret-looking fields (see SecretField) and credential-looking
// string values from a JSON document, at any depth. A document with nothing
// to remove is returned unchanged, keeping its field order; otherwise it is
// re-encoded with sorted keys.
func Scrub(raw json.RawMessage) (json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("journal: reading the configuration to scrub it: %w", err)
	}
	v, changed := scrubValue(v)
	if !changed {
		return raw, nil
	}
	out, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("journal: encoding the scrubbed configuration: %w", err)
	}
	return out, nil
}

func scrubValue(v any) (any, bool) {
	switch x := v.(type) {
	case map[string]any:
		changed := false
		for k, val := range x {
			if SecretField(k) {
				delete(x, k)
				changed = true
				continue
			}
			nv, c := scrubValue(val)
			if c {
				x[k] = nv
				changed = true
			}
		}
		return x, changed
	case []any:
		changed := false
		for i, val := range x {
			nv, c := scrubValue(val)
			if c {
				x[i] = nv
				changed = true
			}
		}
		return x, changed
	case string:
		if secretValue(x) {
			return Redacted, true
		}
		if r := RedactText(x); r != x {
			return r, true
		}
	}
	return v, false
}

// RedactURL redacts the secrets a URL may carry: the password of its
// userinfo (http://bob:[redacted]@host/) and the values of query and
// fragment parameters whose names look like credentials (see SecretField):
// ?api-key=[redacted]&access_token=[redacted]. Everything else is kept as
// written, so the URL still says where the drill went. A string with no
// "://" is returned unchanged.
func RedactURL(u string) string {
	scheme := strings.Index(u, "://")
	if scheme < 0 {
		return u
	}
	var b strings.Builder
	b.Grow(len(u))
	rest := u[scheme+3:]
	b.WriteString(u[:scheme+3])
	authEnd := strings.IndexAny(rest, "/?#")
	if authEnd < 0 {
		authEnd = len(rest)
	}
	auth := rest[:authEnd]
	if at := strings.LastIndex(auth, "@"); at >= 0 {
		if colon := strings.Index(auth[:at], ":"); colon >= 0 && colon+1 < at {
			auth = auth[:colon+1] + Redacted + auth[at:]
		}
	}
	b.WriteString(auth)
	rest = rest[authEnd:]
	path, query, hasQuery := strings.Cut(rest, "?")
	fragment, hasFragment := "", false
	if hasQuery {
		query, fragment, hasFragment = strings.Cut(query, "#")
	} else {
		path, fragment, hasFragment = strings.Cut(path, "#")
	}
	b.WriteString(path)
	if hasQuery {
		b.WriteByte('?')
		b.WriteString(redactParams(query))
	}
	if hasFragment {
		b.WriteByte('#')
		b.WriteString(redactParams(fragment))
	}
	return b.String()
}

// redactParams redacts the values of credential-named parameters in a
// query string (or a fragment written like one), keeping their order.
func redactParams(q string) string {
	if !strings.Contains(q, "=") {
		return q
	}
	parts := strings.Split(q, "&")
	for i, p := range parts {
		name, _, ok := strings.Cut(p, "=")
		if !ok {
			continue
		}
		if un, err := url.QueryUnescape(name); err == nil {
			name = un
		}
		if SecretField(name) {
			parts[i] = p[:strings.Index(p, "=")+1] + Redacted
		}
	}
	return strings.Join(parts, "&")
}

// RedactText redacts, with RedactURL, every URL in free text such as an
// error message: each run of characters around a "://" up to a space, a
// quote, '<', '>' or a backtick.
func RedactText(s string) string {
	if !strings.Contains(s, "://") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "://")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		start := i
		for start > 0 && isSchemeByte(s[start-1]) {
			start--
		}
		end := i + 3
		for end < len(s) && !isURLEnd(s[end]) {
			end++
		}
		b.WriteString(s[:start])
		b.WriteString(RedactURL(s[start:end]))
		s = s[end:]
	}
}

func isSchemeByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'
}

func isURLEnd(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '"', '\'', '<', '>', '`':
		return true
	}
	return false
}

// envSecrets are environment variables whose values must never be written.
var envSecrets = []string{"OPENAI_API_KEY", "DRILL_API_KEY", "OPENAI_ADMIN_KEY"}

// knownSecrets returns the secret values a writer redacts from every line:
// the given ones and those of the API-key environment variables, each as
// written and in the forms it takes inside a JSON line (escaped, with and
// without HTML escaping: a key holding '&', '<' or '>' is written \u0026,
// \u003c, \u003e) and inside a URL (query-escaped). Values shorter than 6
// bytes are ignored: redacting them would mangle ordinary text.
func knownSecrets(extra []string) [][]byte {
	var out [][]byte
	addForm := func(s string) {
		if s == "" {
			return
		}
		for _, o := range out {
			if string(o) == s {
				return
			}
		}
		out = append(out, []byte(s))
	}
	add := func(s string) {
		s = strings.TrimSpace(s)
		if len(s) < 6 {
			return
		}
		addForm(s)
		addForm(jsonEscaped(s, true))
		addForm(jsonEscaped(s, false))
		addForm(url.QueryEscape(s))
	}
	for _, s := range extra {
		add(s)
	}
	for _, name := range envSecrets {
		add(os.Getenv(name))
	}
	for _, name := range secretEnvNames() {
		add(os.Getenv(name))
	}
	// Longest first, so a secret that holds another is replaced whole.
	slices.SortStableFunc(out, func(a, b []byte) int { return len(b) - len(a) })
	return out
}

// redactEvent redacts an event's free-text fields before it is encoded:
// the URLs in them (see RedactText; an error's text quotes the URL it
// called) and every form of the known secrets — an error body quoted in the
// text may hold a key JSON-escaped, which encoding the line would escape
// once more, out of reach of the line's own redaction.
func redactEvent(e event.Event, secrets [][]byte) event.Event {
	clean := func(s string) string {
		if s == "" {
			return s
		}
		return redactString(RedactText(s), secrets)
	}
	e.Detail = clean(e.Detail)
	e.Model = clean(e.Model)
	e.Fault = clean(e.Fault)
	if e.Result != nil && e.Result.Reply != "" {
		r := *e.Result
		r.Reply = clean(r.Reply)
		e.Result = &r
	}
	if e.Breaker != nil && e.Breaker.Reason != "" {
		b := *e.Breaker
		b.Reason = clean(b.Reason)
		e.Breaker = &b
	}
	return e
}

// redactString replaces every occurrence of each secret in s.
func redactString(s string, secrets [][]byte) string {
	for _, sec := range secrets {
		if strings.Contains(s, string(sec)) {
			s = strings.ReplaceAll(s, string(sec), Redacted)
		}
	}
	return s
}

// jsonEscaped is s as it appears between the quotes of a JSON string.
func jsonEscaped(s string, escapeHTML bool) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(escapeHTML)
	if err := enc.Encode(s); err != nil {
		return ""
	}
	out := bytes.TrimSpace(b.Bytes())
	return string(out[1 : len(out)-1])
}

// redact replaces every occurrence of each secret in line. It returns line
// itself when there is nothing to replace.
func redact(line []byte, secrets [][]byte) []byte {
	for _, s := range secrets {
		if bytes.Contains(line, s) {
			line = bytes.ReplaceAll(line, s, []byte(Redacted))
		}
	}
	return line
}

// RedactSecrets redacts a value drill is about to write or print: the URLs
// in it (RedactText) and every form of the API keys in the environment.
func RedactSecrets(s string) string {
	return redactString(RedactText(s), knownSecrets(nil))
}
