//go:build ignore

// Command soak holds drill's proxy under a steady load and prints its memory
// as it goes: `drill fake-model --latency-scale 0` as the upstream, `drill
// proxy --no-tui --record` in front of it, and chat completions sent open
// loop (each at its due time, answered or not; proxybench's load) at a fixed
// rate. Every interval it prints the proxy's resident memory (Linux:
// /proc/PID/status) and the latency quantiles of the requests sent in it.
//
//	go build -o drill ./cmd/drill
//	go run scripts/soak.go -drill ./drill -rate 1000 -for 10m
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/drill-dev/drill/internal/proxy/proxybench"
	"github.com/drill-dev/drill/scoring"
)

func main() {
	drill := flag.String("drill", "./drill", "the drill binary")
	rate := flag.Float64("rate", 1000, "requests a second")
	length := flag.Duration("for", 10*time.Minute, "how long to hold the load")
	every := flag.Duration("every", 30*time.Second, "how often to print")
	flag.Parse()
	if err := soak(*drill, *rate, *length, *every); err != nil {
		fmt.Fprintln(os.Stderr, "soak:", err)
		os.Exit(1)
	}
}

func soak(drill string, rate float64, length, every time.Duration) error {
	if rate <= 0 || length <= 0 || every <= 0 {
		return errors.New("-rate, -for and -every must be above 0")
	}
	bodies, err := proxybench.Bodies(120, proxybench.Model, false)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "drill-soak")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	upstream, proxy := freeAddr(), freeAddr()
	model, err := start(drill, "fake-model", "--latency-scale", "0", "--listen", upstream)
	if err != nil {
		return err
	}
	defer stop(model)
	if err := waitFor("http://" + upstream + "/health"); err != nil {
		return fmt.Errorf("the fake model: %w", err)
	}
	p, err := start(drill, "proxy", "--no-tui", "--listen", proxy, "--upstream", "http://"+upstream+"/v1",
		"--record", filepath.Join(dir, "soak.jsonl"))
	if err != nil {
		return err
	}
	defer stop(p)
	if err := waitFor("http://" + proxy + "/v1/models"); err != nil {
		return fmt.Errorf("the proxy: %w", err)
	}
	// proxybench's open loop, one interval at a time, so that the memory
	// and the latency of each interval print as the soak goes.
	target := []proxybench.Target{{Name: "drill proxy", Base: "http://" + proxy + "/v1", Client: proxybench.NewClient(1024)}}
	fmt.Printf("%8s %10s %9s %9s %9s %7s\n", "at", "proxy RSS", "requests", "p50 µs", "p99 µs", "errors")
	fmt.Printf("%8s %10s\n", "0s", rss(p.Process.Pid))
	for at := every; at <= length; at += every {
		figs, err := proxybench.OpenLoop(context.Background(), target, bodies, rate, proxybench.Plan{Slice: every, Total: every})
		if err != nil {
			return err
		}
		f := figs[0]
		f.Sort()
		fmt.Printf("%8s %10s %9d %9.0f %9.0f %7d\n", at, rss(p.Process.Pid), f.Requests,
			scoring.Quantile(f.Latency, 0.5), scoring.Quantile(f.Latency, 0.99), f.Errors)
	}
	return nil
}

// rss is a process's resident memory, as /proc says it.
func rss(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return "?"
	}
	for l := range bytes.Lines(b) {
		if v, ok := bytes.CutPrefix(l, []byte("VmRSS:")); ok {
			return strings.Join(strings.Fields(string(v)), " ")
		}
	}
	return "?"
}

func start(drill string, args ...string) (*exec.Cmd, error) {
	cmd := exec.Command(drill, args...)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting drill %s: %w", args[0], err)
	}
	return cmd, nil
}

// stop interrupts cmd as Ctrl-C would and waits for it.
func stop(cmd *exec.Cmd) {
	_ = cmd.Process.Signal(syscall.SIGINT)
	_ = cmd.Wait()
}

// waitFor polls url until it answers, for up to 10 s.
func waitFor(url string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s did not answer in 10 s", url)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// freeAddr is a loopback address with a port free a moment ago.
func freeAddr() string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "127.0.0.1:0"
	}
	defer ln.Close()
	return ln.Addr().String()
}
