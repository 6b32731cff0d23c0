package client

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/internal/control"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/redact"
)

// Flags are drill ctl's flags, shared by its commands: the control API
// to steer (or the proxy fleet, through its Redis), as whom, and how to
// print its answer.
type Flags struct {
	addr, tokenEnv, as string
	json               bool
	timeout            time.Duration
	// coordinate and fleet send start and stop to a proxy fleet through
	// its Redis instead of one control API.
	coordinate, fleet string
}

// Register adds drill ctl's flags to pf, the persistent flags of drill ctl.
func (f *Flags) Register(pf *pflag.FlagSet) {
	pf.StringVar(&f.addr, "addr", control.DefaultAddr, "the control API's address, HOST[:PORT] (as --control-listen gave it)")
	pf.StringVar(&f.tokenEnv, "token-env", control.DefaultTokenEnv, "the environment variable holding the bearer token")
	pf.StringVar(&f.as, "as", "", "your name, recorded with the command as NAME@ADDR (letters, digits, '.', '-', '_')")
	pf.BoolVar(&f.json, "json", false, "print the API's JSON answer")
	pf.DurationVar(&f.timeout, "timeout", 10*time.Second, "how long to wait for the API's answer")
	pf.StringVar(&f.coordinate, "coordinate", "", "send outage start and stop to a proxy fleet through this Redis, `redis://HOST:PORT/DB` (with --fleet), instead of one control API")
	pf.StringVar(&f.fleet, "fleet", "", "with --coordinate: the proxy fleet's name")
}

// client is the control API's client the flags describe.
func (f *Flags) client() (*Client, error) {
	if f.timeout <= 0 {
		return nil, exit.Usagef("--timeout must be positive, got %s", f.timeout)
	}
	if f.tokenEnv == "" {
		return nil, exit.Usagef("--token-env needs the name of an environment variable")
	}
	if f.fleet != "" {
		return nil, exit.Usagef("--fleet goes with --coordinate (a proxy fleet's Redis); without it drill ctl talks to one control API, --addr")
	}
	return &Client{Addr: control.WithPort(f.addr), Token: os.Getenv(f.tokenEnv), As: f.as, HTTP: &http.Client{Timeout: f.timeout}}, nil
}

// Start is drill ctl outage start of s (checked): sent to the proxy fleet
// with --coordinate, else to the control API, its answer printed on out.
func (f *Flags) Start(ctx context.Context, out io.Writer, s control.Start) error {
	if f.coordinate != "" {
		return f.sendFleet(ctx, out, func(who string) (control.Command, error) { return s.Command(who, time.Now()) })
	}
	c, err := f.client()
	if err != nil {
		return err
	}
	r, raw, err := c.Start(ctx, s)
	return f.print(out, raw, err, func() { WriteReply(out, r) })
}

// Stop is drill ctl outage stop, with the command's id ("" for one the
// API makes).
func (f *Flags) Stop(ctx context.Context, out io.Writer, id string) error {
	if f.coordinate != "" {
		return f.sendFleet(ctx, out, func(who string) (control.Command, error) {
			return control.Stop(id, who, time.Now()), nil
		})
	}
	c, err := f.client()
	if err != nil {
		return err
	}
	r, raw, err := c.Stop(ctx, id)
	return f.print(out, raw, err, func() { WriteReply(out, r) })
}

// Read is drill ctl status or drill ctl schedule (name): one control
// API's answer, printed on out.
func (f *Flags) Read(ctx context.Context, out io.Writer, name string) error {
	if f.coordinate != "" {
		return exit.Usagef("drill ctl %s reads one control API (--addr); a proxy fleet's figures: drill watch %s --fleet %s",
			name, redact.URL(f.coordinate), f.fleet)
	}
	c, err := f.client()
	if err != nil {
		return err
	}
	if name == "status" {
		s, raw, err := c.Status(ctx)
		return f.print(out, raw, err, func() { WriteStatus(out, s) })
	}
	s, raw, err := c.Schedule(ctx)
	return f.print(out, raw, err, func() { WriteSchedule(out, s) })
}

// print prints an answer: the API's JSON with --json, else as plain
// writes it. A refusal or an API out of reach is the error (exit 1).
func (f *Flags) print(out io.Writer, raw []byte, err error, plain func()) error {
	if err != nil {
		return err
	}
	if f.json {
		_, err := out.Write(raw)
		return err
	}
	plain()
	return nil
}

// sendFleet sends the command make builds to the proxy fleet through its
// Redis (drill ctl --coordinate) and says so on out.
func (f *Flags) sendFleet(ctx context.Context, out io.Writer, make func(who string) (control.Command, error)) error {
	c, err := SendFleet(ctx, f.coordinate, f.fleet, f.as, make)
	if err != nil {
		return err
	}
	if f.json {
		return json.NewEncoder(out).Encode(c)
	}
	fmt.Fprintf(out, "sent to fleet %s through %s (command %s, by %s)\n", f.fleet, redact.URL(f.coordinate), c.ID, redact.Terminal(c.Who))
	return nil
}
