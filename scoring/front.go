package scoring

import (
	"context"
	"encoding/binary"
	"math"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
)

// frontTable is the front rule's input in dense form, read once from the
// rows so that comparing two rows costs no map lookups: at 10,000 settings
// the rule compares up to 10⁸ pairs.
type frontTable struct {
	rows, objs int
	// cells are row r's figures, objective o at r*objs+o.
	cells []frontCell
	// paired says which objectives McNemar's test judges where both rows
	// carry per-email answers (all-4-right).
	paired []bool
	// words is the length of each row's email bitsets: answered (the row's
	// All4ByEmail has the email) and right (all four fields right) at
	// r*words; hasAnswers says the row carries per-email answers at all.
	words           int
	answered, right []uint64
	hasAnswers      []bool
}

// frontCell is one row's figure on one objective: its spread turned so
// that lower is better (a higher-is-better figure's spread negated) and n,
// how many runs measured it (Stat.N).
type frontCell struct {
	lo, hi float64
	n      int
}

// newFrontTable reads rows into dense form: one map lookup per row and
// objective, and each row's per-email answers as bitsets over the emails
// any row answered.
func newFrontTable(rows []FrontRow, objs []Objective) *frontTable {
	t := &frontTable{rows: len(rows), objs: len(objs), cells: make([]frontCell, len(rows)*len(objs)),
		paired: make([]bool, len(objs)), hasAnswers: make([]bool, len(rows))}
	for o, obj := range objs {
		t.paired[o] = obj.Figure == "all4_right"
	}
	for r, row := range rows {
		for o, obj := range objs {
			st := row.Figures[obj.Figure]
			c := frontCell{lo: st.Min, hi: st.Max, n: st.N}
			if obj.Higher {
				c.lo, c.hi = -st.Max, -st.Min
			}
			t.cells[r*len(objs)+o] = c
		}
	}
	// Number the emails any row answered, then set each row's bits.
	email := map[int]int{}
	for r, row := range rows {
		t.hasAnswers[r] = len(row.All4ByEmail) > 0
		for id := range row.All4ByEmail {
			if _, ok := email[id]; !ok {
				email[id] = len(email)
			}
		}
	}
	if len(email) == 0 {
		return t
	}
	t.words = (len(email) + 63) / 64
	t.answered, t.right = make([]uint64, len(rows)*t.words), make([]uint64, len(rows)*t.words)
	for r, row := range rows {
		for id, all4 := range row.All4ByEmail {
			k := email[id]
			w, bit := r*t.words+k/64, uint64(1)<<(k%64)
			t.answered[w] |= bit
			if all4 {
				t.right[w] |= bit
			}
		}
	}
	return t
}

// spreadBetter is ClearlyBetter on the dense form: row a is better than
// row b on objective o by more than the repeats' spread.
func (t *frontTable) spreadBetter(a, b, o int) bool {
	ca, cb := &t.cells[a*t.objs+o], &t.cells[b*t.objs+o]
	switch {
	case ca.n == 0:
		return false
	case cb.n == 0:
		return true
	}
	return ca.hi < cb.lo
}

// discordant is PairAll4's OnlyA and OnlyB for rows a and b: over the
// emails both answered, those right in a only and in b only.
func (t *frontTable) discordant(a, b int) (onlyA, onlyB int) {
	wa, wb := a*t.words, b*t.words
	for k := range t.words {
		both := t.answered[wa+k] & t.answered[wb+k]
		ra, rb := t.right[wa+k]&both, t.right[wb+k]&both
		onlyA += bits.OnesCount64(ra &^ rb)
		onlyB += bits.OnesCount64(rb &^ ra)
	}
	return onlyA, onlyB
}

// significance caches McNemar's verdict (McNemarExact < FrontSignificance)
// by the discordant counts, which are all it depends on: indexed by their
// total, then by the smaller count; 0 unknown, 1 no, 2 yes. One per
// worker, so it needs no lock.
type significance [][]int8

// significant reports whether McNemarExact(more, fewer) < FrontSignificance.
func (s *significance) significant(more, fewer int) bool {
	total := more + fewer
	for len(*s) <= total {
		*s = append(*s, nil)
	}
	if (*s)[total] == nil {
		(*s)[total] = make([]int8, total/2+1)
	}
	v := &(*s)[total][fewer]
	if *v == 0 {
		*v = 1
		if McNemarExact(more, fewer) < FrontSignificance {
			*v = 2
		}
	}
	return *v == 2
}

// dominates is the front rule for one pair on the dense form: row a is
// clearly better than row b on one objective and clearly worse on none,
// clearly better being ClearlyBetter's spread test and, on all-4-right
// with per-email answers on both sides, McNemar's test as Dominated says. The
// objectives the spread alone judges go first; McNemar's test, the
// costly one, runs only when they leave the verdict open.
func (t *frontTable) dominates(a, b int, sig *significance) bool {
	better, open := false, false
	for o := range t.objs {
		if t.needsPair(a, b, o) {
			open = true
			continue
		}
		if t.spreadBetter(b, a, o) {
			return false
		}
		better = better || t.spreadBetter(a, b, o)
	}
	if !open {
		return better
	}
	counted := false
	var aBetter, bBetter bool
	for o := range t.objs {
		if !t.needsPair(a, b, o) {
			continue
		}
		repeated := t.cells[a*t.objs+o].n >= 2 && t.cells[b*t.objs+o].n >= 2
		// With repeats on both sides, the spread must agree with the test.
		aSpread, bSpread := !repeated || t.spreadBetter(a, b, o), !repeated || t.spreadBetter(b, a, o)
		if !aSpread && !bSpread {
			continue
		}
		if !counted {
			onlyA, onlyB := t.discordant(a, b)
			switch {
			case onlyA > onlyB:
				aBetter = sig.significant(onlyA, onlyB)
			case onlyB > onlyA:
				bBetter = sig.significant(onlyB, onlyA)
			}
			counted = true
		}
		if bSpread && bBetter {
			return false
		}
		better = better || aSpread && aBetter
	}
	return better
}

// needsPair says whether McNemar's test judges rows a and b on objective
// o: all-4-right, both rows with per-email answers and the figure.
func (t *frontTable) needsPair(a, b, o int) bool {
	return t.paired[o] && t.hasAnswers[a] && t.hasAnswers[b] && t.cells[a*t.objs+o].n != 0 && t.cells[b*t.objs+o].n != 0
}

// frontBlock is how many rows a worker takes at a time, and how often it
// checks for cancellation.
const frontBlock = 32

// dominated is Dominated on the dense form, on every CPU, stopping with
// ctx's error when ctx is done. Rows alike in everything the rule reads
// get one verdict, worked out once: a sweep's settings often tie.
func (t *frontTable) dominated(ctx context.Context) ([]bool, error) {
	u, group := t.distinct()
	verdicts, err := u.dominatedDistinct(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]bool, t.rows)
	for i, g := range group {
		out[i] = verdicts[g]
	}
	return out, nil
}

// distinct is the table with each set of rows alike in everything the
// rule reads (figures' bits, per-email answers) kept once: group gives
// each row's place in it. The rule is a function of that data alone, so
// alike rows have alike verdicts; and alike rows never dominate each
// other (a beats b on an objective where b beats a: it is the same test).
func (t *frontTable) distinct() (u *frontTable, group []int) {
	u = &frontTable{objs: t.objs, paired: t.paired, words: t.words}
	group = make([]int, t.rows)
	seen := make(map[string]int, t.rows)
	var key []byte
	for r := range t.rows {
		key = key[:0]
		for _, c := range t.cells[r*t.objs : (r+1)*t.objs] {
			key = binary.LittleEndian.AppendUint64(key, math.Float64bits(c.lo))
			key = binary.LittleEndian.AppendUint64(key, math.Float64bits(c.hi))
			key = binary.LittleEndian.AppendUint64(key, uint64(c.n))
		}
		if t.hasAnswers[r] {
			key = append(key, 1)
			for _, w := range t.answered[r*t.words : (r+1)*t.words] {
				key = binary.LittleEndian.AppendUint64(key, w)
			}
			for _, w := range t.right[r*t.words : (r+1)*t.words] {
				key = binary.LittleEndian.AppendUint64(key, w)
			}
		}
		g, ok := seen[string(key)]
		if !ok {
			g = u.rows
			seen[string(key)] = g
			u.rows++
			u.cells = append(u.cells, t.cells[r*t.objs:(r+1)*t.objs]...)
			u.hasAnswers = append(u.hasAnswers, t.hasAnswers[r])
			if t.words > 0 {
				u.answered = append(u.answered, t.answered[r*t.words:(r+1)*t.words]...)
				u.right = append(u.right, t.right[r*t.words:(r+1)*t.words]...)
			}
		}
		group[r] = g
	}
	return u, group
}

// dominatedDistinct marks each row of a distinct table that another row
// dominates.
func (t *frontTable) dominatedDistinct(ctx context.Context) ([]bool, error) {
	out := make([]bool, t.rows)
	workers := min(runtime.GOMAXPROCS(0), (t.rows+frontBlock-1)/frontBlock)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			var sig significance
			last := -1 // the row that dominated the last one: often it dominates the next
			for ctx.Err() == nil {
				start := int(next.Add(frontBlock)) - frontBlock
				if start >= t.rows {
					return
				}
				for i := start; i < min(start+frontBlock, t.rows); i++ {
					if last >= 0 && last != i && t.dominates(last, i, &sig) {
						out[i] = true
						continue
					}
					for j := range t.rows {
						if j != i && j != last && t.dominates(j, i, &sig) {
							out[i], last = true, j
							break
						}
					}
				}
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}
