package sweep

import (
	"strings"
	"testing"

	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/vclock"
)

// TestShardsShareEveryRunOnce: the N shards of a sweep hold every drill
// exactly once, interleaved, and a bad --shard is a usage error.
func TestShardsShareEveryRunOnce(t *testing.T) {
	const runs, n = 11, 4
	count := make([]int, runs)
	for i := 1; i <= n; i++ {
		s, err := ParseShard(strings.Join([]string{string(rune('0' + i)), "4"}, "/"))
		if err != nil {
			t.Fatal(err)
		}
		for k := range runs {
			if s.Has(k) {
				count[k]++
				if k%n != i-1 {
					t.Errorf("run %d in shard %s", k, s)
				}
			}
		}
	}
	for k, c := range count {
		if c != 1 {
			t.Errorf("run %d in %d shards", k, c)
		}
	}
	for _, bad := range []string{"", "1", "0/4", "5/4", "a/4", "1/0", "-1/4", "1/100000"} {
		if _, err := ParseShard(bad); exit.Code(err) != exit.Usage {
			t.Errorf("ParseShard(%q) = %v, want a usage error", bad, err)
		}
	}
}

// TestMergeShardsRefusesAShardsOwnDrillsMissing: a shard file whose
// drills are not exactly its share is refused.
func TestMergeShardsRefusesAShardsOwnDrillsMissing(t *testing.T) {
	file := func(i int, runs ...int) *ShardFile {
		f := &ShardFile{Format: ShardFormat, Kind: KindSweep, Shard: i, Shards: 2, Fingerprint: "f", Runs: 4}
		for _, r := range runs {
			f.Outcomes = append(f.Outcomes, ShardRun{Run: r, Outcome: vclock.Outcome{Status: "completed"}})
		}
		return f
	}
	paths := []string{"a", "b"}
	if m, err := MergeShards(paths, []*ShardFile{file(1, 0, 2), file(2, 1, 3)}); err != nil || len(m.Outcomes) != 4 {
		t.Fatalf("good shards: %v", err)
	}
	for name, files := range map[string][]*ShardFile{
		"a drill missing":       {file(1, 0), file(2, 1, 3)},
		"another shard's drill": {file(1, 0, 1), file(2, 1, 3)},
		"a drill twice":         {file(1, 0, 0), file(2, 1, 3)},
	} {
		if _, err := MergeShards(paths, files); exit.Code(err) != exit.Usage {
			t.Errorf("%s: %v, want a usage error", name, err)
		}
	}
}
