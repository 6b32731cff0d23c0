package plan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/drillfile"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/route"
	"github.com/drill-dev/drill/internal/suggest"
	"github.com/drill-dev/drill/workload"
)

// routeFlag is the flag that routes a class: --route CLASS=POLICY.
const routeFlag = "route"

// registerRoutes adds --route to fs.
func registerRoutes(fs *pflag.FlagSet, dst *[]string) {
	fs.StringArrayVar(dst, routeFlag, nil, "send a class of emails to its own policy, CLASS=POLICY[,never,person|wait-for-primary], repeatable, first match wins: "+
		"e.g. --route safety=fail-fast,never,person (classes without a drill file: "+strings.Join(route.BuiltinNames(), ", ")+"; docs/routes.md)")
}

// RouteSpec is one --route value read: the class, its policy's name and
// the backup: never mode, if any.
type RouteSpec struct {
	Class, Policy, Hold string
}

// ParseRoute reads CLASS=POLICY[,never,MODE].
func ParseRoute(s string) (RouteSpec, error) {
	class, rest, ok := strings.Cut(s, "=")
	class, rest = strings.TrimSpace(class), strings.TrimSpace(rest)
	if !ok || class == "" || rest == "" {
		return RouteSpec{}, fmt.Errorf("--route %q: want CLASS=POLICY, e.g. safety=fail-fast,never,person", s)
	}
	name, backup, _ := strings.Cut(rest, ",")
	hold, err := drillfile.ParseBackup(backup)
	if err != nil {
		return RouteSpec{}, fmt.Errorf("--route %s: %w", s, err)
	}
	return RouteSpec{Class: class, Policy: strings.TrimSpace(name), Hold: hold}, nil
}

// routesFromFlags are the --route values as the engine's routes, without a
// drill file: built-in classes, presets with the policy flags given.
func routesFromFlags(values []string, fs *pflag.FlagSet) ([]workload.Route, error) {
	var out []workload.Route
	for _, v := range values {
		spec, err := ParseRoute(v)
		if err != nil {
			return nil, exit.UsageError(err)
		}
		m, ok := route.Builtin[spec.Class]
		if !ok {
			return nil, exit.Usagef("--route: no class %q without a drill file (built-in: %s)%s; a drill file's routes: defines others",
				spec.Class, strings.Join(route.BuiltinNames(), ", "), suggest.DidYouMean(spec.Class, "", route.BuiltinNames()))
		}
		p, err := workload.Preset(spec.Policy)
		if err != nil {
			return nil, exit.Usagef("--route %s: %w", v, err)
		}
		if err := FlagOverrides(fs).ApplyFlags(&p); err != nil {
			return nil, exit.UsageError(err)
		}
		out = append(out, workload.Route{Class: spec.Class, Match: m, Policy: p, Hold: spec.Hold})
	}
	return out, nil
}

// layerRoutes lays --route values over a drill file's routes (a class the
// file routes takes the flag's policy and backup; a built-in class is
// added after the file's) and the policy flags given over every route's
// policy, as over the file's policies: a model keeps one breaker.
func layerRoutes(df *drillfile.File, values []string, o drillfile.Overrides) error {
	for _, v := range values {
		spec, err := ParseRoute(v)
		if err != nil {
			return err
		}
		r := drillfile.Route{Class: spec.Class, Policy: drillfile.RoutePolicy{Ref: spec.Policy}}
		if spec.Hold != "" {
			r.Backup = drillfile.BackupNever + ", " + spec.Hold
		}
		if i := slices.IndexFunc(df.Routes, func(x drillfile.Route) bool { return x.Class == spec.Class }); i >= 0 {
			df.Routes[i].Policy, df.Routes[i].Backup = r.Policy, r.Backup
			if spec.Hold != event.HoldWaitForPrimary {
				df.Routes[i].Wait, df.Routes[i].Queue = nil, nil
			}
			continue
		}
		m, ok := route.Builtin[spec.Class]
		if !ok {
			names := make([]string, 0, len(df.Routes))
			for _, x := range df.Routes {
				names = append(names, x.Class)
			}
			return fmt.Errorf("--route: %s routes no class %q (it routes: %s), and it is not a built-in class (%s)",
				df.Path, spec.Class, strings.Join(names, ", "), strings.Join(route.BuiltinNames(), ", "))
		}
		r.Match = m
		df.Routes = append(df.Routes, r)
	}
	for i := range df.Routes {
		r := &df.Routes[i]
		if r.Policy.Inline == nil {
			p := drillfile.Policy{Preset: r.Policy.Ref}
			if j := slices.IndexFunc(df.Policies, func(x drillfile.Policy) bool { return x.PolicyName() == r.Policy.Ref }); j >= 0 {
				p = df.Policies[j] // already carries the flags' overrides
			} else if !slices.Contains(workload.PresetNames(), r.Policy.Ref) {
				continue // Check says what is wrong with it
			}
			r.Policy.Inline = &p
		}
		r.Policy.Inline.Overrides = r.Policy.Inline.Overrides.Merge(o)
	}
	return nil
}

// writeRoutes adds the file's routes to drill validate's timeline, one a
// line in match order; nothing for a file without routes.
func writeRoutes(b *strings.Builder, f *drillfile.File) {
	for i, r := range f.Routes {
		head := "routes:  "
		if i > 0 {
			head = "         "
		}
		pol := r.Policy.Ref
		if r.Policy.Inline != nil {
			pol = policyText(*r.Policy.Inline)
		}
		line := fmt.Sprintf("%s %s → %s", head, r.Class, pol)
		if r.Backup != "" {
			line += ", backup " + r.Backup
		}
		if r.Within != nil {
			line += ", within " + format.FileSecs(r.Within.D())
		}
		b.WriteString(line + "\n")
	}
	if len(f.Routes) > 0 {
		b.WriteString("          the rest → the policy (class default)\n")
	}
}
