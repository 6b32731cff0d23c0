package journal

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// ErrInvalid means an event line is well-formed JSON but breaks a rule of
// the format: an offset that is negative, runs backwards or lies past the
// run's ceiling, an email id outside the configured emails, and so on. The
// rules themselves are the fold's (scoring.EventRules); the header gives
// them the run's ceiling.
var ErrInvalid = errors.New("invalid journal event")

// headerCeiling reads the bound a header's configuration sets: the run's
// ceiling (config.ceiling_ns, which drill records). A configuration that is
// not a JSON object, or has no ceiling_ns, sets none (0).
func headerCeiling(h Header) (time.Duration, error) {
	var cfg map[string]json.RawMessage
	if len(h.Config) == 0 || json.Unmarshal(h.Config, &cfg) != nil {
		return 0, nil
	}
	raw, ok := cfg["ceiling_ns"]
	if !ok {
		return 0, nil
	}
	var c int64
	if err := json.Unmarshal(raw, &c); err != nil || c < 0 {
		return 0, fmt.Errorf("header field \"config.ceiling_ns\" is %s, want a whole number of nanoseconds, not negative", raw)
	}
	return time.Duration(c), nil
}
