package journal

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// Redacted replaces a secret wherever one would have reached a journal.
const Redacted = "[redacted]"

// secretKeyParts are substrings of a normalised field name (lower case, no
// '_', '-' or '.') that mark a field as secret.
var secretKeyParts = []string{"apikey", "authorization", "secret", "password", "passwd", "bearer", "credential", "accesstoken", "privatekey"}

// secretKeys are normalised field names that are secret on their own.
var secretKeys = map[string]bool{"key": true, "token": true, "auth": true, "authtoken": true, "cookie": true}

// SecretField reports whether a configuration field of this name would hold
// a secret (an API key, an authorization header, a password or token).
func SecretField(name string) bool {
	n := strings.NewReplacer("_", "", "-", "", ".", "", " ", "").Replace(strings.ToLower(name))
	if secretKeys[n] {
		return true
	}
	for _, p := range secretKeyParts {
		if strings.Contains(n, p) {
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
	}
	return v, false
}

// envSecrets are environment variables whose values must never be written.
var envSecrets = []string{"OPENAI_API_KEY", "DRILL_API_KEY", "OPENAI_ADMIN_KEY"}

// knownSecrets returns the secret values a writer redacts from every line:
// the given ones and those of the API-key environment variables. Values
// shorter than 6 bytes are ignored: redacting them would mangle ordinary text.
func knownSecrets(extra []string) [][]byte {
	var out [][]byte
	add := func(s string) {
		s = strings.TrimSpace(s)
		if len(s) < 6 {
			return
		}
		for _, o := range out {
			if string(o) == s {
				return
			}
		}
		out = append(out, []byte(s))
	}
	for _, s := range extra {
		add(s)
	}
	for _, name := range envSecrets {
		add(os.Getenv(name))
	}
	return out
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
