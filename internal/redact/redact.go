// Package redact is the one place drill removes secrets from what it prints
// and writes: terminal lines, JSON output, journals, reports and error
// messages all go through it. It redacts the password of a URL's userinfo,
// the values of credential-named query and fragment parameters (api-key,
// key, token, password, secret, signature, …), OpenAI-style `sk-` keys
// wherever they appear, and the values of the API-key environment variables
// in use. Terminal output also goes through Terminal, which strips control
// characters from text that came from input.
package redact

import (
	"bytes"
	"encoding/json"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"unsafe"
)

// Redacted replaces a secret wherever one would have been printed or written.
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

// Field reports whether a configuration field, HTTP header or URL query
// parameter of this name would hold a secret (an API key, an authorization
// header, a password, token or signature): key, api-key, api_key, token,
// access_token, sig, signature, password and any name containing apikey,
// secret, password, credential, accesstoken or authorization, or ending in
// key, token, secret, signature or password.
func Field(name string) bool {
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

// minKeyLen is the shortest `sk-` value taken for an API key (prefix
// included): any `sk-` starting a word and followed by a letter, digit, '-'
// or '_' is key-shaped, however short. A length floor let a short key sent
// as a model name ("sk-abc") through to stdout and the journal; no model
// name drill knows starts with `sk-`.
const minKeyLen = len("sk-") + 1

// Value reports whether a whole string looks like a credential whatever its
// field is called: an OpenAI-style key or an authorization header value.
func Value(s string) bool {
	t := strings.TrimSpace(s)
	lower := strings.ToLower(t)
	return (strings.HasPrefix(t, "sk-") && len(t) >= minKeyLen && isKeyByte(t[3])) ||
		strings.HasPrefix(lower, "bearer ") || strings.HasPrefix(lower, "basic ")
}

// URL redacts the secrets a URL may carry: the password of its userinfo
// (http://bob:[redacted]@host/), the values of query parameters whose
// names look like credentials (see Field): ?api-key=[redacted], and the
// whole fragment (#[redacted]): a client never sends it, so it says
// nothing of where the drill went, and a token is often all it holds.
// Everything else is kept as written. A string with no "://" is returned
// unchanged.
func URL(u string) string {
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
		b.WriteString(params(query))
	}
	if hasFragment {
		b.WriteByte('#')
		if fragment != "" {
			b.WriteString(Redacted)
		}
	}
	return b.String()
}

// params redacts the values of credential-named parameters in a query
// string (or a fragment written like one), keeping their order.
func params(q string) string {
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
		if Field(name) {
			parts[i] = p[:strings.Index(p, "=")+1] + Redacted
		}
	}
	return strings.Join(parts, "&")
}

// Text redacts free text such as an error message or a model name: every
// URL in it (see URL: each run of characters around a "://" up to a space,
// a quote, '<', '>' or a backtick) and every `sk-` key (`sk-` starting a
// word, with the letters, digits, '-' and '_' after it).
func Text(s string) string {
	return keys(urls(s))
}

// urls redacts, with URL, every URL in s.
func urls(s string) string {
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
		b.WriteString(URL(s[start:end]))
		s = s[end:]
	}
}

// keys replaces every `sk-` key in s with Redacted.
func keys(s string) string {
	if !strings.Contains(s, "sk-") {
		return s
	}
	var b strings.Builder
	from := 0 // s[:from] is written or decided
	for i := 0; i+3 <= len(s); {
		j := strings.Index(s[i:], "sk-")
		if j < 0 {
			break
		}
		i += j
		end := i + 3
		for end < len(s) && isKeyByte(s[end]) {
			end++
		}
		if (i == 0 || !isKeyByte(s[i-1])) && end-i >= minKeyLen {
			b.WriteString(s[from:i])
			b.WriteString(Redacted)
			from = end
		}
		i = end
	}
	if from == 0 {
		return s
	}
	b.WriteString(s[from:])
	return b.String()
}

func isKeyByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
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

// String redacts a value drill is about to print or write: every form of
// the API keys in the environment (see Env), then as Text does. The keys
// go first: a key holding a byte no `sk-` key has ('&', '<') would
// otherwise lose its `sk-` head to Text and leave its tail unmatched.
func String(s string) string {
	return Text(envSet().String(s))
}

// envSecrets are environment variables whose values must never be written.
var envSecrets = []string{"OPENAI_API_KEY", "DRILL_API_KEY", "OPENAI_ADMIN_KEY"}

// secretEnv holds the names of environment variables a configuration named
// as holding keys (a rung's api_key_env, --primary-key-env): their values
// are redacted like OPENAI_API_KEY's.
var secretEnv struct {
	sync.Mutex
	names []string
}

// Env adds environment variables whose values are secrets: from now on
// every journal line, configuration and message drill writes has their
// values redacted, as it has OPENAI_API_KEY's.
func Env(names ...string) {
	secretEnv.Lock()
	defer secretEnv.Unlock()
	for _, n := range names {
		if n != "" && !slices.Contains(secretEnv.names, n) {
			secretEnv.names = append(secretEnv.names, n)
		}
	}
}

// envValues are the values of the API-key environment variables and of
// those named with Env, in that order.
func envValues() []string {
	secretEnv.Lock()
	names := slices.Concat(envSecrets, secretEnv.names)
	secretEnv.Unlock()
	values := make([]string, len(names))
	for i, n := range names {
		values[i] = os.Getenv(n)
	}
	return values
}

// envCache is Known(nil) and the environment values it was built from:
// String runs for every model name a dashboard row or proxy line prints,
// and building the set JSON-encodes every key twice.
var envCache struct {
	sync.Mutex
	values []string
	set    Set
}

// envSet is Known(nil), built again only when a key's value or the names
// given to Env have changed since the last call.
func envSet() Set {
	envCache.Lock()
	defer envCache.Unlock()
	if !envUnchanged(envCache.values) {
		values := envValues()
		envCache.values, envCache.set = values, known(values)
	}
	return envCache.set
}

// envUnchanged reports whether values are still what envValues returns,
// without building that list: envSet runs for every string drill prints.
func envUnchanged(values []string) bool {
	secretEnv.Lock()
	defer secretEnv.Unlock()
	if len(values) != len(envSecrets)+len(secretEnv.names) {
		return false
	}
	for i, n := range envSecrets {
		if os.Getenv(n) != values[i] {
			return false
		}
	}
	for i, n := range secretEnv.names {
		if os.Getenv(n) != values[len(envSecrets)+i] {
			return false
		}
	}
	return true
}

// Set is a list of secret values, each in every form it is written in,
// longest first, so that a secret holding another is replaced whole.
type Set [][]byte

// Known returns the secret values to redact: the given ones and those of
// the API-key environment variables (and of those named with Env), each as
// written and in the forms it takes inside a JSON line (escaped, with and
// without HTML escaping: a key holding '&', '<' or '>' is written \u0026,
// \u003c, \u003e) and inside a URL (query-escaped). Values shorter than 6
// bytes are ignored: redacting them would mangle ordinary text.
func Known(extra []string) Set {
	return known(slices.Concat(extra, envValues()))
}

// known is the set of the given secret values, each in every form it is
// written in, longest first (see Known).
func known(values []string) Set {
	var out Set
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
	for _, s := range values {
		s = strings.TrimSpace(s)
		if len(s) < 6 {
			continue
		}
		addForm(s)
		addForm(jsonEscaped(s, true))
		addForm(jsonEscaped(s, false))
		addForm(url.QueryEscape(s))
	}
	slices.SortStableFunc(out, func(a, b []byte) int { return len(b) - len(a) })
	return out
}

// String replaces every occurrence of each secret in s.
func (set Set) String(s string) string {
	for _, sec := range set {
		if bytes.Contains(stringBytes(s), sec) {
			s = strings.ReplaceAll(s, string(sec), Redacted)
		}
	}
	return s
}

// stringBytes is s's bytes, to be read only: String searches s for each
// secret without copying either (a key's forms are longer than the 32
// bytes Go converts without allocating).
func stringBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// Bytes replaces every occurrence of each secret in line. It returns line
// itself when there is nothing to replace.
func (set Set) Bytes(line []byte) []byte {
	for _, s := range set {
		if bytes.Contains(line, s) {
			line = bytes.ReplaceAll(line, s, []byte(Redacted))
		}
	}
	return line
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
