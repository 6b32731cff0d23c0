//go:build realtime

package vclock

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/scoring"
)

// TestVirtualMatchesRealTime runs the chapter's eight drills in real time
// (about a minute, all at once, as `drill compare` does) and in virtual
// time, and checks that every pair of summaries agrees within the
// equivalence tolerances, with seconds within jitterTolerance: the SDK's
// unseeded backoff jitter moves two runs of one drill that far apart on
// any clock. Built with -tags realtime, as CI runs it, alone: a minute of
// real time whose real side drifts on a loaded machine, and whose busy /
// fail-fast row differs by design (a real busy tone takes about 1 ms, so
// real time's cooldown ends just after an arrival tick; see the
// equivalence table in docs/virtual-time.md).
func TestVirtualMatchesRealTime(t *testing.T) {
	cfgs := chapterConfigs(t)
	// Virtual first, so its CPU does not delay the real-time runs.
	jobs := recordedJobs(t, cfgs, t.TempDir())
	virtual, err := Drills(t.Context(), jobs, 0, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	real := make([]scoring.Summary, len(cfgs))
	realEvents := make([][]event.Event, len(cfgs))
	var wg sync.WaitGroup
	for i, cfg := range cfgs {
		r, err := startFake(t.Context(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			r.Wait()
			real[i] = scoring.Summarize(r.Log().Events())
			realEvents[i] = r.Log().Events()
		})
	}
	wg.Wait()
	// The engine shifts the rest of its arrival schedule by however late an
	// email was sent, so on a machine too loaded to keep real time the
	// arrivals drift against the outage window, which no clock can match.
	late := maxLateness(realEvents)
	if late > 500*time.Millisecond {
		// Asked for by name, so never skipped: a machine too loaded to keep
		// real time fails the check, saying so, rather than passing it.
		t.Fatalf("the real-time runs sent emails up to %v late (bound 500ms): the machine is too loaded to measure real time; run it alone", late)
	}
	t.Logf("real-time emails sent up to %v late", late.Round(time.Millisecond))
	for i, cfg := range cfgs {
		changed := changedAnswers(journalEvents(t, jobs[i].Journal), realEvents[i])
		if d := disagreements(virtual[i].Summary, real[i], changed, jitterTolerance); len(d) > 0 {
			t.Errorf("%s/%s: virtual and real disagree: %v", cfg.Outage, cfg.Policy.Name, d)
		}
		t.Logf("%s", tableRow("", virtual[i].Summary, real[i], changed))
	}
}

// TestEquivalenceTable prints the equivalence table of docs/virtual-time.md from the files
// vclock/testdata/equivalence.sh wrote to $DRILL_EQ_DIR (real-time and
// virtual `drill compare --json` of each set of settings), and fails on any
// disagreement beyond the tolerances. Skipped when DRILL_EQ_DIR is unset.
func TestEquivalenceTable(t *testing.T) {
	dir := os.Getenv("DRILL_EQ_DIR")
	if dir == "" {
		t.Skip("set DRILL_EQ_DIR to the directory vclock/testdata/equivalence.sh wrote")
	}
	sets, err := os.ReadFile(filepath.Join(dir, "sets.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("| Settings | Outage / policy | Served P/B/C/E, real · virtual | Median wait, outage | p95 wait, outage (not compared) | Email 35 wait | Breaker first open | All 4 right | Emails answered differently | Agree |\n")
	b.WriteString("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
	rows, failed, realFailed := 0, 0, 0
	var r2 strings.Builder
	sc := bufio.NewScanner(bytes.NewReader(sets))
	for sc.Scan() {
		name, args, _ := strings.Cut(sc.Text(), "|")
		if name == "" {
			continue
		}
		real, virt := readSums(t, filepath.Join(dir, "real-"+name+".json")), readSums(t, filepath.Join(dir, "virt-"+name+".json"))
		real2 := readSums(t, filepath.Join(dir, "real2-"+name+".json"))
		if len(real) != len(virt) || len(real) != len(real2) {
			t.Fatalf("set %s: %d and %d real summaries, %d virtual", name, len(real), len(real2), len(virt))
		}
		realJ, _ := filepath.Glob(filepath.Join(dir, "real-"+name, "*.jsonl"))
		real2J, _ := filepath.Glob(filepath.Join(dir, "real2-"+name, "*.jsonl"))
		virtJ, _ := filepath.Glob(filepath.Join(dir, "virt-"+name, "*.jsonl"))
		if len(realJ) != len(real) || len(virtJ) != len(real) || len(real2J) != len(real) {
			t.Fatalf("set %s: journals missing", name)
		}
		var realEvents [][]event.Event
		for _, p := range realJ {
			realEvents = append(realEvents, journalEvents(t, p))
		}
		t.Logf("set %s: real-time emails sent up to %v late", name, maxLateness(realEvents).Round(time.Millisecond))
		if args == "" {
			args = "the chapter's"
		} else {
			args = "`" + args + "`"
		}
		for i := range real {
			rows++
			realEv := journalEvents(t, realJ[i])
			changed := changedAnswers(journalEvents(t, virtJ[i]), realEv)
			if d := disagreements(virt[i], real[i], changed, secondsTolerance); len(d) > 0 {
				failed++
				t.Errorf("%s %s/%s: %v", name, real[i].Outage, real[i].Policy, d)
			}
			b.WriteString(tableRow(args, virt[i], real[i], changed) + "\n")
			changed2 := changedAnswers(journalEvents(t, real2J[i]), realEv)
			if d := disagreements(real2[i], real[i], changed2, secondsTolerance); len(d) > 0 {
				realFailed++
				t.Logf("real against real, %s %s/%s: %v", name, real[i].Outage, real[i].Policy, d)
			}
			r2.WriteString(tableRow(args, real2[i], real[i], changed2) + "\n")
		}
	}
	t.Logf("%d drills, %d disagree between real and virtual\n%s", rows, failed, b.String())
	t.Logf("real run 1 against real run 2 (second figure), %d of %d disagree:\n%s", realFailed, rows, r2.String())
}

func readSums(t *testing.T, path string) []scoring.Summary {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var sums []scoring.Summary
	if err := json.Unmarshal(raw, &sums); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return sums
}

// tableRow is one Markdown row: real figure · virtual figure per column.
func tableRow(settings string, virt, real scoring.Summary, changed int) string {
	pair := func(r, v *float64) string { return fmtp(r) + " · " + fmtp(v) }
	served := func(s scoring.Served) string {
		return fmt.Sprintf("%d/%d/%d/%d", s.Primary, s.Backup, s.Canned, s.Error)
	}
	agree := "yes"
	if d := disagreements(virt, real, changed, secondsTolerance); len(d) > 0 {
		agree = "no: " + strings.Join(d, "; ")
	}
	return fmt.Sprintf("| %s | %s / %s | %s · %s | %s | %s | %s | %s | %.1f%% · %.1f%% | %d | %s |",
		settings, real.Outage, real.Policy, served(real.Served), served(virt.Served),
		pair(real.MedianWaitOutageS, virt.MedianWaitOutageS), pair(real.P95WaitOutageS, virt.P95WaitOutageS),
		pair(real.Followed.WaitS, virt.Followed.WaitS), pair(real.BreakerFirstOpenS, virt.BreakerFirstOpenS),
		100*real.All4Right, 100*virt.All4Right, changed, agree)
}

// maxLateness is how much later than its schedule (i / rate after the
// start) any email of the runs was sent.
func maxLateness(runs [][]event.Event) time.Duration {
	var late time.Duration
	for _, evs := range runs {
		var rate float64
		for _, e := range evs {
			switch {
			case e.Kind == event.RunStart && e.Run != nil:
				rate = e.Run.Rate
			case e.Kind == event.EmailSent && rate > 0:
				due := time.Duration(float64(e.Email-1) / rate * float64(time.Second))
				late = max(late, e.At-due)
			}
		}
	}
	return late
}
