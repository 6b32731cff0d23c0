package fakemodel

import (
	"strings"
)

// token is one word of an email, lower case, with its stem and where it
// stands.
type token struct {
	raw  string // lower case, apostrophes kept ("don't")
	stem string // a light stem: "cancelled" and "cancel" share one
	sent int    // index of the sentence it is in
	hash bool   // written right after a '#'
	subj bool   // in the subject line
	// broken: a line break stands between this word and the one before
	// (an order number wrapped over a line: "DR-104" / "233").
	broken bool
}

// sentence is a span of tokens ended by . ! ? ; or a line break.
type sentence struct {
	from, to int // tokens[from:to]
	question bool
}

// doc is an email read into words and sentences. Building it is one pass
// over the text; everything the readers do afterwards is linear in the
// number of words.
type doc struct {
	toks  []token
	sents []sentence
	// Subject and Body are the email's parts as written (for case checks).
	Subject, Body string
	// lastAt is the token of the last cue sentOf was asked about.
	lastAt int
}

// newDoc splits an email (a user message) into words and sentences: leading
// header lines ("From:", "Subject:", ...) up to a blank line, then the body.
// A message without headers is all body.
func newDoc(msg string) *doc {
	d := &doc{}
	d.Subject, d.Body = splitHeaders(msg)
	d.toks = make([]token, 0, (len(d.Subject)+len(d.Body))/4+8)
	d.scan(d.Subject, true)
	d.scan(d.Body, false)
	return d
}

func splitHeaders(msg string) (subject, body string) {
	rest := msg
	for {
		line, after, found := strings.Cut(rest, "\n")
		l := strings.TrimSpace(line)
		if l == "" {
			if !found {
				return subject, ""
			}
			return subject, after
		}
		k, v, ok := strings.Cut(l, ":")
		if !ok || strings.ContainsAny(k, " \t") || len(k) > 40 {
			return "", msg
		}
		if strings.EqualFold(k, "subject") {
			subject = strings.TrimSpace(v)
		}
		if !found {
			return "", msg
		}
		rest = after
	}
}

// scan appends the words and sentences of s. Words are slices of one
// lower-case copy of s, so a word costs no allocation of its own.
func (d *doc) scan(s string, subj bool) {
	if strings.Contains(s, "’") || strings.Contains(s, "‘") {
		s = strings.NewReplacer("’", "'", "‘", "'").Replace(s)
	}
	low := lowerASCII(s)
	start := len(d.toks)
	endSentence := func(question bool) {
		if len(d.toks) > start {
			d.sents = append(d.sents, sentence{from: start, to: len(d.toks), question: question})
		} else if question && len(d.sents) > 0 && d.sents[len(d.sents)-1].to == len(d.toks) {
			d.sents[len(d.sents)-1].question = true
		}
		start = len(d.toks)
	}
	wstart := -1
	hash, broken := false, false
	flush := func(end int) {
		if wstart < 0 {
			return
		}
		raw := strings.Trim(low[wstart:end], "'")
		if raw != "" {
			d.toks = append(d.toks, token{raw: raw, stem: stem(raw), sent: len(d.sents), hash: hash, subj: subj, broken: broken})
			broken = false
		}
		wstart = -1
		hash = false
	}
	for i := 0; i < len(low); i++ {
		c := low[i]
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '\'' || c >= 0x80 {
			if wstart < 0 {
				wstart = i
			}
			continue
		}
		flush(i)
		switch c {
		case '#':
			hash = true
		case '.':
			// A full stop ends a sentence unless a digit follows (49.95).
			if !(i+1 < len(low) && low[i+1] >= '0' && low[i+1] <= '9') {
				endSentence(false)
			}
		case '\n':
			broken = true
			endSentence(false)
		case '!', ';':
			endSentence(false)
		case '?':
			endSentence(true)
		}
	}
	flush(len(low))
	endSentence(false)
}

// lowerASCII returns s with ASCII letters in lower case (other bytes kept),
// in one allocation.
func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// stem reduces a lower-case word to a crude stem so that inflections meet:
// "cancelled", "cancelling", "cancels" and "cancel" all give "cancel";
// "arrived" and "arrive" give "arriv". It only has to be consistent.
func stem(w string) string {
	w = strings.TrimSuffix(w, "'s")
	n := len(w)
	switch {
	case n > 4 && strings.HasSuffix(w, "ies"):
		w = w[:n-3] + "y"
	case n > 5 && strings.HasSuffix(w, "ing"):
		w = w[:n-3]
	case n > 4 && strings.HasSuffix(w, "ed"):
		w = w[:n-2]
	case n > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us"):
		w = w[:n-1]
	}
	n = len(w)
	if n > 3 && w[n-1] == w[n-2] && isConsonant(w[n-1]) {
		w = w[:n-1]
	}
	if n = len(w); n > 4 && w[n-1] == 'e' {
		w = w[:n-1]
	}
	return w
}

func isConsonant(c byte) bool {
	return c >= 'a' && c <= 'z' && !strings.ContainsRune("aeiouy", rune(c))
}

// negators are words that turn the cue after them around.
var negators = map[string]bool{
	"not": true, "no": true, "never": true, "nobody": true, "nothing": true, "without": true, "nor": true,
	"don't": true, "dont": true, "didn't": true, "didnt": true, "doesn't": true, "doesnt": true,
	"won't": true, "wont": true, "can't": true, "cant": true, "isn't": true, "isnt": true, "wasn't": true,
	"haven't": true, "havent": true, "hasn't": true, "hasnt": true, "aren't": true, "wouldn't": true, "shouldn't": true,
}

// negated reports whether one of the three words before token i, in its
// sentence, is a negator.
func (d *doc) negated(i int) bool {
	for j := i - 1; j >= 0 && j >= i-3; j-- {
		if d.toks[j].sent != d.toks[i].sent {
			return false
		}
		if negators[d.toks[j].raw] {
			return true
		}
	}
	return false
}

// phrase is a cue: a sequence of words. A word is matched by stem, or by
// exact form when written with a leading '='; "*" matches any one word and
// "..." up to five words.
type phrase struct {
	words []string
	text  string
}

// lexicon finds phrases in a doc. Lookup is by the phrase's first word, so
// matching costs a small constant per word of text.
type lexicon struct {
	byStem  map[string][]*phrase // by first word's stem
	byExact map[string][]*phrase // by first word's exact form (written "=word")
	label   map[*phrase]string
}

// newLexicon compiles phrases, each labelled (the intent or rule it cues).
func newLexicon(entries map[string][]string) *lexicon {
	lx := &lexicon{byStem: map[string][]*phrase{}, byExact: map[string][]*phrase{}, label: map[*phrase]string{}}
	for label, list := range entries {
		for _, text := range list {
			p := compilePhrase(text)
			if w, ok := strings.CutPrefix(p.words[0], "="); ok {
				lx.byExact[w] = append(lx.byExact[w], p)
			} else {
				lx.byStem[w] = append(lx.byStem[w], p)
			}
			lx.label[p] = label
		}
	}
	return lx
}

func compilePhrase(text string) *phrase {
	p := &phrase{text: text}
	for _, w := range strings.Fields(text) {
		switch {
		case w == "*" || w == "...":
			p.words = append(p.words, w)
		case strings.HasPrefix(w, "="):
			p.words = append(p.words, w)
		default:
			p.words = append(p.words, stem(strings.ToLower(w)))
		}
	}
	return p
}

// hit is one phrase found at token index at, ending before token end.
type hit struct {
	label   string
	at, end int
	negated bool
}

// find returns every phrase found in d, in text order. A phrase does not
// cross a sentence boundary.
func (lx *lexicon) find(d *doc) []hit {
	var out []hit
	for i := range d.toks {
		for _, ps := range [2][]*phrase{lx.byStem[d.toks[i].stem], lx.byExact[d.toks[i].raw]} {
			for _, p := range ps {
				if end, ok := d.match(p.words, i); ok {
					out = append(out, hit{label: lx.label[p], at: i, end: end, negated: d.negated(i)})
				}
			}
		}
	}
	return out
}

// match reports whether words match the tokens from i, and where the match
// ends.
func (d *doc) match(words []string, i int) (int, bool) {
	if len(words) == 0 {
		return i, true
	}
	if i >= len(d.toks) {
		return 0, false
	}
	sent := d.toks[i].sent
	w := words[0]
	switch {
	case w == "...":
		for k := 0; k <= 5 && i+k <= len(d.toks); k++ {
			if i+k < len(d.toks) && d.toks[i+k].sent != sent {
				break
			}
			if end, ok := d.match(words[1:], i+k); ok {
				return end, true
			}
		}
		return 0, false
	case w == "*":
	case strings.HasPrefix(w, "="):
		if d.toks[i].raw != w[1:] {
			return 0, false
		}
	default:
		if d.toks[i].stem != w {
			return 0, false
		}
	}
	if len(words) > 1 && (i+1 >= len(d.toks) || d.toks[i+1].sent != sent) {
		return 0, false
	}
	return d.match(words[1:], i+1)
}
