package cli

import (
	"os"

	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/internal/control"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/session"
)

// ControlFlags are --control-listen and --control-token-env, on drill
// proxy and drill run.
type ControlFlags struct {
	listen, tokenEnv string
}

// Register adds the two flags to fs.
func (c *ControlFlags) Register(fs *pflag.FlagSet) {
	fs.StringVar(&c.listen, "control-listen", "", "serve the control API (drill ctl) on this address, HOST[:PORT] (port "+control.DefaultPort+
		" by default); any address but loopback needs a token")
	fs.StringVar(&c.tokenEnv, "control-token-env", control.DefaultTokenEnv, "the environment variable holding the control API's bearer token")
}

// Control is the control API's settings, nil without --control-listen.
// why, if not "", is why this run cannot serve one (a usage error).
func (c *ControlFlags) Control(why string) (*session.Control, error) {
	if c.listen == "" {
		return nil, nil
	}
	if why != "" {
		return nil, exit.Usagef("--control-listen: %s", why)
	}
	if c.tokenEnv == "" {
		return nil, exit.Usagef("--control-token-env needs the name of an environment variable")
	}
	return &session.Control{Listen: control.WithPort(c.listen), Token: os.Getenv(c.tokenEnv), TokenEnv: c.tokenEnv}, nil
}

// ControlRefused is why drill run cannot serve the control API: on the
// virtual clock there is no time to steer. (The chat workload refuses
// --control-listen with every setting it does not take.)
func ControlRefused(virtual bool) string {
	if virtual {
		return "needs the real clock (a --clock virtual run is over before a command could reach it); drop --clock virtual"
	}
	return ""
}
