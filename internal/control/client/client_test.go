package client

import (
	"bytes"
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/control"
	"github.com/drill-dev/drill/internal/control/api"
)

// target keeps the one outage a start begins, until a stop.
type target struct{ active []control.Outage }

func (t *target) Apply(c control.Command) error {
	if c.Op == control.OpStop {
		if len(t.active) == 0 {
			return control.ErrNoOutage
		}
		t.active = nil
		return nil
	}
	t.active = []control.Outage{{Window: event.Window{FaultSpec: c.Fault, From: 2 * time.Second, To: 2*time.Second + c.For, ByHand: true},
		Command: c.Recorded()}}
	return nil
}

func (t *target) Outages() []control.Outage { return t.active }

func TestClientAgainstTheAPI(t *testing.T) {
	srv := httptest.NewServer(api.Handler(api.Options{Target: &target{}, Name: "proxy", Token: "s3cret", Start: time.Now(),
		Figures: func() []control.Figure {
			return []control.Figure{{Key: "requests", Value: 12, Unit: control.UnitCount}, {Key: "failed_share", Value: 0.25, Unit: control.UnitShare}}
		}}))
	defer srv.Close()
	ctx := context.Background()
	c := &Client{Addr: srv.URL, Token: "s3cret", As: "ana"}
	r, _, err := c.Start(ctx, control.Start{Kind: "hang", For: "30s", ID: "x1"})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	WriteReply(&out, r)
	if got := out.String(); !strings.Contains(got, "started (command x1, by ana@127.0.0.1:") || !strings.Contains(got, "hang  2.0–32.0 s  by ana@127.0.0.1:") {
		t.Errorf("reply written as %q", got)
	}
	st, _, err := c.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	out.Reset()
	WriteStatus(&out, st)
	if got := out.String(); !strings.Contains(got, "requests      12") || !strings.Contains(got, "failed_share  25%") {
		t.Errorf("status written as %q", got)
	}
	if _, _, err := c.Stop(ctx, ""); err != nil {
		t.Fatal(err)
	}
	_, _, err = c.Stop(ctx, "")
	var refusal *Error
	if !errors.As(err, &refusal) || refusal.Status != 404 || !strings.Contains(refusal.Message, "no outage") {
		t.Errorf("a stop with nothing active: %v, want the API's 404", err)
	}
	c.Token = "wrong"
	if _, _, err := c.Schedule(ctx); !errors.As(err, &refusal) || refusal.Status != 401 {
		t.Errorf("a wrong token: %v, want 401", err)
	}
}
