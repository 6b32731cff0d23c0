package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// shardSweep is the sweep the shard tests split: 8 settings × 2 repeats
// on the virtual clock, every outage's time limits running out on the
// instants emails arrive. No SDK retries: openai-go's retry backoff jitter
// comes from a random source drill cannot seed, the one part of a virtual
// drill that is not the same from run to run.
var shardSweep = []string{"sweep", "--clock", "virtual", "--no-tui", "--primary-timeout", "1s,2s", "--trip-failures", "3,5",
	"--outages", "busy,hang", "--repeat", "2", "--primary-retries", "0", "--backup-retries", "0",
	"--emails", "40", "--rate", "4", "--outage-from", "2s", "--outage-to", "8s"}

// wallTime matches the one figure a sweep's output measures of the
// machine, its wall time, in the JSON and in the table's note.
var wallTime = regexp.MustCompile(`"wall_s": [0-9.e+-]+|[0-9.,]+ m?s wall\.`)

// withoutWall is out with its wall time blanked.
func withoutWall(out string) string { return wallTime.ReplaceAllString(out, "WALL") }

// runShards runs args as n shards into dir and returns the shard files.
func runShards(t *testing.T, dir string, n int, args ...string) []string {
	t.Helper()
	var paths []string
	for i := 1; i <= n; i++ {
		p := filepath.Join(dir, fmt.Sprintf("shard-%d.json", i))
		_, stderr, code := execute(t.Context(), append(args, "--shard", fmt.Sprintf("%d/%d", i, n), "-o", p)...)
		if code != 0 && code != 1 {
			t.Fatalf("shard %d/%d: exit %d: %s", i, n, code, stderr)
		}
		paths = append(paths, p)
	}
	return paths
}

// TestSweepShardsMergeEqualWhole: a sweep run as 4 shards and merged
// prints what the sweep run whole prints, byte for byte (its wall time
// apart), as JSON and as the table.
func TestSweepShardsMergeEqualWhole(t *testing.T) {
	t.Parallel() // CPU only, no timing bound: runs beside the others
	dir := t.TempDir()
	shards := runShards(t, dir, 4, shardSweep...)
	for _, out := range [][]string{{"--json"}, {"--format", "md"}} {
		whole, stderr, code := execute(t.Context(), append(shardSweep, out...)...)
		if code != 0 {
			t.Fatalf("whole %v: exit %d: %s", out, code, stderr)
		}
		merged, stderr, code := execute(t.Context(), append(append([]string{"sweep", "merge"}, shards...), out...)...)
		if code != 0 {
			t.Fatalf("merge %v: exit %d: %s", out, code, stderr)
		}
		if withoutWall(whole) == whole {
			t.Fatalf("%v: no wall time found to leave out in %s", out, whole)
		}
		if w, m := withoutWall(whole), withoutWall(merged); w != m {
			t.Errorf("%v: merged shards differ from the whole sweep:\n--- whole\n%s\n--- merged\n%s", out, w, m)
		}
		if strings.Count(whole, "hang") < 4 {
			t.Errorf("%v: the whole sweep's output has too few rows to compare: %s", out, whole)
		}
	}
	// -o writes the same bytes merge prints.
	o := filepath.Join(dir, "merged.json")
	if _, stderr, code := execute(t.Context(), append(append([]string{"sweep", "merge"}, shards...), "--json", "-o", o)...); code != 0 {
		t.Fatalf("merge -o: exit %d: %s", code, stderr)
	}
	if b, err := os.ReadFile(o); err != nil || !strings.Contains(string(b), `"rows"`) {
		t.Fatalf("merge -o wrote %q (%v)", b, err)
	}
}

// TestRecommendShardsMergeEqualWhole: drill recommend run as 3 shards and
// merged recommends what it recommends run whole, byte for byte (its wall
// time apart).
func TestRecommendShardsMergeEqualWhole(t *testing.T) {
	t.Parallel() // CPU only, no timing bound: runs beside the others
	args := []string{"recommend", "--within", "5s", "--outages", "busy", "--grid", "primary-timeout=1s,2s",
		"--grid", "primary-retries=0", "--grid", "backup-retries=0", "--repeat", "2", "--json"}
	shards := runShards(t, t.TempDir(), 3, args...)
	whole, stderr, wholeCode := execute(t.Context(), args...)
	if wholeCode != 0 && wholeCode != 1 {
		t.Fatalf("whole: exit %d: %s", wholeCode, stderr)
	}
	merged, stderr, code := execute(t.Context(), append(append([]string{"sweep", "merge"}, shards...), "--json")...)
	if code != wholeCode {
		t.Fatalf("merge: exit %d, the whole search %d: %s", code, wholeCode, stderr)
	}
	if w, m := withoutWall(whole), withoutWall(merged); w != m || !strings.Contains(w, `"classes"`) {
		t.Errorf("merged shards differ from the whole search:\n--- whole\n%s\n--- merged\n%s", w, m)
	}
}

// TestSweepMergeRefuses: shards that are not all N of one sweep, each
// once, are refused with exit 2 and a message that says why.
func TestSweepMergeRefuses(t *testing.T) {
	dir := t.TempDir()
	small := []string{"sweep", "--clock", "virtual", "--no-tui", "--primary-timeout", "1s,2s", "--outages", "busy",
		"--primary-retries", "0", "--emails", "10", "--rate", "4", "--outage-from", "1s", "--outage-to", "2s"}
	s := runShards(t, dir, 2, small...)
	edited := func(name, old, new string) string {
		b, err := os.ReadFile(s[1])
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(strings.Replace(string(b), old, new, 1)), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	other := edited("other.json", `"fingerprint": "`, `"fingerprint": "0`)
	notShard := filepath.Join(dir, "not.json")
	if err := os.WriteFile(notShard, []byte(`{"rows": []}`), 0o600); err != nil {
		t.Fatal(err)
	}
	exists := filepath.Join(dir, "exists.json")
	if err := os.WriteFile(exists, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"a shard missing", []string{"sweep", "merge", s[0]}, "shard 2/2 missing"},
		{"a shard twice", []string{"sweep", "merge", s[0], s[0], s[1]}, "given twice"},
		{"another sweep's shard", []string{"sweep", "merge", s[0], other}, "different sweeps"},
		{"not a shard file", []string{"sweep", "merge", s[0], notShard}, "not a shard file"},
		{"-o exists", []string{"sweep", "merge", s[0], s[1], "-o", exists}, "--force"},
		{"--shard without -o", append(small, "--shard", "1/2"), "needs -o"},
		{"--shard out of range", append(small, "--shard", "3/2", "-o", filepath.Join(dir, "x.json")), "from 1 to N"},
		{"--shard -o exists", append(small, "--shard", "1/2", "-o", exists), "--force"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := execute(t.Context(), tc.args...)
			if code != 2 || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want exit 2 and %q", code, stderr, tc.want)
			}
		})
	}
	// Both shards changed alike still plan another sweep than they ran.
	for i, p := range s {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(strings.Replace(string(b), `"--emails=10"`, `"--emails=12"`, 1)), 0o600); err != nil {
			t.Fatal(err)
		}
		s[i] = p
	}
	if _, stderr, code := execute(t.Context(), "sweep", "merge", s[0], s[1]); code != 2 || !strings.Contains(stderr, "planned again") {
		t.Errorf("shards whose command line changed: exit %d, stderr %q; want exit 2, planned again", code, stderr)
	}
}
