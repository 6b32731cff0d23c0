package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// inputHeader and inputRunStart start the crafted journals of these tests.
const (
	inputHeader   = `{"type":"header","format":1,"config":{"emails":2,"ceiling_ns":60000000000}}`
	inputRunStart = `{"type":"event","seq":0,"at_ns":0,"kind":"run_start","run":{"outage":"busy","policy":"breaker","emails":2,"rate":2,"outage_from_s":1,"outage_to_s":2}}`
)

// craftedJournals writes the hostile journals the issue lists into dir and
// returns them by name, with the text their error must hold.
func craftedJournals(t *testing.T, dir string) map[string][2]string {
	t.Helper()
	write := func(name string, lines ...string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	sent := `{"type":"event","seq":1,"at_ns":5000000000,"kind":"email_sent","email":1}`
	return map[string][2]string{
		"negative at_ns": {write("negative.jsonl", inputHeader, inputRunStart,
			`{"type":"event","seq":1,"at_ns":-2000000000,"kind":"attempt_start","email":1,"rung":"primary"}`), `:3: invalid journal event: field "at_ns"`},
		"decreasing at_ns": {write("decreasing.jsonl", inputHeader, inputRunStart, sent,
			`{"type":"event","seq":2,"at_ns":1000000000,"kind":"attempt_start","email":1,"rung":"primary"}`), `:4: invalid journal event: field "at_ns"`},
		"at_ns 1e17": {write("huge.jsonl", inputHeader, inputRunStart,
			`{"type":"event","seq":1,"at_ns":100000000000000000,"kind":"attempt_start","email":1,"rung":"primary"}`), `:3: invalid journal event: field "at_ns"`},
		"at_ns 9e18 without a ceiling": {write("huger.jsonl", `{"type":"header","format":1}`, inputRunStart,
			`{"type":"event","seq":1,"at_ns":9000000000000000000,"kind":"attempt_start","email":1,"rung":"primary"}`), `:3: invalid journal event: field "at_ns"`},
		"email id beyond the run": {write("email.jsonl", inputHeader, inputRunStart,
			`{"type":"event","seq":1,"at_ns":1,"kind":"email_sent","email":3}`), `:3: invalid journal event: field "email"`},
	}
}

// specialPaths makes the paths that are not regular files: a directory, a
// named pipe with no writer, a symbolic link loop and a device.
func specialPaths(t *testing.T, dir string) map[string][2]string {
	t.Helper()
	fifo := filepath.Join(dir, "fifo.jsonl")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	loop := filepath.Join(dir, "loop.jsonl")
	if err := os.Symlink(filepath.Join(dir, "loop2.jsonl"), loop); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(loop, filepath.Join(dir, "loop2.jsonl")); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "adir")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	return map[string][2]string{
		"fifo":         {fifo, "named pipe"},
		"symlink loop": {loop, "too many levels of symbolic links"},
		"device":       {os.DevNull, "character device"},
		"directory":    {sub, "directory"},
	}
}

// TestHostileJournalsExitTwo: the crafted journals and the paths that are
// not journal files each make replay and report exit 2 with a message
// naming the file, in the running command, quickly (a FIFO with no writer
// must not block).
func TestHostileJournalsExitTwo(t *testing.T) {
	dir := t.TempDir()
	cases := craftedJournals(t, dir)
	for name, c := range specialPaths(t, dir) {
		cases[name] = c
	}
	for name, c := range cases {
		path, want := c[0], c[1]
		commands := [][]string{
			{"replay", path, "--no-tui", "--json"},
			{"replay", path},
			{"report", path, "-o", filepath.Join(dir, "r.html"), "--dpi", "10"},
		}
		if name == "directory" {
			// A directory is meant for report: the journals in it.
			commands = commands[:2]
		}
		for _, args := range commands {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			stdout, stderr, code := execute(ctx, args...)
			cancel()
			if code != 2 || !strings.Contains(stderr, path) || !strings.Contains(stderr, want) || stdout != "" {
				t.Errorf("%s: %v: exit %d, stdout %q, stderr %q; want exit 2 and a message naming the file with %q",
					name, args[:1], code, stdout, stderr, want)
			}
		}
	}
}

// TestReportDirectoryHoldingAFIFO: report's directory argument is expanded
// to the *.jsonl in it; one that is a named pipe is bad input, not a hang.
func TestReportDirectoryHoldingAFIFO(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "a.jsonl"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := execute(context.Background(), "report", dir, "-o", filepath.Join(t.TempDir(), "r.md"))
	if code != 2 || !strings.Contains(stderr, "named pipe") {
		t.Errorf("exit %d, stderr %q; want 2 naming the pipe", code, stderr)
	}
}

// TestReplayAndReportInterrupted: once the command's context has ended (the
// first Ctrl-C or SIGTERM), replay and report stop with exit 130.
func TestReplayAndReportInterrupted(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ok.jsonl")
	if err := os.WriteFile(path, []byte(inputHeader+"\n"+inputRunStart+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, args := range [][]string{{"replay", path, "--json"}, {"report", path, "-o", filepath.Join(dir, "r.html")}} {
		if _, stderr, code := execute(ctx, args...); code != 130 {
			t.Errorf("%v: exit %d (stderr %q), want 130", args[:1], code, stderr)
		}
	}
}

// runDrillMain runs drill's real main in a child process: the test binary,
// which TestMain turns into drill when DRILL_HELPER_ARGS is set.
func runDrillMain(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), "DRILL_HELPER_ARGS="+strings.Join(args, "\x1f"))
	return cmd
}

// TestRealProcess runs the real binary's main on the hostile inputs: exit
// 2, a one-line message and no stack trace.
func TestRealProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	dir := t.TempDir()
	cases := craftedJournals(t, dir)
	for name, c := range specialPaths(t, dir) {
		cases[name] = c
	}
	for name, c := range cases {
		cmd := runDrillMain(t, "replay", c[0], "--no-tui", "--json")
		var stderr strings.Builder
		cmd.Stderr = &stderr
		err := cmd.Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 2 {
			t.Errorf("%s: %v, want exit status 2 (stderr %q)", name, err, stderr.String())
			continue
		}
		msg := stderr.String()
		if strings.Contains(msg, "goroutine ") || strings.Contains(msg, "panic") || strings.Count(strings.TrimSpace(msg), "\n") != 0 ||
			!strings.HasPrefix(msg, "drill: ") || !strings.Contains(msg, c[1]) {
			t.Errorf("%s: stderr %q, want one line starting drill: with %q", name, msg, c[1])
		}
	}
}

// TestRealProcessSIGTERM: the first SIGTERM stops a replay that is reading
// its journal, with exit 130 and no stack trace.
func TestRealProcessSIGTERM(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	// A journal big enough that replaying it takes a while: a header and
	// many events; SIGTERM arrives after the child has started reading.
	path := filepath.Join(t.TempDir(), "big.jsonl")
	var b strings.Builder
	b.WriteString(inputHeader + "\n" + inputRunStart + "\n")
	for i := 1; i < 400_000; i++ {
		b.WriteString(`{"type":"event","seq":`)
		b.WriteString(strconv.Itoa(i))
		b.WriteString(`,"at_ns":1,"kind":"attempt_start","email":1,"rung":"primary"}` + "\n")
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	// The signal races the replay's end: a replay that finished first
	// checked nothing, so it is tried again, and three such tries fail.
	for range 3 {
		stderr, err := replayUntilSignal(t, path)
		var ee *exec.ExitError
		switch {
		case err == nil:
			continue
		case !errors.As(err, &ee) || ee.ExitCode() != 130:
			t.Errorf("%v, want exit status 130 (stderr %q)", err, stderr)
		case !strings.Contains(stderr, "drill: interrupted") || strings.Contains(stderr, "goroutine "):
			t.Errorf("stderr %q, want drill: interrupted and no stack trace", stderr)
		}
		return
	}
	t.Fatal("the replay finished before SIGTERM arrived, three times: the signal's handling was never checked")
}

// replayUntilSignal starts drill replay of path in a child process, sends
// it SIGTERM once it has the journal open, and returns what it wrote on
// stderr and how it exited.
func replayUntilSignal(t *testing.T, path string) (string, error) {
	t.Helper()
	cmd := runDrillMain(t, "replay", path, "--json")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Signal once the child has the journal open: its handler is set by then.
	fdDir := filepath.Join("/proc", strconv.Itoa(cmd.Process.Pid), "fd")
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline) && !holdsOpen(fdDir, path); {
		time.Sleep(5 * time.Millisecond)
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	err := cmd.Wait()
	return stderr.String(), err
}

// holdsOpen reports whether a process's /proc fd directory has path open.
func holdsOpen(fdDir, path string) bool {
	entries, err := os.ReadDir(fdDir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if target, err := os.Readlink(filepath.Join(fdDir, e.Name())); err == nil && target == path {
			return true
		}
	}
	return false
}
