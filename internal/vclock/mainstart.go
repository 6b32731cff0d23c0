package vclock

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"testing"
	"testing/synctest"
	"time"
)

// This file is the one place drill's production code reaches into package
// testing. testing/synctest bubbles exist only inside a test (synctest.Test
// takes a *testing.T), so the virtual-clock child runs its body as the one
// synthetic test of a testing.M built by testing.MainStart. Go documents
// MainStart as internal to go test and not covered by the compatibility
// promise: a new Go may change its signature or its deps interface. The
// risk, what guards it (TestTheBubbleRunsOnThisGo) and the fallback are
// described in docs/architecture.md.

// testName is the synthetic test the child runs.
const testName = "drill_virtual_clock"

// runInBubble runs fn in a synctest bubble inside the one synthetic test of
// a testing.M, and returns that run's exit code (0: passed, no goroutine
// left blocked in the bubble, no panic).
func runInBubble(fn func(t *testing.T)) (int, error) {
	tests := []testing.InternalTest{{Name: testName, F: func(t *testing.T) {
		synctest.Test(t, fn)
	}}}
	m := testing.MainStart(deps{}, tests, nil, nil, nil)
	// testing.M parses flag.CommandLine unless it is parsed already: give it
	// exactly the flags the synthetic test needs, never drill's arguments.
	if !flag.Parsed() {
		if err := flag.CommandLine.Parse([]string{"-test.run=^" + testName + "$", "-test.count=1"}); err != nil {
			return 0, fmt.Errorf("vclock: setting up the synthetic test: %w", err)
		}
	}
	return m.Run(), nil
}

// deps is the minimal testing.MainStart dependency set for the one
// synthetic test: no profiles, no fuzzing, no coverage.
type deps struct{}

var errNotSupported = errors.New("not supported in a virtual-clock run")

func (deps) ImportPath() string { return "" }
func (deps) ModulePath() string { return "" }
func (deps) MatchString(pat, str string) (bool, error) {
	return regexp.MatchString(pat, str)
}
func (deps) SetPanicOnExit0(bool)                        {}
func (deps) StartCPUProfile(io.Writer) error             { return errNotSupported }
func (deps) StopCPUProfile()                             {}
func (deps) StartTestLog(io.Writer)                      {}
func (deps) StopTestLog() error                          { return nil }
func (deps) WriteProfileTo(string, io.Writer, int) error { return errNotSupported }
func (deps) CoordinateFuzzing(time.Duration, int64, time.Duration, int64, int, []corpusEntry, []reflect.Type, string, string) error {
	return errNotSupported
}
func (deps) RunFuzzWorker(func(corpusEntry) error) error { return errNotSupported }
func (deps) ReadCorpus(string, []reflect.Type) ([]corpusEntry, error) {
	return nil, errNotSupported
}
func (deps) CheckCorpus([]any, []reflect.Type) error { return nil }
func (deps) ResetCoverage()                          {}
func (deps) SnapshotCoverage()                       {}
func (deps) InitRuntimeCoverage() (string, func(string, string) (string, error), func() float64) {
	return "", nil, nil
}

// corpusEntry is testing's fuzz corpus entry type, which its dependency
// interface names through an alias of this struct.
type corpusEntry = struct {
	Parent     string
	Path       string
	Data       []byte
	Values     []any
	Generation int
	IsSeed     bool
}
