package client

import (
	"slices"
	"strings"
	"time"

	"github.com/drill-dev/drill/inject"
	"github.com/drill-dev/drill/internal/control"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/redact"
)

// CheckStart checks drill ctl outage start's flags and fills s's flags and fills s: an unknown kind or a bad
// parameter is a usage error listing the valid ones.
func CheckStart(s *control.Start, params []string, dur time.Duration) error {
	if s.Kind == "" {
		return exit.Usagef("--kind is required (one of: %s)", strings.Join(inject.Kinds(), ", "))
	}
	if !slices.Contains(inject.Kinds(), s.Kind) && !slices.Contains(inject.ChatKinds(), s.Kind) {
		return exit.Usagef("--kind: unknown fault %q (valid: %s)", redact.Terminal(s.Kind), strings.Join(inject.Kinds(), ", "))
	}
	if _, err := inject.ParseFault(s.Kind, params); err != nil {
		return exit.Usagef("--param: %v", err)
	}
	if dur < 0 || dur > control.MaxFor {
		return exit.Usagef("--for must be between 0s (until a stop) and %s, got %s", control.MaxFor, dur)
	}
	for _, kv := range params {
		k, v, _ := strings.Cut(kv, "=")
		if s.Params == nil {
			s.Params = map[string]string{}
		}
		s.Params[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	if dur > 0 {
		s.For = dur.String()
	}
	return nil
}
