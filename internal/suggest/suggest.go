// Package suggest finds, among a set of names, the one nearest a mistyped
// name: the "did you mean" of drill's messages for an unknown flag, value
// or figure. It imports nothing of drill's, so every layer may use it.
package suggest

import (
	"slices"
	"strings"
)

// Nearest returns the candidate nearest to word by edit distance (optimal
// string alignment: an insertion, deletion, substitution or swap of two
// neighbouring letters each counts one; case is ignored), and whether it is
// near enough to be what was meant: at most 2 edits, or a third of word's
// length for longer words. Ties go to the first candidate. Failing that,
// the one candidate that has word as a whole part between dashes
// ("breaker" in "agent-breaker") is meant; failing that, the one that
// begins with word and goes on past a separator ("calls_to_broken" in
// "calls_to_broken_outage").
func Nearest(word string, candidates []string) (string, bool) {
	if c, ok := nearestByEdits(word, candidates); ok {
		return c, true
	}
	if c, ok := onlyPart(word, candidates); ok {
		return c, true
	}
	return onlyExtension(word, candidates)
}

// onlyExtension is the one candidate that begins with word followed by
// '_', '-' or '.', if exactly one does.
func onlyExtension(word string, candidates []string) (string, bool) {
	w := strings.ToLower(word)
	found := ""
	for _, c := range candidates {
		lc := strings.ToLower(c)
		if len(w) < 3 || len(lc) <= len(w) || !strings.HasPrefix(lc, w) || !strings.ContainsRune("_-.", rune(lc[len(w)])) {
			continue
		}
		if found != "" {
			return "", false
		}
		found = c
	}
	return found, found != ""
}

// onlyPart is the one candidate with word as a part between dashes, if
// exactly one has it.
func onlyPart(word string, candidates []string) (string, bool) {
	w := strings.ToLower(word)
	found := ""
	for _, c := range candidates {
		lc := strings.ToLower(c)
		if lc == w || !slices.Contains(strings.Split(lc, "-"), w) {
			continue
		}
		if found != "" {
			return "", false
		}
		found = c
	}
	return found, found != ""
}

func nearestByEdits(word string, candidates []string) (string, bool) {
	w := strings.ToLower(word)
	best, bestDist := "", -1
	for _, c := range candidates {
		d := distance(w, strings.ToLower(c))
		if bestDist < 0 || d < bestDist {
			best, bestDist = c, d
		}
	}
	limit := max(2, len([]rune(w))/3)
	if bestDist < 0 || best == word || bestDist > limit {
		return "", false
	}
	return best, true
}

// DidYouMean is "; did you mean PREFIX+nearest?" when a candidate is near
// word (Nearest), and "" otherwise; prefix is how the name is written
// ("--" for a flag).
func DidYouMean(word, prefix string, candidates []string) string {
	if c, ok := Nearest(word, candidates); ok {
		return "; did you mean " + prefix + c + "?"
	}
	return ""
}

// distance is the optimal-string-alignment distance between a and b.
func distance(a, b string) int {
	s, t := []rune(a), []rune(b)
	// rows i-2, i-1 and i of the table.
	prev2, prev, cur := make([]int, len(t)+1), make([]int, len(t)+1), make([]int, len(t)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(s); i++ {
		cur[0] = i
		for j := 1; j <= len(t); j++ {
			cost := 1
			if s[i-1] == t[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && s[i-1] == t[j-2] && s[i-2] == t[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(t)]
}
