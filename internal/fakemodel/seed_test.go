package fakemodel

import (
	"encoding/binary"
	"hash/fnv"
	"strings"
	"testing"
)

// callSeedByByte is callSeed without its cache: the reference.
func callSeedByByte(seed int64, model string, body []byte, retry int) uint64 {
	h := fnv.New64a()
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(seed))
	h.Write(b[:])
	h.Write([]byte(model))
	h.Write([]byte{0})
	binary.LittleEndian.PutUint64(b[:], uint64(retry))
	h.Write(b[:])
	h.Write(body)
	return h.Sum64()
}

// TestCallSeedIsTheHash checks callSeed gives the hash of what it seeds
// from, whether a long body's sum is computed or kept, for short and long
// bodies, models, seeds and retries.
func TestCallSeedIsTheHash(t *testing.T) {
	long := []byte(`{"model":"m","messages":[` + strings.Repeat(`{"role":"user","content":"x"},`, 40) + `]}`)
	bodies := [][]byte{nil, []byte(`{}`), long, append([]byte(nil), long[:600]...)}
	for round := range 2 {
		for _, body := range bodies {
			for _, model := range []string{ModelMini, ModelNano, ""} {
				for _, seed := range []int64{0, 1, -7} {
					for _, retry := range []int{0, 1, 2} {
						if got, want := callSeed(seed, model, body, retry), callSeedByByte(seed, model, body, retry); got != want {
							t.Fatalf("round %d: callSeed(%d, %q, %d bytes, %d) = %x, want %x", round, seed, model, len(body), retry, got, want)
						}
					}
				}
			}
		}
	}
}
