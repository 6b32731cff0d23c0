package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/drill-dev/drill/internal/journal"
)

// TestPredictSaysWhatItDoes: predict -f on a file of several drills says
// it predicts the first (it runs nothing), and a range whose ends agree is
// one number ("30", never "30–30").
func TestPredictSaysWhatItDoes(t *testing.T) {
	_, stderr, code := execute(t.Context(), "predict", "-f", "../../examples/chapter.yaml")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if strings.Contains(stderr, "running") || !strings.Contains(stderr, "predicting the first") {
		t.Errorf("predict -f's note %q, want it to say it predicts the first drill", stderr)
	}
	out, stderr, code := execute(t.Context(), "predict", "--outage", "busy", "--policy", "breaker")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for l := range strings.SplitSeq(out, "\n") {
		if i := strings.LastIndex(l, ": "); i >= 0 {
			if lo, hi, ok := strings.Cut(strings.TrimSuffix(l[i+2:], " s"), "–"); ok && lo == hi {
				t.Errorf("a range with equal ends: %q", l)
			}
		}
	}
	if !strings.Contains(out, "calls to the broken model during the outage: 30\n") {
		t.Errorf("predict busy/breaker:\n%s\nwant the calls as one number, 30", out)
	}
}

// TestVirtualRunTimeIsNotWallTime: the summary of a virtual-clock run
// names its length as the virtual clock's, not as wall time.
func TestVirtualRunTimeIsNotWallTime(t *testing.T) {
	out, stderr, code := execute(t.Context(), "run", "--clock", "virtual", "--no-tui", "--emails", "4", "--rate", "20",
		"--outage-from", "0s", "--outage-to", "1s")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if strings.Contains(out, "wall time") || !strings.Contains(out, "run time on the virtual clock") {
		t.Errorf("a virtual run's summary:\n%s\nwant its length named as the virtual clock's, not wall time", out)
	}
}

// TestRootExampleNamesWhatCompareWrites: the root help's replay example
// names a journal the example's compare line writes (its runs are
// numbered: runs/07-hang-breaker.jsonl), computed from compare's default
// policies.
func TestRootExampleNamesWhatCompareWrites(t *testing.T) {
	root := newRootCmd()
	compare, _, err := root.Find([]string{"compare"})
	if err != nil {
		t.Fatal(err)
	}
	policies, err := compare.Flags().GetStringSlice("policies")
	if err != nil {
		t.Fatal(err)
	}
	outages := []string{"busy", "hang"}
	if !strings.Contains(root.Example, "drill compare --outages "+strings.Join(outages, ",")+" --record runs/") {
		t.Fatalf("the root example's compare line changed:\n%s", root.Example)
	}
	i := slices.Index(outages, "hang")*len(policies) + slices.Index(policies, "breaker")
	want := "drill replay " + journal.RunPath("runs", i, "hang", "breaker")
	if !strings.Contains(root.Example, want) {
		t.Errorf("the root example does not replay what compare writes (%s):\n%s", want, root.Example)
	}
}

// TestNoChapterJargon: the docs, the README and every command's help speak
// of "the lab drill", never of "the chapter" a user has not read; the
// example file's name (chapter.yaml), test names and the case study's
// account of where the lab drill comes from are the exceptions.
func TestNoChapterJargon(t *testing.T) {
	word := regexp.MustCompile(`(?i)chapter`)
	allowed := regexp.MustCompile(`(?i)chapter\.yaml|TestChapter\w*|chapter of a course`)
	check := func(where, text string) {
		for i, line := range strings.Split(text, "\n") {
			if word.MatchString(allowed.ReplaceAllString(line, "")) {
				t.Errorf("%s:%d: %q", where, i+1, line)
			}
		}
	}
	files, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range append(files, "../../README.md") {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		check(filepath.Base(f), string(b))
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		check(c.CommandPath(), c.Short+"\n"+c.Long+"\n"+c.Example)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd())
}
