package vclock

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"strings"
)

// MaxDefaultParallel is the most drills that run at once when the caller
// sets no bound, however much memory there is: 1,000 drills at once (a
// 250-setting sweep with --repeat 4) peaked at 2.7 GiB and took 243 s, 64
// at a time 294 MiB and 98 s (the same loaded machine). Virtual time is
// free, so running in turns costs no wall time.
const MaxDefaultParallel = 64

// drillBytes is the memory one drill in flight is budgeted: it holds its
// SDK clients, its emails' goroutines and its log, about 3 MiB at a
// drill's peak; the budget leaves room for a longer drill and the fold.
const drillBytes = 16 << 20

// DefaultParallel is how many drills run at once when the caller sets no
// bound (--max-parallel 0): as many as half the memory available can hold
// at drillBytes each (the smaller of MemAvailable and the cgroup's limit),
// at least 1 and at most MaxDefaultParallel. Where the memory cannot be
// read, MaxDefaultParallel.
func DefaultParallel() int {
	return parallelFor(availableMemory())
}

// parallelFor is DefaultParallel for avail bytes (0: unknown).
func parallelFor(avail int64) int {
	if avail <= 0 {
		return MaxDefaultParallel
	}
	return int(max(1, min(avail/2/drillBytes, MaxDefaultParallel)))
}

// availableMemory is the memory this process may still use, in bytes: the
// smaller of the kernel's MemAvailable and the room left under the
// cgroup's memory.max; 0 when neither can be read.
func availableMemory() int64 {
	avail := memAvailable()
	if limit, used := cgroupMemory(); limit > 0 {
		room := max(limit-used, 0)
		if avail == 0 || room < avail {
			avail = room
		}
	}
	return avail
}

func memAvailable() int64 {
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemAvailable:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}

// cgroupMemory reads cgroup v2's memory.max and memory.current for this
// process's cgroup; limit is 0 when there is none ("max") or it cannot be
// read.
func cgroupMemory() (limit, used int64) {
	read := func(name string) int64 {
		b, err := os.ReadFile("/sys/fs/cgroup/" + name)
		if err != nil {
			return 0
		}
		v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
		if err != nil {
			return 0 // "max": no limit
		}
		return v
	}
	return read("memory.max"), read("memory.current")
}
