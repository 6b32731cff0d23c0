package main

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/drill-dev/drill/internal/fakemodel"
)

func TestFakeModelCmdFlags(t *testing.T) {
	cmd := newFakeModelCmd()
	for _, f := range []string{"listen", "seed", "require-key", "latency-scale", "log", "read-timeout", "idle-timeout", "max-conns"} {
		if cmd.Flags().Lookup(f) == nil {
			t.Errorf("fake-model has no --%s", f)
		}
	}
	if got := cmd.Flags().Lookup("listen").DefValue; got != "127.0.0.1:8089" {
		t.Errorf("--listen default %q", got)
	}
}

func TestServeFakeModel(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var log bytes.Buffer
	done := make(chan error, 1)
	go func() {
		done <- serveFakeModel(ctx, ln, fakemodel.Options{NoLatency: true, RequireKey: "k", Log: &log}, fakemodel.DefaultLimits, &log)
	}()
	req, _ := http.NewRequest("GET", "http://"+ln.Addr().String()+"/v1/models", nil)
	req.Header.Set("Authorization", "Bearer k")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("status %d", resp.StatusCode)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("serve: %v", err)
	}
	if lines := strings.Count(log.String(), "\n"); lines != 2 || !strings.Contains(log.String(), ln.Addr().String()) ||
		!strings.Contains(log.String(), "GET /v1/models status=200") {
		t.Errorf("log %q: want the start line and one line for the request", log.String())
	}
}
