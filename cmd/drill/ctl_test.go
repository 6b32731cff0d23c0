package main

import (
	"context"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/journal"
)

// TestCtlStartsAnOutageOnAProxy: drill proxy --control-listen, plain HTTP
// traffic through it, then drill ctl outage start --kind hang --for 2s:
// the client meets the hang, and the proxy's journal records the outage
// with the command and who sent it.
func TestCtlStartsAnOutageOnAProxy(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "p.jsonl")
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	base, _, errOut, done := startProxy(t, ctx, "--listen", "127.0.0.1:0", "--latency-scale", "0", "--no-tui",
		"--control-listen", "127.0.0.1:0", "--record", rec)
	ctlAddr := controlAddr(t, errOut)
	client := &http.Client{Timeout: 500 * time.Millisecond}
	post := func() (int, error) {
		resp, err := client.Post(base+"/chat/completions", "application/json",
			strings.NewReader(`{"model":"gpt-5.4-mini","messages":[{"role":"user","content":"Where is DR-123456?"}]}`))
		if err != nil {
			return 0, err
		}
		defer resp.Body.Close()
		return resp.StatusCode, nil
	}
	if code, err := post(); code != 200 {
		t.Fatalf("before the outage: %d %v, want 200", code, err)
	}
	out, stderr, code := execute(ctx, "ctl", "outage", "start", "--kind", "hang", "--for", "2s", "--as", "ana", "--addr", ctlAddr)
	if code != 0 || !strings.Contains(out, "started") {
		t.Fatalf("drill ctl outage start: exit %d: %s %s", code, out, stderr)
	}
	if _, err := post(); err == nil || !strings.Contains(err.Error(), "Timeout") {
		t.Errorf("during the hang: %v, want the client's time limit", err)
	}
	if out, _, code := execute(ctx, "ctl", "status", "--addr", ctlAddr); code != 0 || !strings.Contains(out, "hang") || !strings.Contains(out, "by ana@127.0.0.1:") {
		t.Errorf("drill ctl status: exit %d:\n%s", code, out)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("proxy: %v", err)
	}
	j, err := journal.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	var start *event.Event
	faulted := 0
	for i, e := range j.Events {
		switch e.Kind {
		case event.OutageStart:
			start = &j.Events[i]
		case event.Fault:
			faulted++
		}
	}
	if start == nil || start.Fault != "hang" || start.Command == nil || !strings.HasPrefix(start.Command.Who, "ana@127.0.0.1:") || start.Command.For != 2*time.Second {
		t.Fatalf("outage_start %+v, want the hang with the command from ana", start)
	}
	if faulted != 1 {
		t.Errorf("%d requests faulted, want 1", faulted)
	}
}

// TestControlListenRefused: --control-listen is a usage error where no
// command could steer the run, and off loopback without a token.
func TestControlListenRefused(t *testing.T) {
	t.Setenv("DRILL_CONTROL_TOKEN", "")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--clock", "virtual", "--control-listen", "127.0.0.1:0"}, "real clock"},
		{[]string{"run", "--workload", "chat", "--control-listen", "127.0.0.1:0"}, "not a setting of the chat workload"},
		{[]string{"proxy", "--listen", "127.0.0.1:0", "--control-listen", "0.0.0.0:0"}, "DRILL_CONTROL_TOKEN"},
		{[]string{"ctl", "outage", "start", "--kind", "flood"}, "busy, hang"},
		{[]string{"ctl", "outage", "start", "--kind", "busy", "--param", "colour=red"}, "--param"},
	} {
		if _, stderr, code := execute(t.Context(), tc.args...); code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, %q; want 2 mentioning %q", tc.args, code, stderr, tc.want)
		}
	}
	if _, stderr, code := execute(t.Context(), "ctl", "status", "--addr", "127.0.0.1:1", "--timeout", "2s"); code != 1 {
		t.Errorf("drill ctl status with nothing listening: exit %d (%s), want 1", code, stderr)
	}
}

// controlAddr is the control API's address a drill proxy or drill run
// printed on errOut, waited for up to 5 s.
func controlAddr(t *testing.T, errOut *syncBuffer) string {
	t.Helper()
	re := regexp.MustCompile(`control API on http://(127\.0\.0\.1:\d+)`)
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if m := re.FindStringSubmatch(errOut.String()); m != nil {
			return m[1]
		}
	}
	t.Fatalf("no control API address in %q", errOut.String())
	return ""
}
