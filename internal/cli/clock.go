package cli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/edge"
	"github.com/drill-dev/drill/internal/exit"
)

// Clocks are the valid values of --clock.
var Clocks = []string{event.ClockReal, event.ClockVirtual}

// Clock is the --clock flag: real (default) or virtual. An unknown value is
// a flag error, so a usage error (exit 2) listing the valid ones.
type Clock string

// String is the clock's name.
func (c *Clock) String() string { return string(*c) }

// Type is the flag's type as help shows it.
func (c *Clock) Type() string { return "clock" }

// Set sets the clock, refusing a name not in Clocks.
func (c *Clock) Set(s string) error {
	if !slices.Contains(Clocks, s) {
		return fmt.Errorf("unknown clock %q (valid: %s)", s, strings.Join(Clocks, ", "))
	}
	*c = Clock(s)
	return nil
}

// Virtual reports whether --clock virtual was given.
func (c Clock) Virtual() bool { return string(c) == event.ClockVirtual }

// RegisterClock adds --clock to fs, def its default.
func RegisterClock(fs *pflag.FlagSet, c *Clock, def string) {
	*c = Clock(def)
	fs.Var(c, "clock", `real, or virtual: run against the built-in fake model in a testing/synctest bubble's fake time, `+
		`with the same SDK, retries, breakers and latencies, in seconds instead of minutes`)
}

// CheckSpeed checks drill run's --speed: a replay speed above 0, given
// only where it is read, the dashboard that plays a virtual run (a
// real-clock drill runs at the clock's own pace).
func CheckSpeed(fs *pflag.FlagSet, speed float64, virtual bool) error {
	if err := edge.Factor(speed, false); err != nil {
		return exit.Usagef("--speed %v", err)
	}
	if fs.Changed("speed") && !virtual {
		return exit.Usagef("--speed sets the pace of a --clock virtual run's dashboard; a real-clock drill runs in real time")
	}
	return nil
}
