package scoring

import "strings"

// Unit is what a figure measures, and so how a table writes it.
type Unit string

// The units of the registry's figures.
const (
	UnitSeconds Unit = "seconds"
	UnitShare   Unit = "share"
	UnitCount   Unit = "count"
	UnitMoney   Unit = "money"
)

// Direction is which way a figure is better.
type Direction int

// The directions. Neutral figures are shown but never judged: more
// handovers is better when they replace silent endings, worse otherwise.
const (
	Neutral Direction = iota
	LowerBetter
	HigherBetter
)

// FigureDef is one figure of the registry: the one place that says what a
// summary figure is, for sweep, history, recommend, the sweep dashboard's
// sorting, every table and --expect's suggestions. Its value is read from
// a summary by its name (FiguresOf, ChatFiguresOf).
type FigureDef struct {
	// Name is the figure's key in the summary's figures; a name ending in
	// "." names a family (fields_right.intent, fields_right.priority).
	Name string
	// Unit is what it measures.
	Unit Unit
	// Better is which way is better.
	Better Direction
	// NullWorst: a figure that never happened (null: a breaker that never
	// opened, a primary that never came back) is its worst value.
	NullWorst bool
	// Doc is one line on what it is.
	Doc string
}

// triageDefs are a triage drill's judged figures.
var triageDefs = []FigureDef{
	{"p95_wait_outage_s", UnitSeconds, LowerBetter, false, "95th percentile of waits of the emails sent during the outage"},
	{"median_wait_outage_s", UnitSeconds, LowerBetter, false, "median wait of the emails sent during the outage"},
	{"followed.wait_s", UnitSeconds, LowerBetter, false, "waits of the emails followed through the run"},
	{"breaker_first_open_s", UnitSeconds, LowerBetter, true, "when the breaker first opened, from the outage's start"},
	{"primary_back_s", UnitSeconds, LowerBetter, true, "when the primary served again after the outage ended"},
	{"wall_s", UnitSeconds, LowerBetter, false, "the run's length"},
	{"calls_to_broken_outage", UnitCount, LowerBetter, false, "calls made to the broken model during the outage"},
	{"breaker_opens", UnitCount, LowerBetter, false, "times the breakers opened"},
	{"all4_right", UnitShare, HigherBetter, false, "share of answered emails with all four fields right"},
	{"fields_right.", UnitShare, HigherBetter, false, "share of answered emails with this field right"},
	{"primary_share", UnitShare, HigherBetter, false, "share of emails the primary answered"},
	{"backup_share", UnitShare, HigherBetter, false, "share of emails the backup answered"},
	{"canned_share", UnitShare, LowerBetter, false, "share of emails given the canned reply"},
	{"error_share", UnitShare, LowerBetter, false, "share of emails that ended in an error"},
	{"served.primary", UnitCount, HigherBetter, false, "emails the primary answered"},
	{"served.backup", UnitCount, HigherBetter, false, "emails the backup answered"},
	{"served.canned", UnitCount, LowerBetter, false, "emails given the canned reply"},
	{"served.error", UnitCount, LowerBetter, false, "emails that ended in an error"},
	{"served.rejected", UnitCount, LowerBetter, false, "emails a full worker pool turned away"},
	{"served.cancelled", UnitCount, LowerBetter, false, "emails cancelled when the drill stopped"},
	{"emails_answered", UnitCount, HigherBetter, false, "emails answered by a model or the canned reply"},
	{"answered", UnitCount, HigherBetter, false, "emails answered"},
	{"emails_sent", UnitCount, HigherBetter, false, "emails sent"},
	{"never_answered", UnitCount, LowerBetter, false, "emails sent and never answered"},
	{"not_sent", UnitCount, LowerBetter, false, "emails planned and never sent"},
	{"rejected", UnitCount, LowerBetter, false, "emails a full worker pool turned away"},
	{"cut_off", UnitCount, LowerBetter, false, "emails still running when the drill ended"},
	{"cost.total", UnitMoney, LowerBetter, false, "what the run's tokens cost at the given prices"},
}

// chatDefs are a chat drill's judged figures.
var chatDefs = []FigureDef{
	{"answered", UnitCount, HigherBetter, false, "conversations the agent answered"},
	{"handed_over", UnitCount, Neutral, false, "conversations handed to a person"},
	{"silent", UnitCount, LowerBetter, false, "conversations that ended with no answer and no handover"},
	{"turn_limit", UnitCount, LowerBetter, false, "conversations stopped by the turn limit"},
	{"time_p99_s", UnitSeconds, LowerBetter, false, "99th percentile of conversation times"},
	{"over_120s", UnitCount, LowerBetter, false, "conversations that took over two minutes"},
	{"tokens_billed", UnitCount, LowerBetter, false, "tokens billed over every call"},
	{chatBreakerOpens, UnitCount, Neutral, false, "times any breaker opened"},
}

// lookup finds a figure's definition in defs: by its name, or by the
// family its name falls in (fields_right.intent in fields_right.; an
// all4_right figure such as all4_right_ci95.0 in all4_right).
func lookup(defs []FigureDef, figure string) (FigureDef, bool) {
	for _, d := range defs {
		if figure == d.Name || strings.HasSuffix(d.Name, ".") && strings.HasPrefix(figure, d.Name) {
			return d, true
		}
	}
	for _, d := range defs {
		if d.Name == "all4_right" && strings.HasPrefix(figure, d.Name) {
			return d, true
		}
	}
	return FigureDef{}, false
}

// Figure is a triage figure's definition; ok is false for a figure the
// registry does not judge.
func Figure(name string) (FigureDef, bool) { return lookup(triageDefs, name) }

// ChatFigure is a chat figure's definition; ok is false for a figure the
// registry does not judge.
func ChatFigure(name string) (FigureDef, bool) { return lookup(chatDefs, name) }

// FiguresNamed returns the triage definitions of names, in their order; a
// name the registry lacks is a programming error and panics at start-up.
func FiguresNamed(names ...string) []FigureDef { return named(triageDefs, names) }

// ChatFiguresNamed returns the chat definitions of names, in their order.
func ChatFiguresNamed(names ...string) []FigureDef { return named(chatDefs, names) }

func named(defs []FigureDef, names []string) []FigureDef {
	out := make([]FigureDef, len(names))
	for i, n := range names {
		d, ok := lookup(defs, n)
		if !ok {
			panic("scoring: figure " + n + " is not in the registry")
		}
		out[i] = d
	}
	return out
}

// HigherIsBetter says which way figure is better: higher (true) or lower
// (false), and whether drill knows (ok); for a neutral figure or one the
// registry does not judge, ok is false.
func HigherIsBetter(figure string) (higher, ok bool) {
	d, found := Figure(figure)
	if !found || d.Better == Neutral {
		return false, false
	}
	return d.Better == HigherBetter, true
}

// ObjectivesOf are the objectives of names, each higher-is-better as the
// registry says.
func ObjectivesOf(names ...string) []Objective {
	out := make([]Objective, len(names))
	for i, d := range FiguresNamed(names...) {
		out[i] = Objective{Figure: d.Name, Higher: d.Better == HigherBetter}
	}
	return out
}
