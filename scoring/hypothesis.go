package scoring

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/drill-dev/drill/internal/suggest"
)

// Hypotheses and abort conditions are checks on summary figures, written
// `figure op value`: `served.error == 0`, `p95_wait_outage_s <= 5`,
// `canned_share > 0.5`. A figure is any number, bool or string of the
// summary's JSON, named by its dotted key path (`served.error`,
// `followed.wait_s`, `all4_right_ci95.0`), or one of the derived figures
// (DerivedFigures). The evaluator reads the summary only through its JSON,
// so a figure added to Summary is a figure here without any change.

// Op is a comparison operator of a check.
type Op string

// The comparison operators.
const (
	OpEq Op = "=="
	OpNe Op = "!="
	OpLt Op = "<"
	OpLe Op = "<="
	OpGt Op = ">"
	OpGe Op = ">="
)

// Ops lists the valid operators.
var Ops = []Op{OpEq, OpNe, OpLt, OpLe, OpGt, OpGe}

// Figure kinds, as a check sees them.
const (
	figNumber = "number"
	figBool   = "bool"
	figString = "string"
)

// DerivedFigures are figures computed from the summary's own figures, in
// one place (derive): the emails answered so far and each rung's share of
// them. A share is null until an email is answered.
var DerivedFigures = map[string]string{
	"answered":      "emails the chain finished so far: every served.* count but cancelled and rejected (the summary's emails_answered)",
	"primary_share": "served.primary / answered",
	"backup_share":  "served.backup / answered",
	"canned_share":  "served.canned / answered",
	"error_share":   "served.error / answered",
}

// monotone lists the figures that never go down while a run goes on (they
// count things), so a live check on them can already fail, or already hold
// for good, before the run ends.
var monotone = []string{"served.", "answered", "calls_to_broken_outage", "breaker_opens"}

func isMonotone(figure string) bool {
	for _, m := range monotone {
		if figure == m || (strings.HasSuffix(m, ".") && strings.HasPrefix(figure, m)) {
			return true
		}
	}
	return false
}

// Expr is one parsed check, `figure op value`.
type Expr struct {
	Figure string
	// Minus, when set, is a figure subtracted from Figure: the check is on
	// their difference (difference.go).
	Minus string
	Op    Op
	// Value is a float64, a bool or a string.
	Value any
}

// String is the check in its canonical form, e.g. "served.error == 0".
func (e Expr) String() string { return fmt.Sprintf("%s %s %s", e.left(), e.Op, formatValue(e.Value)) }

// ParseExpr parses `figure op value` on a triage drill's figures. An
// unknown figure or operator, or a value of the wrong kind for the figure,
// is an error that lists the valid ones.
func ParseExpr(s string) (Expr, error) { return triageFigures.parse(s) }

// parse parses `figure op value` on the set's figures.
func (set figureSet) parse(s string) (Expr, error) {
	s = strings.TrimSpace(s)
	i := strings.IndexAny(s, "=!<>")
	if i <= 0 {
		return Expr{}, fmt.Errorf("%q is not `figure op value`: no operator (valid: %s)", s, opList())
	}
	j := i
	for j < len(s) && strings.ContainsRune("=!<>", rune(s[j])) {
		j++
	}
	figure, op, raw := strings.TrimSpace(s[:i]), Op(s[i:j]), strings.TrimSpace(s[j:])
	if !slices.Contains(Ops, op) {
		return Expr{}, fmt.Errorf("%q: unknown operator %q (valid: %s)", s, op, opList())
	}
	figure, minus, err := set.parseDifference(s, figure)
	if err != nil {
		return Expr{}, err
	}
	kind, ok := set.kind(figure)
	if !ok {
		if near, ok := suggest.Nearest(figure, set.names()); ok {
			// One name, not the ~80 of the whole list.
			return Expr{}, fmt.Errorf("%q: unknown figure %q; did you mean %q? (every figure: docs/keys.md)", s, figure, near)
		}
		return Expr{}, fmt.Errorf("%q: unknown figure %q (valid: %s)", s, figure, strings.Join(set.names(), ", "))
	}
	if raw == "" {
		return Expr{}, fmt.Errorf("%q: no value after %s", s, op)
	}
	e := Expr{Figure: figure, Minus: minus, Op: op}
	switch kind {
	case figNumber:
		v, err := strconv.ParseFloat(raw, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return Expr{}, fmt.Errorf("%q: %s is a number, and %q is not one", s, figure, raw)
		}
		e.Value = v
	case figBool:
		v, err := strconv.ParseBool(raw)
		if err != nil || (raw != "true" && raw != "false") {
			return Expr{}, fmt.Errorf("%q: %s is true or false, and %q is neither", s, figure, raw)
		}
		e.Value = v
	case figString:
		if uq, err := strconv.Unquote(raw); err == nil {
			raw = uq
		}
		e.Value = raw
	}
	if kind != figNumber && op != OpEq && op != OpNe {
		return Expr{}, fmt.Errorf("%q: %s is a %s and takes only == or !=", s, figure, kind)
	}
	return e, nil
}

// ParseExprs parses several checks on a triage drill's figures; the error
// names every bad one.
func ParseExprs(ss []string) ([]Expr, error) { return triageFigures.parseAll(ss) }

func (set figureSet) parseAll(ss []string) ([]Expr, error) {
	var out []Expr
	var errs []string
	for _, s := range ss {
		e, err := set.parse(s)
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		out = append(out, e)
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	return out, nil
}

func opList() string {
	s := make([]string, len(Ops))
	for i, o := range Ops {
		s[i] = string(o)
	}
	return strings.Join(s, " ")
}

// figureSet is the figures a workload's checks may name: a summary type's
// JSON leaves (kinds) and the figures derived from them.
type figureSet struct {
	kinds func() map[string]string
	// wildcards are the kinds' patterns with a `*` step, split at the
	// dots once: a figure not in kinds is matched against these alone.
	wildcards func() []wildcard
}

// wildcard is a figure pattern with a `*` step, split at the dots, and its kind.
type wildcard struct {
	steps []string
	kind  string
}

// newFigureSet is the figure set of kinds, computed once.
func newFigureSet(kinds func() map[string]string) figureSet {
	kinds = sync.OnceValue(kinds)
	return figureSet{kinds: kinds, wildcards: sync.OnceValue(func() []wildcard {
		var out []wildcard
		for pattern, k := range kinds() {
			if strings.Contains(pattern, "*") {
				out = append(out, wildcard{steps: strings.Split(pattern, "."), kind: k})
			}
		}
		return out
	})}
}

// The figure sets: a triage drill's and a chat drill's.
var (
	triageFigures = newFigureSet(func() map[string]string {
		kinds := map[string]string{}
		leaves(reflect.TypeFor[Summary](), "", kinds)
		for n := range DerivedFigures {
			kinds[n] = figNumber
		}
		return kinds
	})
	chatFigures = newFigureSet(func() map[string]string {
		kinds := map[string]string{}
		leaves(reflect.TypeFor[ChatSummary](), "", kinds)
		kinds[chatBreakerOpens] = figNumber // the sum over breakers
		return kinds
	})
)

// Figures lists every figure a check on a triage drill may name, sorted:
// the summary's JSON leaves and the derived figures.
func Figures() []string { return triageFigures.names() }

// names lists the set's figures, sorted.
func (set figureSet) names() []string {
	kinds := set.kinds()
	names := make([]string, 0, len(kinds))
	for n := range kinds {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// figureKind is the kind of a triage figure (figureSet.kind).
func figureKind(figure string) (string, bool) { return triageFigures.kind(figure) }

// kind is the kind of a figure: an exact key path, or one under a map,
// whose keys the path's `*` stands for (fields_right.* matches
// fields_right.intent).
func (set figureSet) kind(figure string) (string, bool) {
	kinds := set.kinds()
	if k, ok := kinds[figure]; ok {
		return k, true
	}
	parts := strings.Split(figure, ".")
	for _, w := range set.wildcards() {
		if len(w.steps) != len(parts) {
			continue
		}
		match := true
		for i := range w.steps {
			if w.steps[i] != "*" && w.steps[i] != parts[i] {
				match = false
				break
			}
		}
		if match {
			return w.kind, true
		}
	}
	return "", false
}

// leaves walks a type as encoding/json encodes it and records each leaf's
// dotted key path and kind. A map with string keys is a `*` step in the
// path (fields_right.*); slices have no fixed keys and are left out;
// fixed-length arrays are indexed (all4_right_ci95.0).
func leaves(t reflect.Type, prefix string, out map[string]string) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			tag := f.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, _, _ := strings.Cut(tag, ",")
			if f.Anonymous && name == "" {
				leaves(f.Type, prefix, out)
				continue
			}
			if name == "" {
				name = f.Name
			}
			leaves(f.Type, prefix+name+".", out)
		}
	case reflect.Array:
		for i := range t.Len() {
			leaves(t.Elem(), prefix+strconv.Itoa(i)+".", out)
		}
	case reflect.Map:
		if t.Key().Kind() == reflect.String {
			leaves(t.Elem(), prefix+"*.", out)
		}
	case reflect.Bool:
		out[strings.TrimSuffix(prefix, ".")] = figBool
	case reflect.String:
		out[strings.TrimSuffix(prefix, ".")] = figString
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		out[strings.TrimSuffix(prefix, ".")] = figNumber
	}
}

// FiguresOf is every figure of a triage summary, by name: float64, bool,
// string, or nil for a figure that is null (not measured).
func FiguresOf(s any) (map[string]any, error) {
	figs, err := triageFigures.of(s)
	if err != nil {
		return nil, err
	}
	derive(figs)
	return figs, nil
}

// of is every leaf of s's JSON that is one of the set's figures, by name.
func (set figureSet) of(s any) (map[string]any, error) {
	b, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("reading the summary's figures: %w", err)
	}
	var tree any
	if err := json.Unmarshal(b, &tree); err != nil {
		return nil, fmt.Errorf("reading the summary's figures: %w", err)
	}
	all := map[string]any{}
	flatten(tree, "", all)
	// Lists (outage windows) have no fixed keys: only the leaves the set
	// lists are figures, a map's keys included (fields_right.intent).
	figs := make(map[string]any, len(all))
	for name, v := range all {
		if _, ok := set.kind(name); ok {
			figs[name] = v
		}
	}
	return figs, nil
}

func flatten(v any, prefix string, out map[string]any) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			flatten(x, prefix+k+".", out)
		}
	case []any:
		for i, x := range v {
			flatten(x, prefix+strconv.Itoa(i)+".", out)
		}
	default:
		out[strings.TrimSuffix(prefix, ".")] = v
	}
}

// derive adds the derived figures (DerivedFigures) to figs: answered is
// every served.* count but cancelled and rejected, as Served.Answered
// counts (a test keeps the two alike), and each rung's share of it.
func derive(figs map[string]any) {
	rungs := []string{"primary", "backup", "canned", "error"}
	answered := 0.0
	for _, r := range rungs {
		n, ok := figs["served."+r].(float64)
		if !ok {
			figs["answered"] = nil
			for _, r := range rungs {
				figs[r+"_share"] = nil
			}
			return
		}
		answered += n
	}
	// The counts omitted when 0.
	for _, r := range []string{"rules", "handed_over"} {
		if n, ok := figs["served."+r].(float64); ok {
			answered += n
		}
	}
	figs["answered"] = answered
	for _, r := range rungs {
		if answered == 0 {
			figs[r+"_share"] = nil
			continue
		}
		figs[r+"_share"] = figs["served."+r].(float64) / answered
	}
}

// Verdict is a check's outcome: the summary JSON's `hypotheses` entries.
// Value is the measured figure (null when it was not measured: a check on
// a null figure does not pass).
type Verdict struct {
	Expr  string `json:"expr"`
	Value any    `json:"value"`
	Pass  bool   `json:"pass"`
}

// Holds reports whether the check holds on figs, and the measured value.
// A null or missing figure, or one of another kind than the check's
// value, does not hold.
func (e Expr) Holds(figs map[string]any) (holds bool, value any) {
	value = e.value(figs)
	switch v := value.(type) {
	case float64:
		want, ok := e.Value.(float64)
		if !ok {
			return false, value
		}
		switch e.Op {
		case OpEq:
			return v == want, value
		case OpNe:
			return v != want, value
		case OpLt:
			return v < want, value
		case OpLe:
			return v <= want, value
		case OpGt:
			return v > want, value
		case OpGe:
			return v >= want, value
		}
	case bool, string:
		if reflect.TypeOf(e.Value) != reflect.TypeOf(v) {
			return false, value
		}
		switch e.Op {
		case OpEq:
			return v == e.Value, value
		case OpNe:
			return v != e.Value, value
		}
	}
	return false, value
}

// Judge evaluates the hypotheses at the end of a run, in order.
func Judge(figs map[string]any, hyps []Expr) []Verdict {
	out := make([]Verdict, len(hyps))
	for i, h := range hyps {
		ok, v := h.Holds(figs)
		out[i] = Verdict{Expr: h.String(), Value: v, Pass: ok}
	}
	return out
}

// Live statuses of a hypothesis while a run goes on, in words.
const (
	LivePass   = "pass"    // holds now (and, on a count, for good)
	LiveAtRisk = "at risk" // does not hold now but still can, or is not measured yet
	LiveFail   = "FAIL"    // cannot hold any more: a count is already past it
)

// Live is a hypothesis's status during a run on the figures so far. Counts
// (served.*, answered, calls_to_broken_outage, breaker_opens) only grow,
// so a bound they have passed is already a FAIL; anything else that does
// not hold yet is at risk.
func (e Expr) Live(figs map[string]any) string {
	ok, v := e.Holds(figs)
	if ok {
		return LivePass
	}
	n, isNum := v.(float64)
	bound, _ := e.Value.(float64)
	if isNum && e.Minus == "" && isMonotone(e.Figure) {
		switch e.Op {
		case OpLt:
			return LiveFail // n >= bound
		case OpLe, OpEq:
			if n > bound {
				return LiveFail
			}
		}
	}
	return LiveAtRisk
}

// Failed returns the verdicts that did not pass.
func Failed(vs []Verdict) []Verdict {
	var out []Verdict
	for _, v := range vs {
		if !v.Pass {
			out = append(out, v)
		}
	}
	return out
}

// FormatValue writes a measured value as a check would: numbers in their
// shortest form, null for a figure that was not measured.
func FormatValue(v any) string { return formatValue(v) }

func formatValue(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case string:
		if v == "" || strings.ContainsAny(v, " \t\"") {
			return strconv.Quote(v)
		}
		return v
	}
	return fmt.Sprint(v)
}
