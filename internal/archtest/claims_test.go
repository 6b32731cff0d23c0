package archtest

import (
	"fmt"
	"go/ast"
	"go/types"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// isKindConversion reports whether an expression converts an event kind to
// another type (string(e.Kind)): a comparison on it is a comparison on the kind.
func isKindConversion(info *types.Info, e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return false
	}
	tv, ok := info.Types[call.Fun]
	return ok && tv.IsType() && isEventKind(info, call.Args[0])
}

// isKindKeyedMap reports whether a type expression is a map keyed by event.Kind.
func isKindKeyedMap(info *types.Info, e ast.Expr) bool {
	m, ok := e.(*ast.MapType)
	if !ok {
		return false
	}
	tv, ok := info.Types[m.Key]
	if !ok {
		return false
	}
	n, ok := tv.Type.(*types.Named)
	return ok && n.Obj().Name() == "Kind" && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == module+"/event"
}

// kindReadings finds the forms of reading an event kind that kindSwitches
// does not: a comparison or switch on string(e.Kind), and a map keyed by
// event.Kind (a lookup table is a switch written as data).
func kindReadings(p *packages.Package) []string {
	var found []string
	for _, f := range nonTestFiles(p) {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SwitchStmt:
				if n.Tag != nil && isKindConversion(p.TypesInfo, n.Tag) {
					found = append(found, fmt.Sprintf("%s: switch on a converted event kind", p.Fset.Position(n.Pos())))
				}
			case *ast.BinaryExpr:
				if isKindConversion(p.TypesInfo, n.X) || isKindConversion(p.TypesInfo, n.Y) {
					found = append(found, fmt.Sprintf("%s: compares a converted event kind", p.Fset.Position(n.Pos())))
				}
			case *ast.MapType:
				if isKindKeyedMap(p.TypesInfo, n) {
					found = append(found, fmt.Sprintf("%s: a map keyed by event kind", p.Fset.Position(n.Pos())))
				}
			}
			return true
		})
	}
	sort.Strings(found)
	return found
}

// isDurationSlice reports whether an expression has type []time.Duration.
func isDurationSlice(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	if !ok {
		return false
	}
	s, ok := tv.Type.Underlying().(*types.Slice)
	if !ok {
		return false
	}
	n, ok := s.Elem().(*types.Named)
	return ok && n.Obj().Name() == "Duration" && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time"
}

// sorters are the functions whose first argument they order.
var sorters = map[string][]string{
	"sort":   {"Slice", "SliceStable", "Sort", "Stable"},
	"slices": {"Sort", "SortFunc", "SortStableFunc"},
}

// statNames are the words a hand-written statistic over waits is named by.
var statNames = []string{"median", "percentile", "quantile"}

// takesSlice reports whether a function has a slice parameter: a function
// named for a statistic computes it only if it is given the values.
func takesSlice(info *types.Info, fn *ast.FuncDecl) bool {
	for _, f := range fn.Type.Params.List {
		if tv, ok := info.Types[f.Type]; ok {
			if _, ok := tv.Type.Underlying().(*types.Slice); ok {
				return true
			}
		}
	}
	return false
}

// durationStatistics finds statistics computed over durations: a sort of a
// []time.Duration (the first step of every hand-written percentile) and a
// function named for a median, percentile or quantile.
func durationStatistics(p *packages.Package) []string {
	var found []string
	for _, f := range nonTestFiles(p) {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				name := strings.ToLower(n.Name.Name)
				for _, w := range statNames {
					if strings.Contains(name, w) && takesSlice(p.TypesInfo, n) {
						found = append(found, fmt.Sprintf("%s: %s computes a statistic", p.Fset.Position(n.Pos()), n.Name.Name))
					}
				}
			case *ast.CallExpr:
				sel, ok := n.Fun.(*ast.SelectorExpr)
				if !ok || len(n.Args) == 0 {
					return true
				}
				obj, ok := p.TypesInfo.Uses[sel.Sel].(*types.Func)
				if !ok || obj.Pkg() == nil {
					return true
				}
				for _, name := range sorters[obj.Pkg().Path()] {
					if obj.Name() == name && isDurationSlice(p.TypesInfo, n.Args[0]) {
						found = append(found, fmt.Sprintf("%s: sorts durations (%s.%s)", p.Fset.Position(n.Pos()), obj.Pkg().Name(), name))
					}
				}
			}
			return true
		})
	}
	sort.Strings(found)
	return found
}

// strconvFigures finds a duration written through strconv
// (strconv.FormatFloat(d.Seconds(), …)): the same figure fmt would write,
// by another road.
func strconvFigures(p *packages.Package) []string {
	var found []string
	for _, f := range nonTestFiles(p) {
		ast.Inspect(f, func(n ast.Node) bool {
			if fn, ok := n.(*ast.FuncDecl); ok {
				_, wire := wireFormats[p.Types.Name()+"."+fn.Name.Name]
				return !wire
			}
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			obj, ok := p.TypesInfo.Uses[sel.Sel].(*types.Func)
			if !ok || obj.Pkg() == nil || obj.Pkg().Path() != "strconv" {
				return true
			}
			if !strings.HasPrefix(obj.Name(), "Format") && !strings.HasPrefix(obj.Name(), "Append") && obj.Name() != "Itoa" {
				return true
			}
			if why := formatsFigure(p.TypesInfo, call); why != "" && !strings.Contains(why, "share") {
				found = append(found, fmt.Sprintf("%s: strconv.%s %s", p.Fset.Position(call.Pos()), obj.Name(), why))
			}
			return true
		})
	}
	sort.Strings(found)
	return found
}

func TestNoOtherReadingOfEventKinds(t *testing.T) {
	for _, p := range load(t) {
		r, ok := rel(p.PkgPath)
		if !ok || r == "scoring" || r == "event" {
			continue
		}
		for _, where := range kindReadings(p) {
			t.Errorf("%s: only scoring interprets events (add a fold function and call it)", where)
		}
	}
}

// statisticsElsewhere are the packages besides scoring that compute a
// statistic of durations, and why each may.
var statisticsElsewhere = map[string]string{
	"breaker": "the p99 trip rule decides on its own window of calls while the drill runs; what a view shows is scoring's",
}

// wireFormats are the functions that write a duration in a protocol's own
// format, not a figure for a person, and why.
var wireFormats = map[string]string{
	"inject.setRetryAfter": "Retry-After and retry-after-ms are HTTP headers in whole seconds and milliseconds",
}

func TestOnlyScoringComputesStatisticsOfDurations(t *testing.T) {
	for _, p := range load(t) {
		r, ok := rel(p.PkgPath)
		if _, allowed := statisticsElsewhere[r]; !ok || r == "scoring" || allowed {
			continue
		}
		for _, where := range durationStatistics(p) {
			t.Errorf("%s: only scoring computes percentiles and medians of waits (call its function)", where)
		}
	}
}

func TestOnlyFormatWritesSecondsThroughStrconv(t *testing.T) {
	for _, p := range load(t) {
		r, ok := rel(p.PkgPath)
		if !ok || r == "internal/format" {
			continue
		}
		for _, where := range strconvFigures(p) {
			t.Errorf("%s: only internal/format writes a figure (call its function)", where)
		}
	}
}

// TestTheClaimsCatchWhatTheyShould plants each violation the rules of this
// file name, in source the test type-checks itself, and shows each is found.
func TestTheClaimsCatchWhatTheyShould(t *testing.T) {
	var ev *packages.Package
	for _, p := range load(t) {
		if p.PkgPath == module+"/event" {
			ev = p
		}
	}
	if ev == nil {
		t.Fatal("package event not loaded")
	}
	const src = `package planted

import (
	"slices"
	"strconv"
	"time"

	"github.com/drill-dev/drill/event"
)

var byKind map[event.Kind]int

func kinds(e event.Event) int {
	switch string(e.Kind) {
	case "run_end":
		return 1
	}
	if string(e.Kind) == "run_start" {
		return 2
	}
	return byKind[e.Kind]
}

func medianWait(ds []time.Duration) time.Duration {
	slices.Sort(ds)
	return ds[len(ds)/2]
}

func label(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', 1, 64) + " s"
}
`
	p, err := typeCheck(src, ev)
	if err != nil {
		t.Fatal(err)
	}
	if got := kindReadings(p); len(got) != 3 {
		t.Errorf("kind rule found %d places in planted code, want 3 (a converted switch, a converted comparison, a map keyed by kind): %v", len(got), got)
	}
	if got := durationStatistics(p); len(got) != 2 {
		t.Errorf("statistics rule found %d places in planted code, want 2 (a median function, a sort of durations): %v", len(got), got)
	}
	if got := strconvFigures(p); len(got) != 1 {
		t.Errorf("strconv rule found %d places in planted code, want 1: %v", len(got), got)
	}
	if ok, _ := importAllowed("tui", "inject"); ok {
		t.Error("a view importing an engine package must be refused")
	}
	if ok, _ := importAllowed("internal/report", "workload"); ok {
		t.Error("the report (a view) importing workload must be refused")
	}
}
