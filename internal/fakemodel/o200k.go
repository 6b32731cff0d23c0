package fakemodel

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"hash/maphash"
	"io"
	"math"
	"strings"

	"github.com/dlclark/regexp2"
)

//go:generate go run gen_o200k.go

// o200kBPE is the o200k_base encoding, the only one the fake model counts
// with, in a compact form (see gen_o200k.go): every token in rank order as a
// length byte and its bytes, gzipped. It is 1 MB where the four .tiktoken
// files of the usual offline loader are 7 MB.
//
//go:embed o200k_base.bpe.gz
var o200kBPE []byte

// o200kPattern is o200k_base's pre-tokenizer: the text is split into these
// pieces and each is byte-pair encoded on its own (as OpenAI's tiktoken and
// github.com/pkoukk/tiktoken-go define it).
var o200kPattern = strings.Join([]string{
	`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?`,
	`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?`,
	`\p{N}{1,3}`,
	` ?[^\s\p{L}\p{N}]+[\r\n/]*`,
	`\s*[\r\n]+`,
	`\s+(?!\S)`,
	`\s+`,
}, "|")

// bpe is a byte-pair encoder that only counts and cuts: it keeps the ranks
// as the table's bytes back to back, an offset per rank and an
// open-addressing index of rank+1 (0 is empty), about 4 MB where
// tiktoken-go's maps of the same table hold about 21 MB in every process
// that runs a fake model. It encodes exactly as tiktoken-go's Encode(s,
// nil, nil) does (special tokens count as ordinary text); a test checks
// the two agree.
type bpe struct {
	raw   []byte   // every token's bytes, in rank order
	off   []uint32 // token r is raw[off[r]:off[r+1]]
	index []uint32 // rank+1 by hash of the bytes, linear probing
	mask  uint64
	seed  maphash.Seed
	pat   *regexp2.Regexp
}

// loadO200k decodes the embedded table into a bpe.
func loadO200k() (*bpe, error) {
	zr, err := gzip.NewReader(bytes.NewReader(o200kBPE))
	if err != nil {
		return nil, fmt.Errorf("fakemodel: reading the embedded o200k_base: %w", err)
	}
	packed, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("fakemodel: reading the embedded o200k_base: %w", err)
	}
	pat, err := regexp2.Compile(o200kPattern, regexp2.None)
	if err != nil {
		return nil, fmt.Errorf("fakemodel: compiling o200k_base's pattern: %w", err)
	}
	b := &bpe{raw: make([]byte, 0, len(packed)), off: make([]uint32, 0, 200_001), seed: maphash.MakeSeed(), pat: pat}
	for i := 0; i < len(packed); {
		n := int(packed[i])
		if n == 0 || i+1+n > len(packed) {
			return nil, fmt.Errorf("fakemodel: the embedded o200k_base is corrupt at byte %d", i)
		}
		b.off = append(b.off, uint32(len(b.raw)))
		b.raw = append(b.raw, packed[i+1:i+1+n]...)
		i += 1 + n
	}
	tokens := len(b.off)
	b.off = append(b.off, uint32(len(b.raw)))
	size := uint64(1)
	for size < 2*uint64(tokens) {
		size <<= 1
	}
	b.index, b.mask = make([]uint32, size), size-1
	for r := range tokens {
		h := maphash.Bytes(b.seed, b.token(r)) & b.mask
		for b.index[h] != 0 {
			h = (h + 1) & b.mask
		}
		b.index[h] = uint32(r + 1)
	}
	return b, nil
}

// tokens is the number of tokens in the table.
func (b *bpe) tokens() int { return len(b.off) - 1 }

// token returns the bytes of rank r.
func (b *bpe) token(r int) []byte { return b.raw[b.off[r]:b.off[r+1]] }

// rank returns p's rank, or -1 if p is not a token.
func (b *bpe) rank(p string) int {
	h := maphash.String(b.seed, p) & b.mask // the same hash as maphash.Bytes of its bytes
	for {
		v := b.index[h]
		if v == 0 {
			return -1
		}
		if string(b.token(int(v-1))) == p {
			return int(v - 1)
		}
		h = (h + 1) & b.mask
	}
}

// encode splits s into the pattern's pieces, byte-pair encodes each and
// calls f with the piece and the start of every token in it (and, last,
// len(piece)); it stops when f returns false.
func (b *bpe) encode(s string, f func(piece string, starts []int) bool) {
	var starts []int
	m, _ := b.pat.FindStringMatch(s)
	for m != nil {
		piece := m.String()
		if starts = b.merge(piece, starts[:0]); !f(piece, starts) {
			return
		}
		m, _ = b.pat.FindNextMatch(m)
	}
}

// count returns the number of tokens in s.
func (b *bpe) count(s string) int {
	n := 0
	b.encode(s, func(_ string, starts []int) bool {
		n += len(starts) - 1
		return true
	})
	return n
}

// prefix returns the text of s's first n tokens and whether that cuts s;
// s itself when it does not.
func (b *bpe) prefix(s string, n int) (string, bool) {
	var out strings.Builder
	cut := false
	b.encode(s, func(piece string, starts []int) bool {
		if k := len(starts) - 1; k <= n {
			out.WriteString(piece)
			n -= k
			return true
		}
		out.WriteString(piece[:starts[n]])
		cut = true
		return false
	})
	if !cut {
		return s, false
	}
	return out.String(), true
}

// merge byte-pair encodes one piece: it returns the start of every token
// in it and, last, len(piece). It merges as tiktoken does: the adjacent
// pair whose joined bytes have the lowest rank first, the leftmost on a
// tie, until no joined pair is a token.
func (b *bpe) merge(piece string, parts []int) []int {
	if len(piece) == 1 || b.rank(piece) >= 0 {
		return append(parts, 0, len(piece))
	}
	// parts[i] is a token's start; ranks[i] the rank of joining token i
	// and token i+1 (MaxInt when that is not a token).
	for i := 0; i <= len(piece); i++ {
		parts = append(parts, i)
	}
	ranks := make([]int, len(parts))
	pairRank := func(i int) int {
		if i+2 >= len(parts) {
			return math.MaxInt
		}
		if r := b.rank(piece[parts[i]:parts[i+2]]); r >= 0 {
			return r
		}
		return math.MaxInt
	}
	for i := range ranks {
		ranks[i] = pairRank(i)
	}
	for len(parts) > 2 {
		best, at := math.MaxInt, -1
		for i := 0; i < len(parts)-2; i++ {
			if ranks[i] < best {
				best, at = ranks[i], i
			}
		}
		if at < 0 {
			break
		}
		parts = append(parts[:at+1], parts[at+2:]...)
		ranks = append(ranks[:at+1], ranks[at+2:]...)
		ranks[at] = pairRank(at)
		if at > 0 {
			ranks[at-1] = pairRank(at - 1)
		}
	}
	return parts
}
