//go:build ignore

// Command soak holds drill's proxy under a steady load and prints its memory
// as it goes: `drill fake-model --latency-scale 0` as the upstream, `drill
// proxy --no-tui --record` in front of it, and chat completions sent open
// loop (each at its due time, answered or not) at a fixed rate. Every
// interval it prints the proxy's resident memory (Linux: /proc/PID/status)
// and the latency quantiles of the requests sent in it.
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
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
)

// body is a triage request as a client sends it.
const body = `{"model":"gpt-5.4-mini","messages":[{"role":"system","content":"You triage support email for a shop. Reply with JSON: category, urgency, needs_human, reply."},{"role":"user","content":"From: Marcus\nSubject: Where is my order?\n\nI ordered a kettle ten days ago (order DR-1042) and it has not arrived. Can you tell me where it is?"}],"response_format":{"type":"json_object"}}`

func main() {
	drill := flag.String("drill", "./drill", "the drill binary")
	rate := flag.Int("rate", 1000, "requests a second")
	length := flag.Duration("for", 10*time.Minute, "how long to hold the load")
	every := flag.Duration("every", 30*time.Second, "how often to print")
	flag.Parse()
	if err := soak(*drill, *rate, *length, *every); err != nil {
		fmt.Fprintln(os.Stderr, "soak:", err)
		os.Exit(1)
	}
}

func soak(drill string, rate int, length, every time.Duration) error {
	if rate <= 0 || length <= 0 || every <= 0 {
		return errors.New("-rate, -for and -every must be above 0")
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
	fmt.Printf("%8s %10s %9s %9s %9s %7s\n", "at", "proxy RSS", "requests", "p50", "p99", "errors")
	fmt.Printf("%8s %10s\n", "0s", rss(p.Process.Pid))
	return load("http://"+proxy+"/v1/chat/completions", rate, length, every, func() string { return rss(p.Process.Pid) })
}

// load sends requests open loop and prints a line every interval.
func load(url string, rate int, length, every time.Duration, mem func() string) error {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1024}, Timeout: 30 * time.Second}
	var mu sync.Mutex
	var waits []time.Duration
	errs := 0
	var wg sync.WaitGroup
	begin := time.Now()
	report := begin.Add(every)
	for i := 0; ; i++ {
		due := begin.Add(time.Duration(i) * time.Second / time.Duration(rate))
		if due.Sub(begin) >= length {
			break
		}
		if due.After(report) {
			mu.Lock()
			line(report.Sub(begin), mem(), waits, errs)
			waits, errs = waits[:0], 0
			mu.Unlock()
			report = report.Add(every)
		}
		time.Sleep(time.Until(due))
		wg.Go(func() {
			ok := send(client, url)
			mu.Lock()
			defer mu.Unlock()
			if !ok {
				errs++
				return
			}
			waits = append(waits, time.Since(due))
		})
	}
	wg.Wait()
	line(time.Since(begin).Round(time.Second), mem(), waits, errs)
	return nil
}

// send posts one request and reads its answer; ok is a 200 read whole.
func send(client *http.Client, url string) bool {
	resp, err := client.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	_, err = io.Copy(io.Discard, resp.Body)
	return err == nil && resp.StatusCode == http.StatusOK
}

func line(at time.Duration, mem string, waits []time.Duration, errs int) {
	slices.Sort(waits)
	q := func(p float64) string {
		if len(waits) == 0 {
			return "-"
		}
		return waits[int(p*float64(len(waits)-1))].Round(10 * time.Microsecond).String()
	}
	fmt.Printf("%8s %10s %9d %9s %9s %7d\n", at, mem, len(waits), q(0.5), q(0.99), errs)
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
