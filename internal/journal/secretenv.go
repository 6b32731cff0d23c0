package journal

import (
	"slices"
	"sync"
)

// secretEnv holds the names of environment variables a configuration named
// as holding keys (a rung's api_key_env, --primary-key-env): their values
// are redacted like OPENAI_API_KEY's.
var secretEnv struct {
	sync.Mutex
	names []string
}

// RedactEnv adds environment variables whose values are secrets: from now
// on every journal line, configuration and message drill writes has their
// values redacted, as it has OPENAI_API_KEY's.
func RedactEnv(names ...string) {
	secretEnv.Lock()
	defer secretEnv.Unlock()
	for _, n := range names {
		if n != "" && !slices.Contains(secretEnv.names, n) {
			secretEnv.names = append(secretEnv.names, n)
		}
	}
}

// secretEnvNames returns the names RedactEnv added.
func secretEnvNames() []string {
	secretEnv.Lock()
	defer secretEnv.Unlock()
	return slices.Clone(secretEnv.names)
}
