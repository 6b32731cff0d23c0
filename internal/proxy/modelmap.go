package proxy

import (
	"strings"

	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/redact"
)

// ParseModelMap reads drill proxy's --model-map FROM=TO occurrences into
// Options.ModelMap (nil for none). A pair without both names, or a model
// mapped twice, is a usage error.
func ParseModelMap(pairs []string) (map[string]string, error) {
	var m map[string]string
	for _, kv := range pairs {
		from, to, ok := strings.Cut(kv, "=")
		from, to = strings.TrimSpace(from), strings.TrimSpace(to)
		if !ok || from == "" || to == "" {
			return nil, exit.Usagef("--model-map wants FROM=TO, got %q", redact.Terminal(kv))
		}
		if _, dup := m[from]; dup {
			return nil, exit.Usagef("--model-map maps %q twice", redact.Terminal(from))
		}
		if m == nil {
			m = map[string]string{}
		}
		m[from] = to
	}
	return m, nil
}
