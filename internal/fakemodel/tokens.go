package fakemodel

import "sync"

// Token counts use o200k_base, the encoding of OpenAI's GPT-4o and later
// model families, with the one encoding embedded in the binary and a
// compact encoder of our own (o200k.go): nothing is downloaded.
//
// Byte-pair encoding costs time quadratic in the length of one unbroken
// word, so a text is counted exactly only when it is at most
// exactTokenBytes long and has no run of more than exactTokenRun bytes
// without a space, nor of white space (the pre-tokenizer keeps either whole
// as one piece); any other text is estimated at one token per four bytes,
// rounded up (what OpenAI's own rule of thumb gives for English).
const (
	exactTokenBytes = 16 << 10
	exactTokenRun   = 256
)

// encoding returns o200k_base, loaded on first use; nil if the embedded
// table cannot be read (counts then fall back to the estimate).
var encoding = sync.OnceValue(func() *bpe {
	b, err := loadO200k()
	if err != nil {
		return nil
	}
	return b
})

// tokenCounts caches exact counts of texts seen again and again (the system
// prompt of every triage request), bounded in bytes.
var tokenCounts = newLRU[int](1<<20, exactTokenBytes, func(int) int { return 8 })

// countTokens returns the number of tokens in s: exact with o200k_base for
// ordinary text, estimated at a token per four bytes otherwise (see above).
func countTokens(s string) int {
	if s == "" {
		return 0
	}
	if len(s) <= exactTokenBytes {
		// Only exactly countable texts are stored: look before scanning.
		if n, ok := tokenCounts.Get(s); ok {
			return n
		}
	}
	if !exactlyCountable(s) || encoding() == nil {
		return (len(s) + 3) / 4
	}
	return countOnce(s)
}

// counting holds the texts being encoded now, each with a channel closed
// when its count is stored: a drill's first requests arrive together with
// the same system prompt, and one encoding of it serves them all.
var counting = struct {
	sync.Mutex
	m map[string]chan struct{}
}{m: map[string]chan struct{}{}}

// countOnce encodes s and stores its count, or waits for the request
// already encoding it and takes its count.
func countOnce(s string) int {
	counting.Lock()
	if done, ok := counting.m[s]; ok {
		counting.Unlock()
		<-done
		if n, ok := tokenCounts.Get(s); ok {
			return n
		}
		return encoding().count(s) // evicted already
	}
	done := make(chan struct{})
	counting.m[s] = done
	counting.Unlock()
	n := encoding().count(s)
	tokenCounts.Put(s, n)
	counting.Lock()
	delete(counting.m, s)
	counting.Unlock()
	close(done)
	return n
}

// exactlyCountable reports whether s is short enough, with short enough
// words, to be encoded exactly at a small bounded cost.
func exactlyCountable(s string) bool {
	if len(s) > exactTokenBytes {
		return false
	}
	word, space := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\n', '\t', '\r':
			word = 0
			space++
		default:
			space = 0
			word++
		}
		if word > exactTokenRun || space > exactTokenRun {
			return false
		}
	}
	return true
}

// truncateTokens returns the first n tokens of s (by the same rule as
// countTokens: exact when s is countable exactly, four bytes a token
// otherwise) and whether anything was cut.
func truncateTokens(s string, n int) (string, bool) {
	if n <= 0 {
		return "", s != ""
	}
	if !exactlyCountable(s) || encoding() == nil {
		if len(s) <= 4*n {
			return s, false
		}
		return s[:4*n], true
	}
	return encoding().prefix(s, n)
}
