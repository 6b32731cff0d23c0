package archtest

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/packages"
)

const module = "github.com/drill-dev/drill"

// layer is a package's place in the map.
type layer int

const (
	base      layer = iota // the log, the data set and leaves every package may import
	engine                 // what runs a drill: it never imports the fold
	fold                   // scoring: it never imports the engine
	machinery              // internal/…: runs, records and presents drills
	view                   // dashboards and reports
	command                // cmd/drill
)

func (l layer) String() string {
	return [...]string{"base", "engine", "fold", "machinery", "view", "command"}[l]
}

// place gives every package of the module its layer. A package missing from
// the map fails the test: a newcomer's package must be placed on purpose.
var place = map[string]layer{
	"event":                               base,
	"emails":                              base,
	"internal/answer":                     base,
	"internal/exit":                       base,
	"internal/price":                      base,
	"internal/triage":                     base,
	"internal/fakemodel":                  base,
	"internal/sse":                        base,
	"internal/format":                     base,
	"internal/edge":                       base,
	"internal/input":                      base,
	"internal/redact":                     base,
	"internal/serialwriter":               base,
	"internal/jsonscan":                   base,
	"internal/cputime":                    base,
	"internal/suggest":                    base,
	"internal/route":                      base,
	"internal/tools":                      base,
	"internal/sdkprofile":                 base,
	"internal/listen":                     base, // every listener's limits: imports nothing of drill's
	"internal/listen/listentest":          base,
	"internal/testwait":                   base, // tests wait with a deadline, never a bare sleep
	"internal/outfile":                    base, // the rule every output file follows
	"internal/control":                    base, // the outage command: a value every steering path carries
	"breaker":                             engine,
	"inject":                              engine,
	"chain":                               engine,
	"workload":                            engine,
	"internal/chat":                       engine,
	"scoring":                             fold,
	"internal/plain":                      machinery,
	"internal/journal":                    machinery,
	"internal/journal/journaltest":        machinery,
	"internal/livefold":                   machinery,
	"internal/drillfile":                  machinery,
	"internal/plan":                       machinery,
	"internal/predict":                    machinery,
	"internal/sweep":                      machinery,
	"internal/replayfault":                machinery,
	"internal/fleet":                      machinery,
	"internal/fleet/redisstore":           machinery,
	"internal/fleet/redisstore/redistest": machinery,
	"internal/proxy":                      machinery,
	"internal/proxy/proxybench":           machinery, // measures a proxy beside Toxiproxy and a direct call
	"scripts":                             machinery, // tests of the repository's scripts (bench.sh --check)
	"internal/control/api":                machinery, // the control API: serves a proxy's or a run's Apply
	"internal/control/client":             machinery, // drill ctl's client and its plain output
	"internal/proxyfleet":                 machinery, // a fleet of proxies drilled as one through Redis
	"internal/vclock":                     machinery,
	"internal/eval":                       machinery,
	"internal/session":                    machinery,
	"internal/preflight":                  machinery,
	"internal/archtest":                   machinery,
	"internal/docfig":                     machinery,
	"internal/history":                    machinery,
	"internal/alerts":                     machinery,
	"internal/metrics":                    machinery,
	"internal/recommend":                  machinery,
	"internal/complete":                   machinery, // the values shell completion offers for drill's flags
	"internal/cli":                        machinery, // the flag values and flag groups drill's commands share
	"internal/sweeprun":                   machinery, // drill sweep, recommend and sweep merge past their flags: shards too
	"tui":                                 view,
	"tui/proxyview":                       view,
	"internal/report":                     view,
	"internal/chatrun":                    view, // the chat workload's commands past their flags
	"internal/present":                    view, // a triage run judged and printed, a journal replayed, a fleet run
	"cmd/drill":                           command,
}

// engineOrder is the order inside the engine: a package imports only those
// before it (workload → chain → breaker, inject).
var engineOrder = map[string]int{"breaker": 0, "inject": 0, "chain": 1, "workload": 2, "internal/chat": 2}

var (
	loadOnce sync.Once
	loaded   []*packages.Package
	loadErr  error
)

// load type-checks every package of the module once for all the tests.
func load(t *testing.T) []*packages.Package {
	t.Helper()
	loadOnce.Do(func() {
		touchSources("../..")
		cfg := &packages.Config{
			Mode: packages.NeedName | packages.NeedImports | packages.NeedSyntax |
				packages.NeedTypes | packages.NeedTypesInfo | packages.NeedFiles,
			Dir: "../..",
		}
		loaded, loadErr = packages.Load(cfg, "./...")
		if loadErr == nil {
			var errs []string
			packages.Visit(loaded, nil, func(p *packages.Package) {
				for _, e := range p.Errors {
					errs = append(errs, e.Error())
				}
			})
			if len(errs) > 0 {
				loadErr = fmt.Errorf("loading the module: %s", strings.Join(errs, "; "))
			}
		}
	})
	if loadErr != nil {
		t.Fatal(loadErr)
	}
	return loaded
}

// rel is a package path relative to the module ("" for another module).
func rel(path string) (string, bool) {
	if path == module {
		return "", true
	}
	r, ok := strings.CutPrefix(path, module+"/")
	return r, ok
}

// importAllowed says whether a package of layer from may import to, and why not.
func importAllowed(from, to string) (bool, string) {
	lf, lt := place[from], place[to]
	switch {
	case lf == engine && lt == engine:
		if engineOrder[to] >= engineOrder[from] {
			return false, "the engine runs workload → chain → breaker, inject"
		}
		return true, ""
	case lf == engine && lt != base:
		return false, "the engine imports only the log, the data set and leaves (never the fold, machinery or a view)"
	case lf == fold && lt != base:
		return false, "the fold imports only the log, the data set and leaves (never the engine)"
	case lf == base && lt != base:
		return false, "a base package imports only other base packages"
	case lf == view && lt == engine:
		return false, "a view shows what the fold says; it imports no engine package"
	case lt == view && lf < view:
		return false, "only views and cmd/drill import a view"
	case lt == command:
		return false, "nothing imports cmd/drill"
	}
	return true, ""
}

func TestEveryPackageHasAPlace(t *testing.T) {
	for _, p := range load(t) {
		r, ok := rel(p.PkgPath)
		if !ok || strings.HasSuffix(p.PkgPath, ".test") || strings.HasSuffix(p.PkgPath, "_test") {
			continue
		}
		if _, ok := place[r]; !ok {
			t.Errorf("package %s has no place in the architecture map (internal/archtest/arch_test.go): give it a layer", r)
		}
	}
}

func TestImportsPointOneWay(t *testing.T) {
	for _, p := range load(t) {
		from, ok := rel(p.PkgPath)
		if !ok {
			continue
		}
		if _, placed := place[from]; !placed {
			continue // TestEveryPackageHasAPlace says so
		}
		var bad []string
		for path := range p.Imports {
			to, ok := rel(path)
			if !ok {
				continue
			}
			if _, placed := place[to]; !placed {
				continue
			}
			if ok, why := importAllowed(from, to); !ok {
				bad = append(bad, fmt.Sprintf("%s (%s) imports %s (%s): %s", from, place[from], to, place[to], why))
			}
		}
		sort.Strings(bad)
		for _, b := range bad {
			t.Error(b)
		}
	}
}

// nonTestFiles yields a package's non-test syntax with each file's name.
func nonTestFiles(p *packages.Package) map[string]*ast.File {
	out := map[string]*ast.File{}
	for _, f := range p.Syntax {
		name := p.Fset.Position(f.Pos()).Filename
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		out[name] = f
	}
	return out
}

// isEventKind reports whether an expression has type event.Kind.
func isEventKind(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	if !ok {
		return false
	}
	n, ok := tv.Type.(*types.Named)
	return ok && n.Obj().Name() == "Kind" && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == module+"/event"
}

// kindSwitches finds the places in a package that branch on an event kind.
func kindSwitches(p *packages.Package) []string {
	var found []string
	for name, f := range nonTestFiles(p) {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SwitchStmt:
				if n.Tag != nil && isEventKind(p.TypesInfo, n.Tag) {
					found = append(found, fmt.Sprintf("%s: switch on an event kind", p.Fset.Position(n.Pos())))
				}
			case *ast.BinaryExpr:
				if (n.Op == token.EQL || n.Op == token.NEQ) && (isEventKind(p.TypesInfo, n.X) || isEventKind(p.TypesInfo, n.Y)) {
					found = append(found, fmt.Sprintf("%s: compares an event kind", p.Fset.Position(n.Pos())))
				}
			}
			return true
		})
		_ = name
	}
	sort.Strings(found)
	return found
}

func TestOnlyTheFoldSwitchesOnEventKinds(t *testing.T) {
	for _, p := range load(t) {
		r, ok := rel(p.PkgPath)
		if !ok || r == "scoring" || r == "event" {
			continue
		}
		for _, where := range kindSwitches(p) {
			t.Errorf("%s: only scoring interprets events (add a fold function and call it)", where)
		}
	}
}

// printers are the fmt functions that write text for a person to read;
// fmt.Errorf is left out: an error names the value it refused as typed.
var printers = []string{"Sprintf", "Printf", "Fprintf", "Appendf", "Sprint", "Print", "Fprint", "Sprintln", "Println", "Fprintln"}

// isDuration reports whether an expression has type time.Duration.
func isDuration(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	if !ok {
		return false
	}
	n, ok := tv.Type.(*types.Named)
	return ok && n.Obj().Name() == "Duration" && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time"
}

// formatsFigure says why a call formats a duration or a share, or "".
func formatsFigure(info *types.Info, call *ast.CallExpr) string {
	// d.Seconds(), d.Milliseconds(), d.String() and the like, anywhere in
	// a printer's arguments.
	var why string
	for _, arg := range call.Args {
		ast.Inspect(arg, func(n ast.Node) bool {
			if why != "" {
				return false
			}
			switch n := n.(type) {
			case *ast.CallExpr:
				if sel, ok := n.Fun.(*ast.SelectorExpr); ok && isDuration(info, sel.X) {
					switch sel.Sel.Name {
					case "Seconds", "Milliseconds", "Microseconds", "Minutes", "Hours", "String":
						why = "formats a duration (" + sel.Sel.Name + ")"
					}
					return false
				}
				// A duration handed to a function (format.Secs(d)) is that
				// function's to write; a conversion (float64(d)) is not.
				if tv, ok := info.Types[n.Fun]; !ok || !tv.IsType() {
					return false
				}
			case ast.Expr:
				if isDuration(info, n) {
					why = "formats a time.Duration"
				}
			}
			return true
		})
	}
	if why != "" {
		return why
	}
	// A share: a format string that writes a number followed by %%.
	if len(call.Args) > 0 {
		for _, a := range call.Args[:min(2, len(call.Args))] {
			tv, ok := info.Types[a]
			if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
				continue
			}
			s := constant.StringVal(tv.Value)
			if strings.Contains(s, "f%%") || strings.Contains(s, "d%%") || strings.Contains(s, "f %%") {
				return "formats a share (%%)"
			}
		}
	}
	return ""
}

func TestOnlyFormatFormatsDurationsAndShares(t *testing.T) {
	for _, p := range load(t) {
		r, ok := rel(p.PkgPath)
		if !ok || r == "internal/format" {
			continue
		}
		var found []string
		for _, f := range nonTestFiles(p) {
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				obj, ok := p.TypesInfo.Uses[sel.Sel].(*types.Func)
				if !ok || obj.Pkg() == nil || obj.Pkg().Path() != "fmt" || !slices.Contains(printers, obj.Name()) {
					return true
				}
				if why := formatsFigure(p.TypesInfo, call); why != "" {
					found = append(found, fmt.Sprintf("%s: fmt.%s %s", p.Fset.Position(call.Pos()), obj.Name(), why))
				}
				return true
			})
		}
		sort.Strings(found)
		for _, where := range found {
			t.Errorf("%s: only internal/format writes a figure (call its function)", where)
		}
	}
}

// TestTheRulesCatchWhatTheyShould plants a violation of each rule in
// source the test type-checks itself, so a rule that stopped matching
// anything would fail here rather than pass silently.
func TestTheRulesCatchWhatTheyShould(t *testing.T) {
	pkgs := load(t)
	var ev *packages.Package
	for _, p := range pkgs {
		if p.PkgPath == module+"/event" {
			ev = p
		}
	}
	if ev == nil {
		t.Fatal("package event not loaded")
	}
	const src = `package planted

import (
	"fmt"
	"time"

	"github.com/drill-dev/drill/event"
)

func kinds(e event.Event) int {
	switch e.Kind {
	case event.RunEnd:
		return 1
	}
	if e.Kind == event.RunStart {
		return 2
	}
	return 0
}

func figures(d time.Duration, share float64) string {
	return fmt.Sprintf("%.1fs %v %.0f%%", d.Seconds(), d, 100*share)
}

func secs(d time.Duration) string { return "" }

func handedOn(d time.Duration) string {
	return fmt.Sprint(secs(d))
}
`
	p, err := typeCheck(src, ev)
	if err != nil {
		t.Fatal(err)
	}
	if got := kindSwitches(p); len(got) != 2 {
		t.Errorf("kind rule found %d places in planted code, want 2 (a switch and a comparison): %v", len(got), got)
	}
	calls := map[string]*ast.CallExpr{}
	ast.Inspect(p.Syntax[0], func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if sel, ok := c.Fun.(*ast.SelectorExpr); ok && (sel.Sel.Name == "Sprintf" || sel.Sel.Name == "Sprint") {
				calls[sel.Sel.Name] = c
			}
		}
		return true
	})
	if c := calls["Sprintf"]; c == nil || formatsFigure(p.TypesInfo, c) == "" {
		t.Errorf("format rule did not catch fmt.Sprintf of a duration in planted code")
	}
	if c := calls["Sprint"]; c == nil || formatsFigure(p.TypesInfo, c) != "" {
		t.Errorf("format rule flagged a duration handed to a formatting function in planted code")
	}
	if ok, _ := importAllowed("tui", "scoring"); !ok {
		t.Error("a view importing the fold must be allowed")
	}
	for _, bad := range [][2]string{{"workload", "scoring"}, {"scoring", "workload"}, {"chain", "workload"}, {"scoring", "tui"}, {"internal/journal", "tui"}, {"event", "scoring"}} {
		if ok, _ := importAllowed(bad[0], bad[1]); ok {
			t.Errorf("%s importing %s must be refused", bad[0], bad[1])
		}
	}
}

// typeCheck type-checks one file of planted source, resolving the event
// package to the module's own and the standard library from export data.
func typeCheck(src string, ev *packages.Package) (*packages.Package, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "planted.go", src, 0)
	if err != nil {
		return nil, fmt.Errorf("parsing planted source: %w", err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}}
	std := importer.Default()
	conf := types.Config{Importer: importerFunc(func(path string) (*types.Package, error) {
		if path == ev.PkgPath {
			return ev.Types, nil
		}
		return std.Import(path)
	})}
	tp, err := conf.Check("planted", fset, []*ast.File{f}, info)
	if err != nil {
		return nil, fmt.Errorf("type-checking planted source: %w", err)
	}
	return &packages.Package{PkgPath: "planted", Fset: fset, Syntax: []*ast.File{f}, Types: tp, TypesInfo: info}, nil
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// touchSources stats every Go file of the module and lists every folder.
// packages.Load reads the sources through a go list child process, which
// go test's cache cannot see; the cache does see what the test itself
// opens and stats, so a file changed or added anywhere reruns the test
// instead of repeating a cached pass.
func touchSources(root string) {
	_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil
		case d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules" || d.Name() == "testdata"):
			return filepath.SkipDir
		case !d.IsDir() && strings.HasSuffix(path, ".go"):
			_, _ = os.Stat(path)
		}
		return nil
	})
}
