package fakemodel

import (
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/drill-dev/drill/internal/answer"
)

// A reader is one profile's way of triaging an email: cue lexicons and rules
// written from the shop's triage rules, applied to the email's words. It
// never sees the data set or its answers; the package imports only the
// answer type and closed sets.
type reader struct {
	// cues holds every phrase this profile looks for, labelled
	// "group/label": requests ("ask/"), situations ("sit/"), urgency
	// ("urg/"), the cheap profile's urgency ("nano/") and the product
	// names and nicknames it knows ("product/"). One pass finds them all.
	cues *lexicon

	// crude readers ignore negation and tense in requests ("cancelled"
	// reads as "cancel") and take the first product named.
	crude bool
	// impliedDeadlines: the reader infers a deadline the customer only
	// implies (a date and a departure or event, nothing said of needing
	// it by then); without it, RuleImpliedDeadline.
	impliedDeadlines bool
	// joinsWrapped: the reader joins an order number broken over a line
	// break; without it, RuleWrappedNumber.
	joinsWrapped bool
	urgency      func(r *reader, d *doc, f *features) (string, Rule)

	// memo remembers readings by message text (the reading is a pure
	// function of the text), bounded in bytes.
	memo *lru[Reading]
}

// MemoMaxBytes bounds each profile's memo of answers, by its own accounting
// (text, answer and a fixed overhead per entry); the least recently used
// answers go first.
const MemoMaxBytes = 4 << 20

// memoMaxText is the longest message the memo keeps: longer emails are
// read afresh each time (reading is linear in the text).
const memoMaxText = 64 << 10

func readingBytes(r Reading) int {
	a := r.Answer
	n := len(a.Intent) + len(a.OrderNumber) + len(a.Product) + len(a.Urgency) + 64
	for _, rule := range r.Rules {
		n += len(rule) + 16
	}
	return n
}

// catalogue maps each product to its catalogue name's short forms and the
// nicknames customers use for it (rules.md: "puffy", "head torch", "bear
// can", "the pad"). A generic word that fits two products ("tent",
// "sleeping bag", "jacket") names neither.
var catalogue = map[string][]string{
	"Trailhead 2 Tent":          {"trailhead 2 tent", "trailhead 2", "trailhead", "th2", "2 person tent", "two person tent", "2p tent", "backpacking tent", "small tent", "solo tent"},
	"Summit 4 Tent":             {"summit 4 tent", "summit 4", "summit", "family tent", "4 person tent", "four person tent", "4p tent", "big tent"},
	"Cloudrest Sleeping Pad":    {"cloudrest sleeping pad", "cloudrest", "sleeping pad", "sleeping mat", "pad", "air mattress", "air mat", "mattress"},
	"Nordkapp -10 Sleeping Bag": {"nordkapp 10 sleeping bag", "nordkapp", "winter bag", "winter sleeping bag", "minus 10 bag", "10 bag"},
	"Ember 5 Sleeping Bag":      {"ember 5 sleeping bag", "ember 5", "ember", "summer bag", "summer sleeping bag"},
	"Ridgeline 45 Backpack":     {"ridgeline 45 backpack", "ridgeline 45", "ridgeline", "45l pack", "45 l pack", "45 litre pack", "45 liter pack", "45l backpack", "backpack", "rucksack"},
	"Scout 22 Daypack":          {"scout 22 daypack", "scout 22", "scout", "daypack", "day pack", "day bag", "22l pack"},
	"Alpine GTX Boots":          {"alpine gtx boots", "alpine gtx", "alpine boots", "gtx boots", "gtxs", "hiking boots", "walking boots", "boots"},
	"Trail Runner 3 Shoes":      {"trail runner 3 shoes", "trail runner 3", "trail runner", "trail runners", "tr3", "trail shoes", "running shoes", "runners", "shoes"},
	"Stormshell Rain Jacket":    {"stormshell rain jacket", "stormshell", "storm shell", "rain jacket", "rain shell", "raincoat", "rain coat", "waterproof jacket", "hardshell", "hard shell"},
	"Firn Down Jacket":          {"firn down jacket", "firn", "down jacket", "puffer", "puffer jacket", "puffy", "down coat"},
	"Blaze Camp Stove":          {"blaze camp stove", "blaze stove", "blaze", "camp stove", "camping stove", "stove", "burner"},
	"Glacier Water Filter":      {"glacier water filter", "glacier filter", "glacier", "water filter", "filter", "purifier"},
	"Lumen 400 Headlamp":        {"lumen 400 headlamp", "lumen 400", "lumen", "headlamp", "head lamp", "head torch", "headtorch"},
	"Carbon Trekking Poles":     {"carbon trekking poles", "trekking poles", "carbon poles", "hiking poles", "walking poles", "trekking pole", "carbon pole", "=poles"},
	"Kettle Cook Set":           {"kettle cook set", "cook set", "cookset", "cooking set", "kettle set", "pot set", "pots", "kettle"},
	"Canyon Camp Chair":         {"canyon camp chair", "canyon chair", "canyon", "camp chair", "camping chair", "folding chair", "chair"},
	"Vertex Climbing Harness":   {"vertex climbing harness", "vertex harness", "vertex", "climbing harness", "harness"},
	"Bearproof Food Canister":   {"bearproof food canister", "bearproof", "bear proof canister", "bear canister", "bear can", "bear barrel", "food canister"},
	"Merino Base Layer":         {"merino base layer", "merino", "base layer", "baselayer", "thermals", "thermal top"},
	"Hydro 1L Bottle":           {"hydro 1l bottle", "hydro bottle", "hydro", "insulated bottle", "water bottle", "bottle", "flask"},
}

// nanoDoesNotKnow lists nicknames the cheap profile has never learned,
// beyond those mini does not know.
var nanoDoesNotKnow = map[string]bool{
	"thermals": true, "th2": true, "tr3": true, "bearproof": true, "storm shell": true, "bear barrel": true,
	"hardshell": true, "hard shell": true, "gtxs": true, "headtorch": true, "purifier": true, "rucksack": true,
}

// rulesNicknames are the nicknames the shop's rules give as examples
// ("puffy", "head torch", "bear can", "the pad"), written without spaces:
// every profile reads the rules in its prompt, so every profile knows them.
var rulesNicknames = map[string]bool{"puffy": true, "headtorch": true, "bearcan": true, "pad": true}

// sharesNameWord reports whether alias has a word of product's catalogue
// name ("summer bag" and Ember 5 Sleeping Bag share "bag"), or is one
// written as two ("storm shell" for Stormshell).
func sharesNameWord(product, alias string) bool {
	name := map[string]bool{}
	for _, w := range strings.Fields(strings.ToLower(product)) {
		name[stem(strings.Trim(w, "-"))] = true
	}
	alias = strings.ReplaceAll(alias, "=", "")
	if name[stem(strings.ReplaceAll(alias, " ", ""))] {
		return true
	}
	for _, w := range strings.Fields(alias) {
		if name[stem(w)] {
			return true
		}
	}
	return false
}

// miniKnows is mini's knowledge of nicknames: a name that uses a word of
// the catalogue name, or one of the rules' examples (written as one word
// or two). Slang that shares no word with the catalogue ("puffer",
// "rucksack", "thermals", "th2") it does not recognise (RuleNickname).
func miniKnows(product, alias string) bool {
	return rulesNicknames[strings.ReplaceAll(alias, " ", "")] || sharesNameWord(product, alias)
}

// newReader builds a reader that recognises the catalogue aliases known
// accepts; the others are still found, labelled "unknown/", so a reading can
// tell when not knowing one decided the product.
func newReader(known func(product, alias string) bool) *reader {
	byProduct := map[string][]string{}
	unknown := map[string][]string{}
	for p, as := range catalogue {
		for _, a := range as {
			if known(p, a) {
				byProduct[p] = append(byProduct[p], a)
			} else {
				unknown[p] = append(unknown[p], a)
			}
		}
	}
	all := map[string][]string{}
	for group, m := range map[string]map[string][]string{"ask": askCues, "sit": situationCues, "urg": urgencyCues, "nano": nanoCues,
		"product": byProduct, "unknown": unknown} {
		for label, list := range m {
			all[group+"/"+label] = list
		}
	}
	return &reader{cues: newLexicon(all), memo: newLRU(MemoMaxBytes, memoMaxText, readingBytes)}
}

var (
	miniReader = func() *reader {
		r := newReader(miniKnows)
		r.urgency = miniUrgency
		return r
	}()
	nanoReader = func() *reader {
		r := newReader(func(p, a string) bool { return miniKnows(p, a) && !nanoDoesNotKnow[a] })
		r.crude = true
		r.urgency = nanoUrgency
		return r
	}()
)

// Triage reads one email (a user message's text) and answers the four fields.
func (r *reader) Triage(msg string) answer.Answer { return r.Reading(msg).Answer }

// ReadLimit is how much of an email's text the reader reads: the first
// 64 KiB, cut back to the last space before it so no word is split. Support
// emails are a few kilobytes; what a longer one says past this point does
// not change its answer, and reading it would cost the server memory in
// proportion to what a client sends.
const ReadLimit = 64 << 10

// readable returns the part of msg the reader reads (see ReadLimit).
func readable(msg string) string {
	if len(msg) <= ReadLimit {
		return msg
	}
	cut := msg[:ReadLimit]
	if i := strings.LastIndexAny(cut, " \t\n"); i > 0 {
		return cut[:i]
	}
	for len(cut) > 0 && !utf8.RuneStart(msg[len(cut)]) {
		cut = cut[:len(cut)-1] // no space at all: cut at a character's start
	}
	return cut
}

// Reading reads one email (its first ReadLimit bytes) and says which
// profile rule decided each field.
func (r *reader) Reading(msg string) Reading {
	msg = readable(msg)
	if rd, ok := r.memo.Get(msg); ok {
		return rd
	}
	rd := r.read(msg)
	r.memo.Put(msg, rd)
	return rd
}

// features are the cues found in one email.
type features struct {
	asks, sits, urg, nano map[string][]hit
	intent                string
	// focus is the sentence the deciding cue is in (-1 if none): the
	// product and order number the request is about are looked for there
	// first, nearest to the cue (token focusAt).
	focus, focusAt int
}

var wantVerbs = map[string]bool{"want": true, "wanting": true, "need": true, "like": true, "wish": true, "looking": true,
	"plan": true, "planning": true, "intend": true, "mean": true, "trying": true, "asking": true, "longer": true}

var verbalNegators = map[string]bool{"not": true, "don't": true, "dont": true, "do": false, "won't": true, "wont": true,
	"didn't": true, "didnt": true, "doesn't": true, "doesnt": true, "isn't": true, "wasn't": true, "aren't": true}

var noThanks = map[string]bool{"please": true, "thanks": true, "thank": true, "needed": true, "necessary": true, "required": true}

var determiners = map[string]bool{"a": true, "an": true, "the": true, "this": true, "that": true, "my": true, "your": true,
	"our": true, "his": true, "her": true, "their": true}

// requestVerbs make a noun a request: "start a return", "like an exchange".
var requestVerbs = map[string]bool{"start": true, "make": true, "process": true, "request": true, "arrange": true, "book": true,
	"initiate": true, "like": true, "want": true, "need": true, "do": true, "get": true, "organise": true, "organize": true, "open": true}

// nounUse reports whether "return" or "exchange" at token i is a noun that
// names something rather than asks for it ("it is obviously a return", "you
// sorted my exchange"), unless a verb of asking comes before it.
func nounUse(d *doc, i int) bool {
	t := d.toks[i].raw
	if t != "return" && t != "exchange" && t != "cancellation" || i == 0 || !determiners[d.toks[i-1].raw] || d.toks[i-1].sent != d.toks[i].sent {
		return false
	}
	return !(i >= 2 && d.toks[i-2].sent == d.toks[i].sent && requestVerbs[d.toks[i-2].stem])
}

// doneForms are past participles that ask for something only after a verb
// of wanting or being ("I'd like it replaced", "can it be repaired"); alone
// they report what happened ("your team replaced my pole").
var doneForms = map[string]bool{"replaced": true, "repaired": true, "fixed": true, "exchanged": true, "refunded": true}

var wantOrBe = map[string]bool{"want": true, "like": true, "need": true, "get": true, "have": true, "be": true, "please": true,
	"wanted": true, "needs": true, "it": true, "them": true}

// reportedDone reports whether the cue at token i is a past participle
// telling what was done rather than asking for it.
func reportedDone(d *doc, i int) bool {
	if !doneForms[d.toks[i].raw] {
		return false
	}
	for j := i - 1; j >= 0 && j >= i-6 && d.toks[j].sent == d.toks[i].sent; j-- {
		if wantOrBe[d.toks[j].raw] {
			return false
		}
	}
	return true
}

// declined reports whether the request cue at token i is turned down.
func (d *doc) declined(i int) bool {
	sent := d.toks[i].sent
	if i > 0 && d.toks[i-1].sent == sent && verbalNegators[d.toks[i-1].raw] {
		return true
	}
	if i > 0 && d.toks[i-1].raw == "no" && i+1 < len(d.toks) && noThanks[d.toks[i+1].raw] {
		return true // "no refund needed", "no return, thanks"
	}
	if nounUse(d, i) || reportedDone(d, i) {
		return true
	}
	for j := i - 1; j >= 0 && j >= i-4 && d.toks[j].sent == sent; j-- {
		if !negators[d.toks[j].raw] {
			continue
		}
		for k := j + 1; k < i; k++ {
			if wantVerbs[d.toks[k].raw] {
				return true
			}
		}
	}
	return false
}

// read triages msg without the memo.
func (r *reader) read(msg string) Reading {
	d := newDoc(msg)
	f := &features{asks: map[string][]hit{}, sits: map[string][]hit{}, urg: map[string][]hit{}, nano: map[string][]hit{}, focus: -1}
	var products, unknown []hit
	var declined []hit // requests turned down, that a crude reader keeps
	for _, h := range r.cues.find(d) {
		g, label, _ := strings.Cut(h.label, "/")
		h.label = label
		switch g {
		case "ask":
			// A request the customer turns down does not count (crude
			// readers keep every one).
			if !d.declined(h.at) {
				f.asks[label] = append(f.asks[label], h)
			} else if r.crude {
				declined = append(declined, h)
			}
		case "sit":
			if !h.negated {
				f.sits[label] = append(f.sits[label], h)
			}
		case "urg":
			if !h.negated {
				f.urg[label] = append(f.urg[label], h)
			}
		case "nano":
			f.nano[label] = append(f.nano[label], h)
		case "product":
			products = append(products, h)
		case "unknown":
			unknown = append(unknown, h)
		}
	}
	var rd Reading
	if len(declined) > 0 || r.crude {
		// What the careful reading asks for, before the crude one adds
		// the requests turned down and any form of "cancel".
		careful := r.intent(d, f, false)
		for _, h := range declined {
			f.asks[h.label] = append(f.asks[h.label], h)
		}
		sortHits(f.asks)
		f.intent = r.intent(d, f, true)
		if f.intent != careful {
			rd.note("intent", RuleRequestWord)
		}
	} else {
		f.intent = r.intent(d, f, false)
	}
	f.focusAt = d.lastAt
	rd.Answer = answer.Answer{Intent: f.intent, OrderNumber: orderNumber(d, f.focus, f.focusAt, r.joinsWrapped)}
	if !r.joinsWrapped && orderNumber(d, f.focus, f.focusAt, true) != rd.Answer.OrderNumber {
		rd.note("order_number", RuleWrappedNumber)
	}
	rd.Answer.Product = r.product(d, products, f, r.crude)
	switch {
	case len(unknown) > 0 && r.product(d, append(slices.Clone(products), unknown...), f, r.crude) != rd.Answer.Product:
		rd.note("product", RuleNickname)
	case r.crude && r.product(d, products, f, false) != rd.Answer.Product:
		rd.note("product", RuleFirstProduct)
	}
	var rule Rule
	rd.Answer.Urgency, rule = r.urgency(r, d, f)
	if rule != "" {
		rd.note("urgency", rule)
	}
	return rd
}

// sortHits puts each list of hits back in text order.
func sortHits(m map[string][]hit) {
	for _, hs := range m {
		sort.SliceStable(hs, func(i, j int) bool { return hs[i].at < hs[j].at })
	}
}

// intent applies the rules' precedence: an explicit request first (cancel,
// change, exchange, return, refund, repair or replacement, a question before
// buying), then what the email describes (an order not yet here, a fault
// with a request, a question, a complaint, praise).
func (r *reader) intent(d *doc, f *features, crude bool) string {
	for _, k := range askOrder {
		hs := f.asks[k]
		if crude && k == "cancel" && len(hs) == 0 {
			// Any form of "cancel" reads as a request to cancel.
			for i, t := range d.toks {
				if strings.HasPrefix(t.raw, "cancel") {
					hs = []hit{{label: k, at: i, end: i + 1}}
					break
				}
			}
		}
		if len(hs) == 0 {
			continue
		}
		f.focus = d.sentOf(firstInBody(d, hs))
		if k == "prepurchase" {
			return "product_question"
		}
		return k
	}
	asked := len(f.sits["request"]) > 0 || d.anyQuestion()
	switch {
	case sameSentence(d, f.urg["charge"], f.urg["inerror"]):
		return "refund" // money taken in error: the rules' refund
	case len(f.sits["order_status"]) > 0:
		f.focus = d.sentOf(firstInBody(d, f.sits["order_status"]))
		return "order_status"
	case len(f.sits["fault"]) > 0 && asked:
		f.focus = d.sentOf(firstInBody(d, f.sits["fault"]))
		return "warranty_claim"
	case len(f.sits["complaint"]) > 0 && len(f.sits["question"]) == 0:
		return "complaint"
	case len(f.sits["praise"]) > 0 && len(f.sits["question"]) == 0 && len(f.sits["fault"]) == 0:
		return "feedback" // a "?" in praise is a suggestion ("any plans for a hooded one?")
	case len(f.sits["question"]) > 0 || d.anyQuestion():
		if q := f.sits["question"]; len(q) > 0 {
			f.focus = d.sentOf(firstInBody(d, q))
		}
		return "product_question"
	case len(f.sits["complaint"]) > 0:
		return "complaint"
	case len(f.sits["fault"]) > 0 && len(f.sits["praise"]) > 0:
		return "feedback" // a story of gear that held up while something broke
	case len(f.sits["fault"]) > 0:
		return "complaint"
	}
	return "feedback" // no request, no question, nothing wrong: nothing to do
}

func (d *doc) sentOf(h hit) int {
	d.lastAt = h.at
	if h.at < len(d.toks) && h.end > h.at {
		return d.toks[h.at].sent
	}
	return -1
}

// firstInBody returns the first hit in the body, or the first one if all
// are in the subject line.
func firstInBody(d *doc, hs []hit) hit {
	for _, h := range hs {
		if h.at < len(d.toks) && !d.toks[h.at].subj {
			return h
		}
	}
	return hs[0]
}

func (d *doc) anyQuestion() bool {
	for _, s := range d.sents {
		if s.question {
			return true
		}
	}
	return false
}

// product picks the catalogue product the email is about. The careful reader
// weighs every mention, the subject line and the sentence of the request; the
// crude one takes the first product named in the body.
func (r *reader) product(d *doc, hits []hit, f *features, crude bool) string {
	focus := f.focus
	// Drop matches inside a longer one ("pad" within "sleeping pad").
	var ms []hit
	lastEnd := -1
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].at != hits[j].at {
			return hits[i].at < hits[j].at
		}
		return hits[i].end > hits[j].end
	})
	for _, h := range hits {
		if h.at < lastEnd {
			continue
		}
		ms = append(ms, h)
		lastEnd = h.end
	}
	if len(ms) == 0 {
		return ""
	}
	if crude {
		for _, m := range ms {
			if !d.toks[m.at].subj {
				return m.label
			}
		}
		return ms[0].label
	}
	score := map[string]int{}
	first := map[string]int{}
	inSubject := map[string]bool{}
	// In an exchange, the product after "for" in the sentence that asks
	// for it is the one wanted; the email is about the one the customer has.
	swapAt := map[int]int{} // sentence -> first exchange cue in it
	if f.intent == "exchange" {
		for _, h := range f.asks["exchange"] {
			if at, ok := swapAt[d.toks[h.at].sent]; !ok || h.at < at {
				swapAt[d.toks[h.at].sent] = h.at
			}
		}
	}
	for _, m := range ms {
		t := d.toks[m.at]
		if at, ok := swapAt[t.sent]; ok && at < m.at && precededBy(d, m.at, "for") {
			continue
		}
		// Ties go to the product named first in the body (the subject
		// line only when the body names none).
		pos := m.at
		if t.subj {
			pos += len(d.toks)
		}
		if p, ok := first[m.label]; !ok || pos < p {
			first[m.label] = pos
		}
		switch {
		case t.subj:
			if !inSubject[m.label] {
				score[m.label] += 2
				inSubject[m.label] = true
			}
		default:
			score[m.label]++
			if t.sent == focus {
				score[m.label] += 2

			}
		}
	}
	best := ""
	for p, s := range score {
		if best == "" || s > score[best] || s == score[best] && first[p] < first[best] {
			best = p
		}
	}
	return best
}

// precededBy reports whether word w comes one or two words before token i
// ("for the Summit 4"), in the same sentence.
func precededBy(d *doc, i int, w string) bool {
	for j := i - 1; j >= 0 && j >= i-2 && d.toks[j].sent == d.toks[i].sent; j-- {
		if d.toks[j].raw == w {
			return true
		}
	}
	return false
}

// Order numbers: "DR-123456", "dr 123 456", "DR123456", "#123456", "order
// 123-456", "order nr 123456", and as a last resort a bare six-digit number
// that is not a phone number, tracking number, postcode or price. Unless
// joinWrapped, a line break inside a number ends it: "DR-104" at a line's
// end and "233" on the next are not read as one number.
func orderNumber(d *doc, focus, focusAt int, joinWrapped bool) string {
	sc := orderScan{toks: d.toks, joinWrapped: joinWrapped}
	sc.scan()
	switch {
	case len(sc.strong) > 0:
		return pickOrder(sc.strong, focus, focusAt)
	case len(sc.weak) > 0:
		return pickOrder(sc.weak, focus, focusAt)
	}
	return ""
}

// orderCand is an order number found: its six digits, its sentence and
// its token.
type orderCand struct {
	num  string
	sent int
	at   int
}

// orderScan finds the order numbers of a text's tokens: strong ones (after
// DR, #, or "order") and weak ones (a bare six-digit number).
type orderScan struct {
	toks         []token
	joinWrapped  bool
	strong, weak []orderCand
}

// joins reports whether token i continues the number token i-1 began.
func (sc *orderScan) joins(i int) bool {
	return i < len(sc.toks) && (sc.joinWrapped || !sc.toks[i].broken)
}

// digitsAt reads six digits from token i: "123456" or "123" "456"; it
// returns them and how many tokens they took (0: none there).
func (sc *orderScan) digitsAt(i int) (string, int) {
	toks := sc.toks
	if i >= len(toks) {
		return "", 0
	}
	t := toks[i].raw
	if isDigits(t) && len(t) == 6 && !(i+1 < len(toks) && isDigits(toks[i+1].raw) && toks[i+1].sent == toks[i].sent && !toks[i+1].hash) {
		return t, 1
	}
	if isDigits(t) && len(t) == 3 && sc.joins(i+1) && isDigits(toks[i+1].raw) && len(toks[i+1].raw) == 3 {
		return t + toks[i+1].raw, 2
	}
	return "", 0
}

// scan walks the tokens once, gathering the candidates.
func (sc *orderScan) scan() {
	toks := sc.toks
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.raw == "dr":
			if n, k := sc.digitsAt(i + 1); k > 0 && sc.joins(i+1) {
				sc.strong = append(sc.strong, orderCand{n, t.sent, i})
				i += k
			}
		case strings.HasPrefix(t.raw, "dr") && isDigits(t.raw[2:]) && len(t.raw) == 8:
			sc.strong = append(sc.strong, orderCand{t.raw[2:], t.sent, i})
		case strings.HasPrefix(t.raw, "dr") && isDigits(t.raw[2:]) && len(t.raw) == 5:
			if sc.joins(i+1) && isDigits(toks[i+1].raw) && len(toks[i+1].raw) == 3 {
				sc.strong = append(sc.strong, orderCand{t.raw[2:] + toks[i+1].raw, t.sent, i})
				i++
			}
		case t.hash:
			if n, k := sc.digitsAt(i); k > 0 {
				sc.strong = append(sc.strong, orderCand{n, t.sent, i})
				i += k - 1
			}
		case t.stem == "order":
			i = sc.afterOrder(i)
		default:
			if n, k := sc.digitsAt(i); k == 1 && !notAnOrder(toks, i) {
				sc.weak = append(sc.weak, orderCand{n, t.sent, i})
			}
		}
	}
}

// afterOrder looks for a number within four tokens after "order" at i,
// past filler words ("order nr 123456"), and returns the token to go on
// from.
func (sc *orderScan) afterOrder(i int) int {
	toks := sc.toks
	for j := i + 1; j < len(toks) && j <= i+4 && sc.joins(j); j++ {
		if n, k := sc.digitsAt(j); k > 0 {
			sc.strong = append(sc.strong, orderCand{n, toks[j].sent, j})
			return j + k - 1
		}
		if !orderFiller[toks[j].raw] {
			break
		}
	}
	return i
}

// pickOrder picks, of several, the one in the request's sentence nearest
// its cue (else the first), written DR-123456.
func pickOrder(cs []orderCand, focus, focusAt int) string {
	best, bestDist := -1, 0
	for k, c := range cs {
		if c.sent != focus {
			continue
		}
		dist := c.at - focusAt
		if dist < 0 {
			dist = -dist
		}
		if best < 0 || dist < bestDist {
			best, bestDist = k, dist
		}
	}
	if best < 0 {
		best = 0
	}
	return "DR-" + cs[best].num
}

// orderFiller are the words customers put between "order" and its number.
var orderFiller = map[string]bool{"no": true, "nr": true, "num": true, "number": true, "is": true, "was": true, "id": true,
	"ref": true, "reference": true, "dr": true, "my": true, "#": true, "code": true}

// notAnOrderWords, within three words before a number, say it is something
// else.
var notAnOrderWords = map[string]bool{"phone": true, "tel": true, "telephone": true, "call": true, "mobile": true, "cell": true,
	"tracking": true, "track": true, "postcode": true, "zip": true, "postal": true, "post": true, "pin": true, "invoice": true,
	"account": true, "card": true, "ups": true, "fedex": true, "usps": true, "dhl": true, "parcel": true, "code": true, "serial": true,
	"model": true, "sku": true, "batch": true}

func notAnOrder(toks []token, i int) bool {
	if i > 0 && isDigits(toks[i-1].raw) && toks[i-1].sent == toks[i].sent {
		return true // part of a longer number (a phone number)
	}
	for j := i - 1; j >= 0 && j >= i-3; j-- {
		if notAnOrderWords[toks[j].raw] {
			return true
		}
	}
	return false
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// miniUrgency applies the rules: high for a safety risk, money taken in
// error or a deadline that has not passed; low when the customer says there
// is no hurry, or for questions before buying and feedback; normal
// otherwise. Tone does not count. A deadline the customer only implies is
// read only by a reader that infers them (RuleImpliedDeadline otherwise).
func miniUrgency(r *reader, d *doc, f *features) (string, Rule) {
	u := f.urg
	if len(u["safety"]) > 0 {
		return "high", ""
	}
	if len(u["gear"]) > 0 && len(u["gearfail"]) > 0 {
		return "high", ""
	}
	if sameSentence(d, u["charge"], u["inerror"]) {
		return "high", ""
	}
	if len(u["norush"]) > 0 {
		return "low", ""
	}
	var rule Rule
	switch deadline(d, u) {
	case deadlineStated:
		return "high", ""
	case deadlineImplied:
		if r.impliedDeadlines {
			return "high", ""
		}
		rule = RuleImpliedDeadline
	}
	if f.intent == "product_question" || f.intent == "feedback" {
		return "low", rule
	}
	return "normal", rule
}

func sameSentence(d *doc, a, b []hit) bool {
	in := map[int]bool{}
	for _, h := range a {
		in[d.toks[h.at].sent] = true
	}
	for _, h := range b {
		if in[d.toks[h.at].sent] {
			return true
		}
	}
	return false
}

// deadlineKind is what an email says of a deadline.
type deadlineKind int

const (
	deadlineNone deadlineKind = iota
	// deadlineStated: the customer says they need something by a time
	// ("by Friday", "before the 18th", "in time for the trip", "I need it
	// for a trip that starts tomorrow", "will it arrive before we leave?").
	deadlineStated
	// deadlineImplied: the customer gives a time and a departure or event
	// ("we fly out on the 14th and the bag hasn't shipped") but says
	// nothing anywhere of needing it by then or of hurry.
	deadlineImplied
)

// deadline reports whether some sentence names a time that has not passed
// and is concrete (a day, a date, "tomorrow", "next week", "in three days"),
// together with a departure, trip, event or need, or after "by" or
// "before" — and the sentence is not about the past ("a trip that finished
// last week"). "In time for" a trip or event counts as a deadline too.
// Vague times ("next summer", "some time") do not. A time with a departure
// or event is stated when its sentence asks or speaks of need, or the email
// speaks of need or hurry anywhere; otherwise it is implied.
func deadline(d *doc, u map[string][]hit) deadlineKind {
	implied := false
	trig := map[int]bool{}
	for _, h := range u["trigger"] {
		trig[d.toks[h.at].sent] = true
	}
	past := map[int]bool{}
	for _, h := range u["past"] {
		past[d.toks[h.at].sent] = true
	}
	for si, s := range d.sents {
		concrete, byBefore, inTime := false, false, false
		for i := s.from; i < s.to; i++ {
			t := d.toks[i].raw
			prev, next := "", ""
			if i > s.from {
				prev = d.toks[i-1].raw
			}
			if i+1 < s.to {
				next = d.toks[i+1].raw
			}
			isTime := false
			switch {
			case t == "tomorrow" || t == "tonight" || t == "weekend" || t == "today":
				isTime = true
			case weekdays[t]:
				isTime = true
			case months[t] && (isDigits(next) || isOrdinal(next)) && t != "may" || t == "may" && (isDigits(next) || isOrdinal(next)):
				isTime = true
			case isOrdinal(t) && (prev == "the" || prev == "on" || prev == "by" || prev == "before" || months[prev] || months[next] || next == "of"):
				isTime = true
			case isDigits(t) && len(t) <= 2 && months[next]: // "9 February"
				isTime = true
			case (t == "week" || t == "month") && (prev == "next" || prev == "this"):
				isTime = true
			case (t == "days" || t == "weeks" || t == "day" || t == "week") && i-2 >= s.from && d.toks[i-2].raw == "in":
				isTime = true
			case t == "time" && prev == "in" && (next == "for" || next == ""):
				inTime = true
			}
			if !isTime {
				continue
			}
			if prev == "last" || next == "ago" || (prev == "next" || prev == "this") && vagueTime[next] {
				continue
			}
			concrete = true
			for j := i - 1; j >= s.from && j >= i-2; j-- {
				if w := d.toks[j].raw; w == "by" || w == "before" || w == "until" {
					byBefore = true
				}
			}
		}
		if past[si] && !futureMarked(d, s) {
			continue
		}
		if concrete && byBefore || inTime && trig[si] || concrete && trig[si] && (s.question || speaksOfNeed(d, s.from, s.to)) {
			return deadlineStated
		}
		implied = implied || concrete && trig[si]
	}
	switch {
	case implied && speaksOfNeed(d, 0, len(d.toks)):
		return deadlineStated // the need is said in another sentence
	case implied:
		return deadlineImplied
	}
	return deadlineNone
}

// needWords say the customer needs something by a time, or soon.
var needWords = map[string]bool{"need": true, "needs": true, "needed": true, "must": true, "require": true, "requires": true,
	"required": true, "hope": true, "hoping": true, "urgent": true, "urgently": true, "asap": true, "quickly": true,
	"soon": true, "sooner": true, "hurry": true, "rush": true, "deadline": true}

// speaksOfNeed reports whether tokens [from, to) say the customer needs
// something, or needs it soon: a need word, "have to", "in time", "make
// it", or "by", "before" or "until" then or a departure ("before we
// leave").
func speaksOfNeed(d *doc, from, to int) bool {
	for i := from; i < to; i++ {
		t := d.toks[i].raw
		next := ""
		if i+1 < to && d.toks[i+1].sent == d.toks[i].sent {
			next = d.toks[i+1].raw
		}
		switch {
		case needWords[t]:
			return true
		case (t == "have" || t == "has") && next == "to", t == "in" && next == "time", t == "make" && next == "it":
			return true
		case (t == "by" || t == "before" || t == "until") && (next == "then" || next == "we" || next == "i" || next == "he" || next == "she" || next == "they"):
			return true
		}
	}
	return false
}

// futureMarked reports whether a sentence speaks of the future ("will",
// "going to", "'ll", "need", a present-progressive departure).
func futureMarked(d *doc, s sentence) bool {
	for i := s.from; i < s.to; i++ {
		switch t := d.toks[i].raw; {
		case t == "will" || t == "need" || t == "needs" || t == "leaving" || t == "starting" || t == "flying" || t == "heading":
			return true
		case strings.HasSuffix(t, "'ll") || strings.HasSuffix(t, "'re") || t == "going":
			return true
		}
	}
	return false
}

// isOrdinal reports whether t is a day of the month like "14th" or "3rd".
func isOrdinal(t string) bool {
	n := len(t)
	if n < 3 || n > 4 {
		return false
	}
	suf := t[n-2:]
	return isDigits(t[:n-2]) && (suf == "st" || suf == "nd" || suf == "rd" || suf == "th")
}

// nanoUrgency is the cheap profile's idea of urgency: loud words, anger,
// shouting, obvious dates and alarming words make an email high; it does not
// notice subtle deadlines, a swollen battery or a cut harness, nor read
// negation or "no hurry".
//
// The rule it notes is the cue that made the answer high, or, when none
// did, that it reads only obvious words (or does not read "no hurry").
func nanoUrgency(_ *reader, d *doc, f *features) (string, Rule) {
	n := f.nano
	switch {
	case len(n["danger"]) > 0:
		return "high", RuleAlarmWord
	case len(n["money"]) > 0:
		return "high", RuleMoneyWords
	case len(n["loud"]) > 0 || len(n["anger"]) > 0 || strings.Contains(d.Subject, "!!") || strings.Contains(d.Body, "!!") ||
		shouting(d.Subject) || shouting(d.Body):
		return "high", RuleToneAsUrgency
	case len(n["date"]) > 0:
		return "high", RuleDateWord
	}
	rule := RuleObviousOnly
	if len(f.urg["norush"]) > 0 {
		rule = RuleNoHurry
	}
	if f.intent == "product_question" || f.intent == "feedback" {
		return "low", rule
	}
	return "normal", rule
}

// acronyms are capitalised words that are not shouting.
var acronyms = map[string]bool{"GTX": true, "USB": true, "LED": true, "JMT": true, "USA": true, "UPS": true, "DHL": true,
	"TR3": true, "TH2": true, "ASAP": true, "FYI": true, "PCT": true, "AT": true}

// shouting reports whether text has two or more all-capital words of three
// letters or more (not counting a few acronyms and order numbers).
func shouting(text string) bool {
	n := 0
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			i += size
			continue
		}
		start, letters, upper := i, 0, true
		for i < len(text) {
			r, size = utf8.DecodeRuneInString(text[i:])
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
				break
			}
			if !unicode.IsLetter(r) || !unicode.IsUpper(r) {
				upper = false
			}
			if unicode.IsLetter(r) {
				letters++
			}
			i += size
		}
		if letters >= 3 && upper && !acronyms[text[start:i]] {
			if n++; n >= 2 {
				return true
			}
		}
	}
	return false
}
