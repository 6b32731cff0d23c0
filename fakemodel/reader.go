package fakemodel

import (
	"regexp"
	"sort"
	"strings"
	"unicode"

	"github.com/drill-dev/drill/answer"
)

// A reader is one profile's way of triaging an email: plain rules over the
// email's text. It never sees the data set or its answers.
type reader struct {
	byFirst      map[byte][]string // product aliases this profile knows, by first byte, longest first
	aliasOf      map[string]string // lower-case alias -> catalogue name
	crudeCancel  bool              // any form of "cancel" means intent cancel
	firstMention bool              // product: the first one named, not the one the request is about
	urgency      func(t *emailText, intent string) string

	// memo remembers answers by message text (the reading is a pure
	// function of the text), bounded in bytes.
	memo *lru[answer.Answer]
}

// MemoMaxBytes bounds each profile's memo of answers, by its own accounting
// (text, answer and a fixed overhead per entry); the least recently used
// answers go first.
const MemoMaxBytes = 4 << 20

// memoMaxText is the longest message the memo keeps: longer emails are
// read afresh each time (reading is linear in the text).
const memoMaxText = 64 << 10

func answerBytes(a answer.Answer) int {
	return len(a.Intent) + len(a.OrderNumber) + len(a.Product) + len(a.Urgency) + 64
}

// emailText is an email split into subject and body, with lower-case copies.
type emailText struct {
	Subject, Body string
	subj, body    string // lower case
	all           string // lower-case subject + "\n" + body
}

// parseEmail reads the email from a user message: leading header lines
// ("From:", "Subject:", ...) up to a blank line, then the body. A message
// without headers is all body.
func parseEmail(msg string) *emailText {
	t := &emailText{}
	lines := strings.Split(strings.ReplaceAll(msg, "\r\n", "\n"), "\n")
	i := 0
	for ; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if l == "" {
			break
		}
		k, v, ok := strings.Cut(l, ":")
		if !ok || strings.ContainsAny(k, " \t") {
			i = -1
			break
		}
		if strings.EqualFold(k, "subject") {
			t.Subject = strings.TrimSpace(v)
		}
	}
	if i < 0 || i >= len(lines) {
		t.Subject = ""
		t.Body = msg
	} else {
		t.Body = strings.Join(lines[i+1:], "\n")
	}
	t.subj = strings.ToLower(t.Subject)
	t.body = strings.ToLower(t.Body)
	t.all = t.subj + "\n" + t.body
	return t
}

// sentences splits lower-case text into sentences.
func sentences(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == '.' || r == '!' || r == '?' || r == '\n' || r == ';' })
}

// catalogue maps each product to the names customers use for it.
var catalogue = map[string][]string{
	"Trailhead 2 Tent":          {"trailhead 2 tent", "trailhead 2", "trailhead", "th2", "2-person tent", "two person tent"},
	"Summit 4 Tent":             {"summit 4 tent", "summit 4", "summit", "family tent", "4-person tent"},
	"Cloudrest Sleeping Pad":    {"cloudrest sleeping pad", "cloudrest", "sleeping pad", "sleeping mat", "pad"},
	"Nordkapp -10 Sleeping Bag": {"nordkapp -10 sleeping bag", "nordkapp", "winter bag"},
	"Ember 5 Sleeping Bag":      {"ember 5 sleeping bag", "ember 5", "ember", "summer bag"},
	"Ridgeline 45 Backpack":     {"ridgeline 45 backpack", "ridgeline 45", "ridgeline", "45l pack", "45 l pack", "45 litre pack", "45 liter pack"},
	"Scout 22 Daypack":          {"scout 22 daypack", "scout 22", "scout daypack", "daypack", "day pack"},
	"Alpine GTX Boots":          {"alpine gtx boots", "alpine gtx", "alpine boots", "gtx boots", "hiking boots", "boots"},
	"Trail Runner 3 Shoes":      {"trail runner 3 shoes", "trail runner 3", "trail runner", "tr3", "trail shoes"},
	"Stormshell Rain Jacket":    {"stormshell rain jacket", "stormshell", "storm shell", "rain jacket", "rain shell", "raincoat"},
	"Firn Down Jacket":          {"firn down jacket", "firn", "down jacket", "puffer", "puffy"},
	"Blaze Camp Stove":          {"blaze camp stove", "blaze stove", "blaze", "camp stove", "stove"},
	"Glacier Water Filter":      {"glacier water filter", "glacier filter", "water filter", "filter"},
	"Lumen 400 Headlamp":        {"lumen 400 headlamp", "lumen 400", "lumen", "headlamp", "head lamp", "head torch"},
	"Carbon Trekking Poles":     {"carbon trekking poles", "trekking poles", "carbon poles", "hiking poles", "poles"},
	"Kettle Cook Set":           {"kettle cook set", "cook set", "cookset", "kettle set", "pot set"},
	"Canyon Camp Chair":         {"canyon camp chair", "canyon chair", "camp chair", "camping chair", "chair"},
	"Vertex Climbing Harness":   {"vertex climbing harness", "vertex harness", "vertex", "harness"},
	"Bearproof Food Canister":   {"bearproof food canister", "bearproof", "bear canister", "bear can", "food canister"},
	"Merino Base Layer":         {"merino base layer", "merino", "base layer", "baselayer", "thermals"},
	"Hydro 1L Bottle":           {"hydro 1l bottle", "hydro bottle", "hydro", "insulated bottle", "water bottle", "bottle"},
}

// nanoDoesNotKnow lists nicknames the cheap profile has never learned.
var nanoDoesNotKnow = map[string]bool{"thermals": true, "th2": true, "tr3": true, "bearproof": true, "storm shell": true}

func newReader(known func(alias string) bool) *reader {
	r := &reader{aliasOf: map[string]string{}, memo: newLRU(MemoMaxBytes, memoMaxText, answerBytes)}
	var all []string
	for p, as := range catalogue {
		for _, a := range as {
			if known(a) {
				r.aliasOf[a] = p
				all = append(all, a)
			}
		}
	}
	sort.Slice(all, func(i, j int) bool {
		if len(all[i]) != len(all[j]) {
			return len(all[i]) > len(all[j])
		}
		return all[i] < all[j]
	})
	r.byFirst = map[byte][]string{}
	for _, a := range all {
		r.byFirst[a[0]] = append(r.byFirst[a[0]], a)
	}
	return r
}

var (
	miniReader = func() *reader {
		r := newReader(func(string) bool { return true })
		r.urgency = miniUrgency
		return r
	}()
	nanoReader = func() *reader {
		r := newReader(func(a string) bool { return !nanoDoesNotKnow[a] })
		r.crudeCancel = true
		r.firstMention = true
		r.urgency = nanoUrgency
		return r
	}()
)

// Triage reads one email (a user message's text) and answers the four fields.
func (r *reader) Triage(msg string) answer.Answer {
	if a, ok := r.memo.Get(msg); ok {
		return a
	}
	a := r.read(msg)
	r.memo.Put(msg, a)
	return a
}

// read triages msg without the memo.
func (r *reader) read(msg string) answer.Answer {
	t := parseEmail(msg)
	a := answer.Answer{
		Intent:      r.intent(t),
		OrderNumber: orderNumber(t),
		Product:     r.product(t),
	}
	a.Urgency = r.urgency(t, a.Intent)
	return a
}

func re(s string) *regexp.Regexp { return regexp.MustCompile(s) }

var (
	reCancel      = re(`\bcancel\b`)
	reCancelCrude = re(`\bcancel`)
	reChange      = re(`\bchange (?:the |my )?(?:delivery |shipping )?(?:address|size)\b|\badd (?:a|an|the|another)\b[^.?!\n]{0,40}\bto (?:my |the )?order\b|\bwrong address\b|\bold address\b`)
	reExchange    = re(`\bexchange\b|\bswap\b|\binstead\b|\bsize up\b|\bhalf size\b`)
	reReturn      = re(`\b(?:want|like|need|going|wish) to (?:return|send (?:it |them )?back)\b|\bcan i (?:return|send (?:it |them )?back)\b|\breturn (?:request|label)\b|\bstart a return\b|\bsend (?:it |them )?back\b`)
	reRefund      = re(`\brefund|\bmoney back\b|\bwhere is my money\b|\bcharged\b`)
	reWarranty    = re(`\bwarranty\b|\brepair\b|\breplace (?:it|them|the)\b|\breplaced\b|\b(?:a|the) replacement\b|\bsend (?:me )?a new\b|\bcovered\b`)
	rePrePurchase = re(`\bif i order\b|\bdo you (?:still )?have\b|\bin stock\b|\bcan i get an? [^.?!\n]{0,30}\bshipped\b|\bdo you sell\b`)
	reStatus      = re(`\bwhere(?:'s| is)\b|\bhas(?:n'?t)? (?:arrived|shipped|moved)\b|\bhasnt\b|\bnot arrived\b|\bnever (?:arrived|came)\b|\btracking\b|\bupdate on\b|\bstatus\b|\bstill says\b|\bwhen (?:will|does) it (?:ship|arrive)\b|\bwhen it will (?:ship|arrive)\b|\bshipped yet\b|\barrives? (?:by|before|in time)\b|\bget here in time\b|\bis late\b|\bchecking on\b|\bneed my order\b|\bhaven'?t received\b`)
	reComplaint   = re(`\bdisappointed\b|\bnot impressed\b|\bnot acceptable\b|\bunacceptable\b|\bvery poor\b|\bterrible\b|\bridiculous\b|\bnot happy\b|\brude\b`)
	rePraise      = re(`\bthank|\blove\b|\bgreat\b|\bbrilliant\b|\bamazing\b|\bbest\b|\bsuggestion\b|\bwonderful\b|\bperfect\b`)
)

func (r *reader) intent(t *emailText) string {
	s := t.all
	cancel := reCancel
	if r.crudeCancel {
		cancel = reCancelCrude
	}
	switch {
	case cancel.MatchString(s):
		return "cancel"
	case reChange.MatchString(s):
		return "change_order"
	case reExchange.MatchString(s):
		return "exchange"
	case reReturn.MatchString(s):
		return "return"
	case reRefund.MatchString(s):
		return "refund"
	case reWarranty.MatchString(s):
		return "warranty_claim"
	case rePrePurchase.MatchString(s):
		return "product_question"
	case reStatus.MatchString(s):
		return "order_status"
	case reComplaint.MatchString(s):
		return "complaint"
	case strings.Contains(s, "?"):
		return "product_question"
	case rePraise.MatchString(s):
		return "feedback"
	}
	return "complaint"
}

// Order numbers: "DR-123456", "dr 123 456", "order #123-456", "order nr
// 123456", "#123456", and as a last resort a bare six-digit number.
var (
	reOrderStrong = re(`(?i)\bdr[\s#-]*(\d{3})[\s-]?(\d{3})\b|\border\b(?:\s*(?:no\.?|nr\.?|num\.?|number|is|#|:))*\s*#?\s*(\d{3})[\s-]?(\d{3})\b|#\s*(\d{3})[\s-]?(\d{3})\b`)
	reOrderBare   = re(`\b(\d{6})\b`)
)

func orderNumber(t *emailText) string {
	for _, s := range []string{t.Subject, t.Body} {
		if m := reOrderStrong.FindStringSubmatch(s); m != nil {
			var d strings.Builder
			for _, g := range m[1:] {
				d.WriteString(g)
			}
			return "DR-" + d.String()
		}
	}
	for _, s := range []string{t.Subject, t.Body} {
		if m := reOrderBare.FindStringSubmatch(s); m != nil {
			return "DR-" + m[1]
		}
	}
	return ""
}

type mention struct {
	product string
	pos     int
}

// mentions finds the products named in lower-case text s: known aliases as
// whole words, longest first, with an optional plural "s" or "es".
func (r *reader) mentions(s string) []mention {
	var out []mention
	for i := 0; i < len(s); i++ {
		if i > 0 && isWordByte(s[i-1]) {
			continue
		}
		for _, a := range r.byFirst[s[i]] {
			if !strings.HasPrefix(s[i:], a) {
				continue
			}
			end := i + len(a)
			switch {
			case strings.HasPrefix(s[end:], "es") && !wordAt(s, end+2):
				end += 2
			case strings.HasPrefix(s[end:], "s") && !wordAt(s, end+1):
				end++
			}
			if wordAt(s, end) {
				continue
			}
			out = append(out, mention{r.aliasOf[a], i})
			i = end - 1
			break
		}
	}
	return out
}

func isWordByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// wordAt reports whether s has a word byte at index i.
func wordAt(s string, i int) bool { return i < len(s) && isWordByte(s[i]) }

// product picks the catalogue product the email is about. The careful reader
// weighs every mention and the subject line; the first-mention reader takes
// the first product named in the body.
func (r *reader) product(t *emailText) string {
	body := r.mentions(t.body)
	subj := r.mentions(t.subj)
	if r.firstMention {
		if len(body) > 0 {
			return body[0].product
		}
		if len(subj) > 0 {
			return subj[0].product
		}
		return ""
	}
	score := map[string]int{}
	first := map[string]int{}
	for _, m := range subj {
		if _, ok := score[m.product]; !ok {
			score[m.product] += 2
			first[m.product] = -1
		}
	}
	for _, m := range body {
		score[m.product]++
		if _, ok := first[m.product]; !ok {
			first[m.product] = m.pos
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

// The shop's rules, as the careful reader applies them.
var (
	reSafety   = re(`\b(?:fire|flames?|gas|burn(?:ed|t|s)?|singed|melt(?:ed|ing|s)?|smok(?:e|ing)|overheat(?:ing|ed|s)?|swollen|swelling|sparks?|injur(?:ed|y|ies)|hurt|stitches|bleeding)\b`)
	reGear     = re(`\b(?:harness|belay|carabiner|rope)\b`)
	reGearFail = re(`\bcut\b|\bpopped open\b|\bsnapped\b|\bcracked\b|\bfrayed\b|\bdoesn'?t lock\b|\bfailed\b|\bbroke\b`)
	reMoney    = re(`\bcharged (?:me )?twice\b|\btwo charges\b|\bdouble[- ]charged\b|\bcharged anyway\b|\bduplicate charge\b|\bcharged (?:even though|for a cancelled)\b`)
	reNoRush   = re(`\bno rush\b|\bno hurry\b|\bnot in (?:a|any) hurry\b|\bnot urgent\b|\bwhenever you\b`)

	dateExpr  = `(?:(?:on|this|next|in|from|by|before|starting|until) )?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|the \d{1,2}(?:st|nd|rd|th)|\d{1,2}(?:st|nd|rd|th)|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* \d{1,2}(?:st|nd|rd|th)?|(?:two|three|\d+) (?:days|weeks)|a week|the (?:long )?weekend|tomorrow|tonight)\b`
	reTrigger = re(`\b(?:leave|leaving|fly|flying|head|heading|start|starts|starting|travelling|traveling|moving|wedding|birthday|camp|trip|course|race|need|needs)\b`)
	reDate    = re(`\b` + dateExpr)
	reBy      = re(`\b(?:by|before) (?:then|monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|tonight|the (?:long )?weekend|the \d{1,2}(?:st|nd|rd|th))\b`)
	reWindow  = re(`\b(?:ends|closes|expires) (?:on )?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|the \d{1,2}(?:st|nd|rd|th))\b`)
)

func miniUrgency(t *emailText, intent string) string {
	s := t.all
	switch {
	case reSafety.MatchString(s):
		return "high"
	case reMoney.MatchString(s):
		return "high"
	}
	for _, sent := range sentences(s) {
		if reGear.MatchString(sent) && reGearFail.MatchString(sent) {
			return "high"
		}
	}
	if !reNoRush.MatchString(s) && (hasDeadline(s) || reBy.MatchString(s) || reWindow.MatchString(s)) {
		return "high"
	}
	if reNoRush.MatchString(s) || intent == "product_question" || intent == "feedback" {
		return "low"
	}
	return "normal"
}

// hasDeadline reports whether lower-case text s names a departure, trip or
// event (or a need) followed within 40 characters of the same sentence by a
// date: "we fly out to Iceland on the 14th", "a trip that starts tomorrow".
func hasDeadline(s string) bool {
	trig := reTrigger.FindAllStringIndex(s, -1)
	if len(trig) == 0 {
		return false
	}
	for _, d := range reDate.FindAllStringIndex(s, -1) {
		for _, t := range trig {
			if d[0] >= t[1] && d[0]-t[1] <= 41 && !strings.ContainsAny(s[t[1]:d[0]], ".?!\n") {
				return true
			}
		}
	}
	return false
}

// The cheap profile's idea of urgency: loud words and shouting, obvious
// dates, a few alarming words.
var (
	reLoud       = re(`\b(?:urgent|emergency|immediately)\b`)
	reNanoDate   = re(`\b(?:tomorrow|tonight)\b|\b(?:by|on) (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|the weekend)\b|\bbefore the \d{1,2}(?:st|nd|rd|th)\b`)
	reNanoDanger = re(`\b(?:fire|flames?|gas|burn(?:ed|t|s)?|danger(?:ous)?|injur(?:ed|y)|hurt)\b`)
	acronyms     = map[string]bool{"GTX": true, "USB": true, "LED": true, "JMT": true, "USA": true, "UPS": true, "DHL": true, "TR3": true, "TH2": true}
)

func nanoUrgency(t *emailText, intent string) string {
	s := t.all
	if reLoud.MatchString(s) || strings.Contains(s, "!!") || shouting(t.Subject+"\n"+t.Body) ||
		reNanoDate.MatchString(s) || reNanoDanger.MatchString(s) || strings.Contains(s, "charged twice") {
		return "high"
	}
	if intent == "product_question" || intent == "feedback" {
		return "low"
	}
	return "normal"
}

// shouting reports whether text has two or more all-capital words of three
// letters or more (not counting a few acronyms and order numbers).
func shouting(text string) bool {
	n := 0
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		letters, upper := 0, true
		for _, r := range w {
			if unicode.IsLetter(r) {
				letters++
				if !unicode.IsUpper(r) {
					upper = false
				}
			} else {
				upper = false
			}
		}
		if letters >= 3 && upper && !acronyms[w] {
			n++
		}
	}
	return n >= 2
}
