package drillfile

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/route"
	"github.com/drill-dev/drill/workload"
)

// Route sends one class of emails to its own policy: every run of the file
// routes the class so, and its policy (from policies:, or the default
// preset) takes the emails no route matches.
//
//	routes:
//	  - class: safety
//	    match: {safety: true}
//	    policy: fail-fast
//	    backup: never, person
type Route struct {
	// Class names the route's emails in figures (classes.NAME.*).
	Class string `yaml:"class"`
	// Match says which emails the route takes (package route): intent,
	// urgency, safety, keywords, pattern, class.
	Match route.Match `yaml:"match"`
	// Policy is the route's policy: a preset's name, the name of one of
	// the file's policies, or a policy written as under policies:.
	Policy RoutePolicy `yaml:"policy"`
	// Backup is "never, person" or "never, wait-for-primary" to keep the
	// route's emails off the backup; empty to let the policy say.
	Backup string `yaml:"backup"`
	// Wait bounds a wait-for-primary email's wait (default 60s); Queue how
	// many wait at once (default 50).
	Wait  *Duration `yaml:"wait"`
	Queue *Int      `yaml:"queue"`
	// Within is what the class's customers can wait: drill recommend's
	// bound for it, shown in reports.
	Within *Duration `yaml:"within"`
}

// RoutePolicy is a route's policy: a name (Ref) or a policy written out.
type RoutePolicy struct {
	// Ref names a preset or one of the file's policies.
	Ref string
	// Inline is the policy written out, when there is no Ref.
	Inline *Policy
}

// UnmarshalYAML implements yaml.NodeUnmarshaler: a name, or a map read as
// a policies: entry.
func (p *RoutePolicy) UnmarshalYAML(n ast.Node) error {
	*p = RoutePolicy{}
	if s, ok := n.(ast.ScalarNode); ok {
		if _, null := n.(*ast.NullNode); !null {
			p.Ref = fmt.Sprint(s.GetValue())
			return nil
		}
	}
	var pol Policy
	if err := decodeValue(n, &pol); err != nil {
		return err
	}
	p.Inline = &pol
	return nil
}

func (*RoutePolicy) mappingType() reflect.Type { return reflect.TypeFor[Policy]() }

// BackupNever is the word a route's backup: starts with to keep its emails
// off the backup.
const BackupNever = "never"

// ParseBackup reads a route's backup: "never, person" or "never,
// wait-for-primary" give the hold mode; "" gives "".
func ParseBackup(s string) (hold string, err error) {
	if strings.TrimSpace(s) == "" {
		return "", nil
	}
	word, mode, _ := strings.Cut(s, ",")
	word, mode = strings.TrimSpace(word), strings.TrimSpace(mode)
	modes := strings.Join(workload.HoldModes(), " or ")
	switch {
	case word != BackupNever:
		return "", fmt.Errorf("backup: want %q followed by %s, got %q", BackupNever, modes, s)
	case mode == "":
		return "", fmt.Errorf("backup: never needs what to do instead: never, %s", strings.Join(workload.HoldModes(), " or never, "))
	case !slices.Contains(workload.HoldModes(), mode):
		return "", fmt.Errorf("backup: unknown mode %q after never (valid: %s)", mode, modes)
	}
	return mode, nil
}

// policy is the route's policy as a policies: entry.
func (f *File) routePolicy(r Route) (Policy, error) {
	if r.Policy.Inline != nil {
		return *r.Policy.Inline, nil
	}
	ref := r.Policy.Ref
	for _, p := range f.Policies {
		if p.PolicyName() == ref {
			return p, nil
		}
	}
	if slices.Contains(workload.PresetNames(), ref) {
		return Policy{Preset: ref}, nil
	}
	if ref == "" {
		return Policy{}, fmt.Errorf("a route needs a policy: a preset (%s), a policy of the file by name, or one written out", strings.Join(workload.PresetNames(), ", "))
	}
	return Policy{}, fmt.Errorf("policy %q is neither a preset (%s) nor a policy of the file", ref, strings.Join(workload.PresetNames(), ", "))
}

// checkRoutes checks every route at its line and column: a valid, distinct
// class, a match, a policy that builds and a backup: that reads.
func (f *File) checkRoutes() []error {
	var errs []error
	add := func(path, format string, a ...any) { errs = append(errs, f.at(path, format, a...)) }
	seen := map[string]bool{}
	for i, r := range f.Routes {
		path := fmt.Sprintf("$.routes[%d]", i)
		if err := route.ValidClassName(r.Class); err != nil {
			add(path+".class", "%v", err)
		} else if seen[r.Class] {
			add(path+".class", "class %q is routed twice", r.Class)
		}
		seen[r.Class] = true
		if reflect.DeepEqual(r.Match, route.Match{}) {
			add(path+".match", "a route needs a match (intent, urgency, safety, keywords, pattern or class): the default route takes the rest")
		} else if err := r.Match.Validate(); err != nil {
			add(path+".match", "%v", err)
		}
		if p, err := f.routePolicy(r); err != nil {
			add(path+".policy", "%v", err)
		} else if _, err := p.Build(); err != nil {
			add(path+".policy", "%v", err)
		}
		hold, err := ParseBackup(r.Backup)
		if err != nil {
			add(path+".backup", "%v", err)
		}
		if hold == "" && (r.Wait != nil || r.Queue != nil) {
			add(path, "wait and queue are for backup: never, %s", event.HoldWaitForPrimary)
		}
		if r.Wait != nil && *r.Wait <= 0 {
			add(path+".wait", "wait must be above 0, got %s", *r.Wait)
		}
		if r.Queue != nil && *r.Queue < 1 {
			add(path+".queue", "queue must be at least 1, got %d", *r.Queue)
		}
		if r.Within != nil && *r.Within <= 0 {
			add(path+".within", "within must be above 0, got %s", *r.Within)
		}
	}
	return errs
}

// RouteList builds the file's routes for the engine, in the file's order.
func (f *File) RouteList() ([]workload.Route, error) {
	var out []workload.Route
	for _, r := range f.Routes {
		p, err := f.routePolicy(r)
		if err != nil {
			return nil, fmt.Errorf("route %s: %w", r.Class, err)
		}
		wp, err := p.Build()
		if err != nil {
			return nil, fmt.Errorf("route %s: policy %s: %w", r.Class, p.PolicyName(), err)
		}
		hold, err := ParseBackup(r.Backup)
		if err != nil {
			return nil, fmt.Errorf("route %s: %w", r.Class, err)
		}
		wr := workload.Route{Class: r.Class, Match: r.Match, Policy: wp, Hold: hold}
		if r.Wait != nil {
			wr.Wait = r.Wait.D()
		}
		if r.Queue != nil {
			wr.Queue = int(*r.Queue)
		}
		if r.Within != nil {
			wr.Within = r.Within.D()
		}
		out = append(out, wr)
	}
	return out, nil
}
