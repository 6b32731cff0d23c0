package session

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/drill-dev/drill/internal/control"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/proxy"
	"github.com/drill-dev/drill/internal/proxyfleet"
	"github.com/drill-dev/drill/internal/redact"
)

// ProxyFleet is drill proxy's place in a fleet of proxies coordinated
// through Redis (--coordinate, --fleet, --member), as its journal header
// records it (the URL's password masked).
type ProxyFleet struct {
	Coordinate string `json:"coordinate"`
	Name       string `json:"fleet"`
	Member     string `json:"member"`
}

// fleetLeaveTimeout is how long a stopping member waits to send the events
// it still holds.
const fleetLeaveTimeout = 10 * time.Second

// agreePlan sets or joins the fleet's plan at url: the first member's
// outage timeline, models and start are every member's. It changes cfg
// and popts to the plan in force and says so on log.
func agreePlan(ctx context.Context, url string, cfg *ProxyConfig, popts *proxy.Options, log io.Writer) error {
	f := cfg.Fleet
	plan, joined, err := proxyfleet.Agree(ctx, url, f.Name, proxyfleet.Plan{Start: popts.Start, Windows: cfg.Windows,
		Models: cfg.OutageModels, By: f.Member})
	if err != nil {
		return exit.UsageError(fmt.Errorf("--coordinate %s: %w", redact.URL(url), err))
	}
	cfg.Windows, cfg.OutageModels = plan.Windows, plan.Models
	popts.Start, popts.Windows, popts.Models = plan.Start, plan.Windows, plan.Models
	if joined {
		fmt.Fprintf(log, "drill proxy: joined fleet %s as %s: playing the schedule %s set, started %s ago\n",
			f.Name, f.Member, plan.By, time.Since(plan.Start).Round(time.Second))
	} else {
		fmt.Fprintf(log, "drill proxy: started fleet %s as %s: every member plays this schedule\n", f.Name, f.Member)
	}
	return nil
}

// joinFleet makes the proxy a member of the fleet: it applies the fleet's
// commands, sends its events and keeps its heartbeat. Losing and
// regaining Redis, and each command applied, are said on log (the journal
// records them too).
func joinFleet(ctx context.Context, url string, f *ProxyFleet, p *proxy.Proxy, log io.Writer) (*proxyfleet.Member, error) {
	target, ok := any(p).(proxyfleet.Target)
	if !ok {
		return nil, fmt.Errorf("--coordinate: this drill proxy cannot apply outage commands")
	}
	m, err := proxyfleet.Join(ctx, proxyfleet.Options{URL: url, Fleet: f.Name, Member: f.Member, Log: p.Log(), Target: target,
		OnLink: func(up bool, err error) {
			if up {
				fmt.Fprintf(log, "drill proxy: fleet link up: Redis is back; sending the events held meanwhile\n")
				return
			}
			fmt.Fprintf(log, "drill proxy: fleet link down (%s): playing the last known schedule, holding events\n",
				redact.Text(err.Error()))
		},
		OnCommand: func(cmd control.Command, err error) {
			if err != nil {
				fmt.Fprintf(log, "drill proxy: fleet command %s (%s) not applied: %v\n", cmd.ID, cmd.Op, err)
			}
		}})
	if err != nil {
		return nil, exit.UsageError(fmt.Errorf("--coordinate %s: %w", redact.URL(url), err))
	}
	return m, nil
}

// leaveFleet sends what the member still holds (its log is closed by
// now) and leaves the fleet, saying on log what could not be sent.
func leaveFleet(m *proxyfleet.Member, log io.Writer) error {
	if m == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), fleetLeaveTimeout)
	defer cancel()
	unsent, err := m.Close(ctx)
	if unsent > 0 {
		fmt.Fprintf(log, "drill proxy: %d events never reached the fleet's Redis\n", unsent)
	}
	return err
}

// fleetControl is what a fleet member's control API steers: the outages
// active are this proxy's, and a command goes through the member, which
// applies it here and sends it to every other member.
type fleetControl struct {
	*proxy.Proxy
	m *proxyfleet.Member
}

// Apply applies cmd on this member and sends it to the fleet.
func (f fleetControl) Apply(cmd control.Command) error { return f.m.Apply(cmd) }
