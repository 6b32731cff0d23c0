package fakemodel

// The cue lexicons. They are written from the shop's rules (emails/rules.md)
// and ordinary English, not from any set of emails: each list names the usual
// ways customers say one thing.

// askCues are explicit requests, in the order the rules' "what the customer
// needs from us first" gives them precedence.

var askOrder = []string{"cancel", "change_order", "exchange", "return", "refund", "prepurchase", "warranty_claim"}

var askCues = map[string][]string{
	"cancel": {
		"=cancel", "=cancelling", "=canceling", "=cancellation", "call off", "=stop my order", "=stop the order",
		"don't ship", "do not ship", "don't send", "do not send", "no longer need the order", "no longer want the order",
	},
	"change_order": {
		"change the address", "change my address", "change the delivery address", "change the shipping address",
		"change my delivery address", "change my shipping address", "change it to", "update the address", "update my address",
		"update the delivery", "update the shipping", "new address", "wrong address", "old address", "different address", "work address", "home address", "address instead",
		"to my * address", "wrong apartment", "wrong flat", "wrong house number", "wrong postcode", "wrong zip",
		"ship it to", "send it to * instead", "deliver it to", "change the size", "change the colour", "change the color",
		"change my order", "change the order", "change * on my order", "change * on the order", "amend", "modify my order",
		"edit my order", "add * to my order", "add * to the order", "add ... to my order", "add ... to the order",
		"add to my order", "add to the order", "add * to order", "add ... to order", "also add", "switch the size", "switch the colour", "switch the color",
	},
	"exchange": {
		"exchange", "swap", "=instead", "different size", "bigger size", "smaller size", "larger size", "size up", "size down",
		"half size", "half a size", "a size up", "a size down", "a size bigger", "a size smaller", "a size larger",
		"wrong size", "wrong colour", "wrong color", "wrong item", "wrong model", "wrong one", "sent me the wrong",
		"trade it for", "trade them for", "replace it with a", "replace them with a", "but i ordered", "not what i ordered",
		"received the wrong", "got the wrong", "but you sent", "you sent the wrong", "sent the wrong", "the one i ordered", "the one i actually ordered", "i actually ordered",
	},
	"return": {
		"=return", "=returning", "send it back", "send them back", "send * back", "sending it back", "sending them back",
		"sending * back", "send back", "sending back", "post it back", "ship it back", "return label", "returns label", "return form", "start a return",
		"take it back", "take them back",
	},
	"refund": {
		"refund", "money back", "reimburse", "reimbursement", "price difference", "the difference", "price match",
		"credit my card", "credit back", "pay me back", "paid twice", "charged twice", "double charged", "charged me twice",
		"billed twice", "reverse the charge", "reverse it", "chargeback",
	},
	"warranty_claim": {
		"warranty", "guarantee", "guaranteed", "repair", "repaired", "fix it", "fix them", "fixed", "replace it", "replace them",
		"replace the", "replacement", "replace", "replaced", "send a new", "send me a new", "send another", "covered", "cover this", "cover it",
	},
	"prepurchase": {
		"if i order", "if i buy", "if i purchase", "before i buy", "before i order", "before buying", "before ordering",
		"thinking of buying", "thinking about buying", "thinking of getting", "planning to buy", "looking to buy",
		"looking at buying", "want to buy", "would like to buy", "considering buying", "do you sell", "do you stock",
		"do you carry", "in stock", "back in stock", "do you ship to", "can i order", "=should i buy", "=should i get",
	},
}

// situationCues describe what happened, not what the customer asks for.
var situationCues = map[string][]string{
	"order_status": {
		"where is", "=where's", "whereabouts", "tracking", "track my", "track the", "hasn't arrived", "has not arrived",
		"hasn't shipped", "has not shipped", "not arrived", "not shipped", "yet to arrive", "never arrived", "never came",
		"haven't received", "have not received", "not received", "still waiting", "still not here", "still hasn't",
		"when will * arrive", "when will * ship", "when it will ship", "when it will arrive", "when it ships", "still says", "=processing",
		"coming separately", "separate package", "separate parcel", "separate box", "only one of", "gone out", "shipping email",
		"shipping confirmation", "dispatch email", "has it shipped", "has it been sent", "been sent out", "second box", "second parcel", "other box", "other parcel", "rest of my order", "rest of the order", "still coming", "when will it", "when will they", "when does it ship", "when can i expect",
		"shipped yet", "arrive yet", "dispatched yet", "sent out yet", "any update", "an update", "update on", "status",
		"eta", "any news", "any word on", "just checking", "went through", "confirmation email", "order confirmation",
		"check my order", "delivery date", "estimated delivery", "is late", "running late", "been delayed", "delayed",
		"will it arrive", "will it get", "will it be delivered", "get here", "arrive in time", "arrive by", "arrive before",
		"make it by", "make it in time", "checking on", "check on", "check where", "where my order", "need my order",
	},
	"fault": {
		"broke", "broken", "break", "stopped working", "not working", "doesn't work", "don't work", "won't work",
		"stopped holding", "won't hold", "doesn't hold", "won't stay", "fell apart", "came apart", "falling apart",
		"split", "torn", "tear", "ripped", "rip", "crack", "cracked", "leak", "leaking", "leaks", "snapped", "delaminat",
		"peeling", "failed", "fail", "wetting out", "wet out", "won't light", "doesn't light", "won't turn on",
		"doesn't turn on", "dead", "faulty", "defect", "defective", "fraying", "frayed", "seam", "zip broke", "zipper broke",
		"stuck", "jammed", "bent", "dented", "came without", "came with no", "is missing", "are missing", "was missing", "were missing", "flame", "flared", "singed", "melted", "smoke", "overheated", "bulge", "coming away", "sole", "=slipped", "punctur", "deflat", "hole", "holes", "lost its", "flickers", "flickering",
		"smell gas", "smells of gas", "caught fire", "swollen", "overheat", "got hot", "cut in",
	},
	"question": {
		"does the", "do the", "is the", "are the", "can the", "will the", "would the", "can i use", "can you use",
		"how warm", "how heavy", "how long", "how much", "how big", "how do i", "how does", "what size", "which size",
		"what is the", "what's the", "which one", "recommend", "suitable", "difference between", "rated", "compatible",
		"fit in", "come with", "comes with", "dishwasher safe", "is it", "are they", "does it", "do they",
	},
	"complaint": {
		"disappoint", "not happy", "unhappy", "unacceptable", "not acceptable", "terrible", "awful", "ridiculous", "rude",
		"poor", "worst", "frustrat", "annoy", "angry", "furious", "let down", "shocking", "appalling", "never again",
		"waste of", "not impressed", "expected better", "useless", "pathetic", "disgrac", "outrage", "fed up", "sloppy",
		"careless", "complain", "complaint", "not good enough", "no one replied", "nobody replied", "third time",
		"second time", "no response", "ignored",
	},
	"praise": {
		"thank you for", "thanks for", "=thanks so much", "love", "loved", "great", "brilliant", "amazing", "awesome",
		"excellent", "fantastic", "perfect", "wonderful", "impressed", "happy with", "pleased with", "kudos", "shout out",
		"suggestion", "suggest", "would be nice", "would be great", "it'd be great", "you should", "idea", "just wanted to say",
		"just want to say", "keep up", "well done", "worth every penny", "worth it", "happy", "glad", "delighted", "toasty", "legend", "superb", "flawless", "recommend you", "best", "thank you",
	},
	"request": {
		"please", "can you", "could you", "would you", "can i", "could i", "i'd like", "i would like", "=i =want", "=i =need",
		"need a", "what can", "what are my options", "how do i", "let me know", "=advise", "tell me", "what should i", "looked at",
	},
}

// Urgency cues, from the rules' three reasons for high and the reasons for
// low.
var urgencyCues = map[string][]string{
	"safety": {
		"fire", "caught fire", "flame", "flames", "burn", "burnt", "burned", "scorch", "singe", "melt", "melted",
		"smoke", "gas leak", "smell gas", "smell of gas", "smells of gas", "smelled gas", "leaking gas", "gas leaking",
		"explod", "overheat", "too hot to touch", "got really hot", "got very hot", "swollen", "swelling", "bulging",
		"=sparking", "=sparked", "sparks flew", "scald", "scalded", "scalding", "injur", "injury", "got hurt", "was hurt", "were hurt", "hurt myself", "hurt himself",
		"hurt herself", "hurt my", "hurt his", "hurt her", "badly hurt", "bleed", "bleeding", "=stitches", "hospital", "cut my", "electric shock", "got a shock",
		"carbon monoxide", "fumes", "toxic", "dangerous", "hazard", "unsafe",
	},
	"gear": {
		"harness", "belay", "belay loop", "carabiner", "rope", "helmet", "crampon", "ice axe", "anchor",
	},
	"gearfail": {
		"cut", "snapped", "frayed", "fraying", "torn", "tore", "ripped", "cracked", "gave way", "failed", "broke", "broken",
		"coming apart", "came apart", "falling apart", "unravel", "worn", "loose",
		"doesn't lock", "won't lock", "came undone", "slipped", "damaged", "worn through", "defect", "split",
	},
	"charge": {"charged", "charge", "billed", "debited", "taken from my", "payment"},
	"inerror": {
		"twice", "double", "two charges", "duplicate", "again", "cancelled", "canceled", "after i cancel", "wrong amount",
		"overcharg", "didn't order", "never ordered", "did not order", "not authoris", "not authoriz", "unauthoris",
		"unauthoriz", "in error", "by mistake",
	},
	"norush": {
		"no rush", "no hurry", "not in a hurry", "not in any hurry", "not urgent", "nothing urgent", "take your time",
		"=whenever", "when you get a chance", "when you have a moment", "at your convenience", "no urgency",
		"not time sensitive", "low priority", "not in a rush", "no immediate",
	},
	"trigger": {
		"leave", "leaving", "depart", "departure", "fly", "flying", "flight", "trip", "hike", "hiking", "camping", "camp",
		"expedition", "race", "marathon", "wedding", "birthday", "event", "course", "festival", "holiday", "vacation",
		"start", "starting", "begin", "need", "needs", "need it", "in time", "gift", "present", "heading", "head out",
		"going", "travel", "move", "moving", "climb", "trek", "walk", "ride", "tour", "deadline", "closes", "ends", "expires",
	},
	"past": {
		"=was", "=were", "=went", "=got =back", "=came =back", "=returned =from", "=finished", "=ended", "=is =over", "=was =over",
		"=already", "=last", "=ago", "=yesterday", "=had", "=did", "=back =from",
	},
}

// Time words for deadlines.
var (
	weekdays = map[string]bool{"monday": true, "tuesday": true, "wednesday": true, "thursday": true, "friday": true,
		"saturday": true, "sunday": true, "tues": true, "thurs": true}
	months = map[string]bool{"january": true, "february": true, "march": true, "april": true, "may": true, "june": true,
		"july": true, "august": true, "september": true, "october": true, "november": true, "december": true, "jan": true,
		"feb": true, "mar": true, "apr": true, "jun": true, "jul": true, "aug": true, "sep": true, "sept": true,
		"oct": true, "nov": true, "dec": true}
	vagueTime = map[string]bool{"summer": true, "winter": true, "spring": true, "autumn": true, "fall": true,
		"year": true, "season": true, "someday": true, "eventually": true, "sometime": true}
)

// The cheap profile's cues: loud words, anger, obvious dates and alarming
// words. It does not read tense, negation or subtle deadlines.
var nanoCues = map[string][]string{
	"loud":   {"urgent", "urgently", "asap", "emergency", "immediately", "right now", "right away"},
	"anger":  {"ridiculous", "furious", "unacceptable", "worst", "angry", "outrageous", "disgrace", "disgusting"},
	"date":   {"tomorrow", "tonight", "this weekend", "by monday", "by tuesday", "by wednesday", "by thursday", "by friday", "by saturday", "by sunday", "by the weekend"},
	"danger": {"fire", "flame", "flames", "burn", "burnt", "burned", "gas", "danger", "dangerous", "injur", "injured", "hurt", "smoke"},
	"money":  {"charged twice", "double charged", "two charges"},
}
