package plan

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/internal/drillfile"
)

// proxyOutage parses args as drill proxy's outage flags and returns the
// timeline they ask for.
func proxyOutage(t *testing.T, args ...string) (ProxyOutage, error) {
	t.Helper()
	var o ProxyOutage
	fs := pflag.NewFlagSet("proxy", pflag.ContinueOnError)
	o.Register(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	_, _, err := o.Windows(fs)
	return o, err
}

// drill proxy takes the chat workload's fault kinds too (a client's own
// tool-calling traffic gets them), from --outage and from a drill file;
// an unknown kind lists them.
func TestProxyTakesTheChatFaultKinds(t *testing.T) {
	for _, kind := range []string{"overloaded", "malformed-tool-call", "loop"} {
		if _, err := proxyOutage(t, "--outage", kind, "--outage-from", "0s", "--outage-to", "1m"); err != nil {
			t.Errorf("--outage %s: %v", kind, err)
		}
	}
	if _, err := proxyOutage(t, "--outage", "overloaded", "--fault", "status=503", "--fault", "retry_after=2s"); err != nil {
		t.Errorf("--outage overloaded with its parameters: %v", err)
	}
	_, err := proxyOutage(t, "--outage", "flood")
	if err == nil || !strings.Contains(err.Error(), "malformed-tool-call") || !strings.Contains(err.Error(), "busy") {
		t.Errorf("unknown kind: %v, want every kind the proxy takes listed", err)
	}
	path := filepath.Join(t.TempDir(), "d.yaml")
	if err := os.WriteFile(path, []byte("outages:\n  - {kind: loop, from: 0s, to: 60s}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := FileOutage(path, "")
	if err != nil || len(ws) != 1 || ws[0].Kind != "loop" {
		t.Errorf("a drill file's loop outage: %v %+v", err, ws)
	}
}

// A triage drill offers no tools: a chat fault kind in its drill file's
// outages is refused with the reason, not played as nothing.
func TestTriageRefusesTheChatFaultKinds(t *testing.T) {
	f, err := drillfile.Parse("d.yaml", []byte("outages:\n  - {kind: malformed-tool-call, from: 0s, to: 60s}\n"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Runs(f)
	if err == nil || !strings.Contains(err.Error(), "malformed-tool-call") || !strings.Contains(err.Error(), "drill proxy") {
		t.Errorf("Runs: %v, want the chat kind refused, naming drill proxy", err)
	}
}
