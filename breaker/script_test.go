package breaker

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"
)

// play runs a script against a breaker on a hand-moved clock, one line a
// step, in the style of the lesson's worked trace:
//
//	<seconds> start <call>        Allow must let the call through
//	<seconds> probe <call>        ... and it must be a half-open probe
//	<seconds> rejected            Allow must refuse (open, or no probe slot)
//	<seconds> ok|fail|ignore <call> [retry-after <dur>]   the call ends
//	<seconds> observe-ok|observe-fail   an outcome without a ticket (Observe)
//	<seconds> state <state>       the breaker must be in state
//
// Lines starting with # are comments. It returns the changes, as
// "<state>@<seconds>".
func play(t *testing.T, s Settings, script string) []string {
	t.Helper()
	c := newClock()
	var changes []string
	s.Now = c.now
	s.OnChange = func(ch Change) {
		changes = append(changes, ch.To.String()+"@"+strconv.FormatFloat(ch.At.Sub(time.Unix(0, 0)).Seconds(), 'f', -1, 64))
	}
	b := New(s)
	tickets := map[string]Ticket{}
	for _, line := range strings.Split(strings.TrimSpace(script), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		at, err := strconv.ParseFloat(f[0], 64)
		if err != nil {
			t.Fatalf("bad script line %q", line)
		}
		c.at(at)
		switch f[1] {
		case "start", "probe":
			tk, err := b.Allow()
			if err != nil {
				t.Fatalf("%q: rejected (%v); changes so far %v", line, err, changes)
			}
			if f[1] == "probe" && !tk.Probe() {
				t.Fatalf("%q: let through, but not as a probe", line)
			}
			tickets[f[2]] = tk
		case "rejected":
			if _, err := b.Allow(); !errors.Is(err, ErrOpen) {
				t.Fatalf("%q: let a call through; changes so far %v", line, changes)
			}
		case "ok", "fail", "ignore":
			o := Outcome{Result: map[string]Result{"ok": Success, "fail": Failure, "ignore": Ignored}[f[1]]}
			if len(f) == 5 && f[3] == "retry-after" {
				o.RetryAfter, _ = time.ParseDuration(f[4])
			}
			tk, ok := tickets[f[2]]
			if !ok {
				t.Fatalf("%q: no call %s started", line, f[2])
			}
			b.Finish(tk, o)
		case "observe-ok", "observe-fail":
			// An outcome without a ticket (Observe).
			b.Observe(map[string]Result{"observe-ok": Success, "observe-fail": Failure}[f[1]])
		case "state":
			if got := b.State().String(); got != f[2] {
				t.Fatalf("%q: state %s; changes so far %v", line, got, changes)
			}
		default:
			t.Fatalf("bad script verb in %q", line)
		}
	}
	return changes
}

func wantChanges(t *testing.T, got []string, want ...string) {
	t.Helper()
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("changes %v, want %v", got, want)
	}
}
