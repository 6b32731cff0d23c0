package sweep

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/vclock"
)

// ShardFormat is the format tag of a shard file: a file without it is no
// shard of drill's.
const ShardFormat = "drill-shard/1"

// Shard kinds: which command ran the shard, and so how merge builds it.
const (
	KindSweep     = "sweep"
	KindRecommend = "recommend"
)

// Shard is one share of a sweep's drills, I of N (1 ≤ I ≤ N); the zero
// Shard is the whole sweep. The share is interleaved: run k of the sweep
// (0-based, in plan order: settings in grid order, each setting's repeats
// in seed order) belongs to shard k mod N + 1, so every shard gets a
// spread of the grid's settings and about the same number of drills.
type Shard struct {
	I, N int
}

// ParseShard reads --shard I/N; errors are usage errors.
func ParseShard(s string) (Shard, error) {
	i, n, ok := strings.Cut(s, "/")
	si, errI := strconv.Atoi(i)
	sn, errN := strconv.Atoi(n)
	if !ok || errI != nil || errN != nil {
		return Shard{}, exit.Usagef("--shard %q: want I/N, e.g. 1/4 (shard I of N, counted from 1)", s)
	}
	if sn < 1 || si < 1 || si > sn {
		return Shard{}, exit.Usagef("--shard %s: I must be from 1 to N and N at least 1", s)
	}
	if sn > MaxRuns {
		return Shard{}, exit.Usagef("--shard %s: at most %d shards (the most drills a sweep runs)", s, MaxRuns)
	}
	return Shard{I: si, N: sn}, nil
}

// Whole reports whether s is the whole sweep (no --shard).
func (s Shard) Whole() bool { return s.N == 0 }

// Has reports whether run k (0-based, in plan order) is in the shard.
func (s Shard) Has(k int) bool { return s.Whole() || k%s.N == s.I-1 }

// String is "I/N".
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.I, s.N) }

// ShardFile is what `drill sweep --shard I/N -o FILE` (and drill
// recommend's) writes and `drill sweep merge` reads.
type ShardFile struct {
	// Format is ShardFormat; Kind which command ran it (sweep, recommend);
	// Version the drill version that ran it.
	Format  string `json:"format"`
	Kind    string `json:"kind"`
	Version string `json:"version"`
	// Shard and Shards are I and N.
	Shard  int `json:"shard"`
	Shards int `json:"shards"`
	// Fingerprint is the SHA-256 of the whole sweep's definition (its
	// grid, every drill's configuration, the repeats, the clock, the
	// command line): shards of different sweeps refuse to merge.
	Fingerprint string `json:"fingerprint"`
	// Args is the command line that planned the sweep (its flags, without
	// --shard, -o and --force): merge plans the sweep again from them.
	Args []string `json:"args"`
	// Runs is the number of drills of the whole sweep.
	Runs int `json:"runs"`
	// WallS is the shard's wall time in seconds.
	WallS float64 `json:"wall_s"`
	// Outcomes are the shard's drills, in plan order.
	Outcomes []ShardRun `json:"outcomes"`
}

// ShardRun is one drill of a shard: its index in the whole sweep's plan,
// its journal (--record) and its outcome.
type ShardRun struct {
	Run     int    `json:"run"`
	Journal string `json:"journal,omitempty"`
	vclock.Outcome
}

// Fingerprint is the hex SHA-256 of v's JSON: a sweep's definition.
func Fingerprint(v any) (string, error) {
	h := sha256.New()
	if err := json.NewEncoder(h).Encode(v); err != nil {
		return "", fmt.Errorf("fingerprinting the sweep: %w", err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Write writes the shard file as JSON to w.
func (f *ShardFile) Write(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	if err := enc.Encode(f); err != nil {
		return fmt.Errorf("writing the shard file: %w", err)
	}
	return nil
}

// ReadShard reads the shard file at path; a file that is not one (no
// format tag, another format) is a usage error.
func ReadShard(path string) (*ShardFile, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, exit.UsageError(fmt.Errorf("reading shard: %w", err))
	}
	var f ShardFile
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, exit.Usagef("%s is not a shard file (%s JSON): %v", path, ShardFormat, err)
	}
	if f.Format != ShardFormat {
		return nil, exit.Usagef("%s is not a shard file: format %q, want %q", path, f.Format, ShardFormat)
	}
	return &f, nil
}

// Merged is what the shards of one sweep hold together.
type Merged struct {
	Kind string
	Args []string
	// Fingerprint is the shards' common fingerprint; Runs the sweep's drills.
	Fingerprint string
	Runs        int
	// Outcomes and Journals are every drill's, in plan order.
	Outcomes []vclock.Outcome
	Journals []string
	// WallS is the slowest shard's wall time.
	WallS float64
}

// ErrShards marks a set of shards merge refuses: a usage error (exit 2).
var ErrShards = errors.New("shards do not merge")

// MergeShards checks that files (read from paths) are the N shards of one
// sweep, each once, with one fingerprint, kind and version, each holding
// exactly its own share of the drills, and gathers their outcomes.
func MergeShards(paths []string, files []*ShardFile) (*Merged, error) {
	refuse := func(format string, a ...any) (*Merged, error) {
		return nil, exit.UsageError(fmt.Errorf("%w: %s", ErrShards, fmt.Sprintf(format, a...)))
	}
	if len(files) == 0 {
		return refuse("no shard files given")
	}
	first := files[0]
	m := &Merged{Kind: first.Kind, Args: first.Args, Fingerprint: first.Fingerprint, Runs: first.Runs}
	if first.Shards < 1 || first.Runs < 0 || first.Runs > MaxRuns {
		return refuse("%s: shards %d, runs %d", paths[0], first.Shards, first.Runs)
	}
	seen := make([]string, first.Shards+1)
	m.Outcomes, m.Journals = make([]vclock.Outcome, first.Runs), make([]string, first.Runs)
	for i, f := range files {
		switch {
		case f.Kind != first.Kind:
			return refuse("%s is a %s shard, %s a %s shard", paths[i], f.Kind, paths[0], first.Kind)
		case f.Version != first.Version:
			return refuse("%s was run by drill %s, %s by drill %s", paths[i], f.Version, paths[0], first.Version)
		case f.Fingerprint != first.Fingerprint || f.Runs != first.Runs:
			return refuse("%s and %s are shards of different sweeps (fingerprints %.12s…, %.12s…)", paths[0], paths[i], first.Fingerprint, f.Fingerprint)
		case f.Shards != first.Shards:
			return refuse("%s is a shard of %d, %s of %d", paths[i], f.Shards, paths[0], first.Shards)
		case f.Shard < 1 || f.Shard > f.Shards:
			return refuse("%s: shard %d of %d", paths[i], f.Shard, f.Shards)
		case seen[f.Shard] != "":
			return refuse("shard %d/%d given twice (%s, %s)", f.Shard, f.Shards, seen[f.Shard], paths[i])
		}
		seen[f.Shard] = paths[i]
		if err := m.add(f); err != nil {
			return refuse("%s: %v", paths[i], err)
		}
		m.WallS = max(m.WallS, f.WallS)
	}
	var missing []string
	for i := 1; i <= first.Shards; i++ {
		if seen[i] == "" {
			missing = append(missing, fmt.Sprintf("%d/%d", i, first.Shards))
		}
	}
	if len(missing) > 0 {
		return refuse("shard %s missing: merge takes all %d shards of the sweep", strings.Join(missing, ", "), first.Shards)
	}
	return m, nil
}

// add takes f's outcomes: exactly the runs of its share, each once.
func (m *Merged) add(f *ShardFile) error {
	s := Shard{I: f.Shard, N: f.Shards}
	want := 0
	for k := range m.Runs {
		if s.Has(k) {
			want++
		}
	}
	if len(f.Outcomes) != want {
		return fmt.Errorf("%d drills, shard %s of %d drills has %d", len(f.Outcomes), s, m.Runs, want)
	}
	for _, o := range f.Outcomes {
		if o.Run < 0 || o.Run >= m.Runs || !s.Has(o.Run) || m.Outcomes[o.Run].Status != "" {
			return fmt.Errorf("drill %d is not shard %s's, or is there twice", o.Run+1, s)
		}
		if o.Status == "" {
			return fmt.Errorf("drill %d has no status", o.Run+1)
		}
		m.Outcomes[o.Run], m.Journals[o.Run] = o.Outcome, o.Journal
	}
	return nil
}
