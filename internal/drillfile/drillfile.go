// Package drillfile reads drill files: a drill written down in YAML and
// checked into a team's repository. A file holds the workload, the models,
// the outage timeline, the policies to try, the hypotheses that must hold
// and the abort conditions. Files are read strictly: an unknown key, a
// wrong type or a bad duration is an error naming the file, line and
// column. The package reads and checks files and nothing else:
// internal/plan turns a file into the runs it describes.
package drillfile

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/input"
)

// File is a drill file. Every field may be left out; plan.Config fills in the
// defaults of `drill run`.
type File struct {
	// Path is where the file was read from, for messages. Not in YAML.
	Path string `yaml:"-"`

	Workload Workload `yaml:"workload"`
	Models   Models   `yaml:"models"`
	Outages  []Window `yaml:"outages"`
	Policies []Policy `yaml:"policies"`
	// Routes send classes of emails to their own policies in every run;
	// the run's policy takes the rest (routes.go).
	Routes     []Route  `yaml:"routes"`
	Hypotheses []string `yaml:"hypotheses"`
	Abort      []string `yaml:"abort"`
	// Sweep is the grid `drill sweep -f` runs (sweep.go); others ignore it.
	Sweep Sweep `yaml:"sweep"`
	// Recommend are the bounds `drill recommend -f` judges settings by
	// (recommend.go); others ignore it.
	Recommend *Recommend `yaml:"recommend"`
	// Fleet, if set, runs the drill as a fleet of replicas (drill fleet).
	Fleet *Fleet `yaml:"fleet"`
	// Prices are per model (as the rungs name it) the price of a million
	// input and a million output tokens, "IN/OUT" (e.g. "0.25/2").
	Prices map[string]string `yaml:"prices"`
	// MaxSpend aborts the drill before a call whose estimated cost would
	// take its spend over this amount (in the prices' currency).
	MaxSpend *float64 `yaml:"max_spend"`
	// MetricsListen serves the drill's figures as Prometheus metrics on
	// this address (HOST:PORT) while it runs, as --metrics-listen.
	MetricsListen string `yaml:"metrics_listen"`
	// AlertListen receives the team's Alertmanager webhook notifications
	// on this address (HOST:PORT) while the drill runs, as --alert-listen.
	AlertListen string `yaml:"alert_listen"`
	// Baseline is the policy played beside the drill on the virtual clock
	// (no-breakers: the same chain without breakers; a preset; none), as
	// --baseline.
	Baseline string `yaml:"baseline"`
	// Chat, if set, makes the file a chat drill (chat.go): support
	// conversations with tool calls instead of the emails' triage.
	Chat *ChatFile `yaml:"chat"`
	// Predict holds drill predict's own settings; other commands ignore it.
	Predict Predict `yaml:"predict"`

	src *ast.File // the parsed source, for positions in later checks
}

// Predict is drill predict's section of a drill file.
type Predict struct {
	// SDK is the client library of the service the drill stands for (go,
	// node, python: sdkprofile's names), as --sdk; "" is go.
	SDK string `yaml:"sdk"`
}

// Workload is what is sent. Unset fields take `drill run`'s defaults.
type Workload struct {
	// Emails to send (default: all of the set: the built-in 120, or
	// EmailsFile's).
	Emails *Int `yaml:"emails"`
	// EmailsFile is a team's own emails (JSON Lines or CSV: id, from,
	// subject, body, optional truth), relative to the drill file.
	EmailsFile *string `yaml:"emails_file"`
	// Rate is emails sent per second (default 2).
	Rate *float64 `yaml:"rate"`
	// Seed of the fake model's latencies (default 1).
	Seed *Int `yaml:"seed"`
	// Stream makes every model call a streamed chat completion.
	Stream bool `yaml:"stream"`
	// Follow is the email traced in the summary (default 35, Marcus; 0 for
	// none, and none when the drill sends fewer emails).
	Follow *Int `yaml:"follow"`
	// MaxDuration is the run's ceiling (default: the outage's end or the
	// last arrival, whichever is later, plus 120 s).
	MaxDuration *Duration `yaml:"max_duration"`
	// MaxInFlight is the worker pool the emails share (0: no limit), as
	// --max-in-flight.
	MaxInFlight *Int `yaml:"max_in_flight"`

	// Kind is the workload a file names in a word (`workload: chat` or
	// `workload: triage`) instead of the mapping above, as --workload
	// does; empty for a mapping.
	Kind string `yaml:"-"`
}

// UnmarshalYAML implements yaml.NodeUnmarshaler: the triage settings as a
// mapping, or the workload named in a word (`workload: chat`).
func (w *Workload) UnmarshalYAML(n ast.Node) error {
	if s, ok := n.(*ast.StringNode); ok {
		switch s.Value {
		case event.WorkloadTriage, event.WorkloadChat:
			*w = Workload{Kind: s.Value}
			return nil
		}
		return nodeErrorf(n, "%sunknown workload %q (valid: %s, %s, or a mapping of the triage settings)", keyPrefix(n), s.Value, event.WorkloadTriage, event.WorkloadChat)
	}
	return yaml.NodeToValue(n, (*workloadFields)(w), yaml.Strict())
}

// workloadFields is Workload without its UnmarshalYAML: the mapping.
type workloadFields Workload

func (*Workload) mappingType() reflect.Type { return reflect.TypeFor[workloadFields]() }

// Models are the two model rungs.
type Models struct {
	Primary Model `yaml:"primary"`
	Backup  Model `yaml:"backup"`
}

// Model is one rung's model and where it is served.
type Model struct {
	// Model is the model name (default gpt-5.4-mini for the primary,
	// gpt-5.4-nano for the backup).
	Model string `yaml:"model"`
	// BaseURL is "fake" (the default: the built-in fake model, in-process)
	// or an OpenAI-compatible http(s) endpoint.
	BaseURL string `yaml:"base_url"`
	// APIKeyEnv names the environment variable holding the API key
	// (default OPENAI_API_KEY). The key itself never goes in the file.
	APIKeyEnv string `yaml:"api_key_env"`
}

// BaseURLFake is the base_url of the built-in fake model.
const BaseURLFake = "fake"

// IsFake reports whether the model is the built-in fake model.
// A model without a base_url is served at $OPENAI_BASE_URL when it is set.
func (m Model) IsFake() bool { return m.URL() == "" }

// Policy is one policy to try: a preset with overrides, or (no preset)
// written out in full with Backup, Breaker and Canned.
type Policy struct {
	// Name of the policy in summaries (default: the preset). Required when
	// there is no preset.
	Name string `yaml:"name"`
	// Preset is primary-only, backup-only, fallback, breaker or fail-fast.
	Preset string `yaml:"preset"`
	// Backup, Breaker and Canned write a policy out in full (no preset):
	// whether there is a backup rung, whether the primary has a breaker (the
	// chapter's: 5 failures in 10 s, 5 s cooldown) and whether the chain
	// ends in the canned reply. Not allowed with a preset.
	Backup  *bool `yaml:"backup"`
	Breaker *bool `yaml:"breaker"`
	Canned  *bool `yaml:"canned"`
	// Overrides change the preset's (or the full policy's) settings.
	Overrides `yaml:",inline"`
}

// PolicyName is the policy's name in summaries.
func (p Policy) PolicyName() string {
	if p.Name != "" {
		return p.Name
	}
	return p.Preset
}

// Duration is a time.Duration written as Go writes it: 15s, 1m30s, 250ms.
// A bare 0 is zero; any other bare number is an error (a unit is needed).
type Duration time.Duration

// D is the duration as a time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }

// String formats like time.Duration.
func (d Duration) String() string { return time.Duration(d).String() }

// UnmarshalYAML implements yaml.NodeUnmarshaler.
func (d *Duration) UnmarshalYAML(n ast.Node) error {
	s, ok := n.(ast.ScalarNode)
	if !ok {
		return nodeErrorf(n, "%swant a duration such as 15s, got a %s", keyPrefix(n), nodeKind(n))
	}
	raw := fmt.Sprint(s.GetValue())
	if _, isNum := n.(*ast.IntegerNode); isNum && raw == "0" {
		*d = 0
		return nil
	}
	v, err := time.ParseDuration(raw)
	if err != nil {
		return nodeErrorf(n, "%sbad duration %q: want a number with a unit, such as 15s, 1m30s or 250ms", keyPrefix(n), raw)
	}
	*d = Duration(v)
	return nil
}

// Int is a whole number. A number with a fraction (2.5) or text is an
// error at its line and column, never truncated.
type Int int64

// IntOf returns n as an *Int, for setting an optional field.
func IntOf[T ~int | ~int64](n T) *Int {
	v := Int(n)
	return &v
}

// UnmarshalYAML implements yaml.NodeUnmarshaler.
func (n *Int) UnmarshalYAML(node ast.Node) error {
	in, ok := node.(*ast.IntegerNode)
	if !ok {
		return nodeErrorf(node, "%swant a whole number, got %s", keyPrefix(node), describe(node))
	}
	switch v := in.Value.(type) {
	case int64:
		*n = Int(v)
	case uint64:
		if v > math.MaxInt64 {
			return nodeErrorf(node, "%s%d is too large", keyPrefix(node), v)
		}
		*n = Int(v)
	default:
		return nodeErrorf(node, "%swant a whole number, got %s", keyPrefix(node), describe(node))
	}
	return nil
}

// Params are a fault's parameters, each value kept as written (503, 20s,
// true) for the fault catalogue's own parser.
type Params map[string]string

// UnmarshalYAML implements yaml.NodeUnmarshaler: a map of scalars.
func (p *Params) UnmarshalYAML(n ast.Node) error {
	if _, null := n.(*ast.NullNode); null {
		*p = nil
		return nil
	}
	mn, ok := n.(ast.MapNode)
	if !ok {
		return nodeErrorf(n, "params must be a map of key: value, got a %s", nodeKind(n))
	}
	out := Params{}
	it := mn.MapRange()
	for it.Next() {
		key := fmt.Sprint(it.Key().GetToken().Value)
		v, ok := it.Value().(ast.ScalarNode)
		if !ok {
			return nodeErrorf(it.Value(), "params.%s must be a single value, got a %s", key, nodeKind(it.Value()))
		}
		if _, dup := out[key]; dup {
			return nodeErrorf(it.Key(), "params.%s is given twice", key)
		}
		out[key] = fmt.Sprint(v.GetValue())
	}
	*p = out
	return nil
}

// describe says what a node holds, for messages: a scalar's text, or its kind.
func describe(n ast.Node) string {
	if _, ok := n.(ast.ScalarNode); ok {
		if _, null := n.(*ast.NullNode); !null {
			return fmt.Sprintf("%q", n.GetToken().Value)
		}
	}
	return "a " + nodeKind(n)
}

// keyPrefix is "key: " for a node that is a map value, or "".
func keyPrefix(n ast.Node) string {
	if k := keyOf(n.GetToken()); k != "" {
		return k + ": "
	}
	return ""
}

func nodeKind(n ast.Node) string {
	switch n.(type) {
	case ast.MapNode:
		return "map"
	case ast.ArrayNode:
		return "list"
	case *ast.NullNode:
		return "null"
	}
	return strings.ToLower(strings.TrimSuffix(n.Type().String(), "Type"))
}

// MaxFileBytes is the largest drill file Load reads: a drill file is a few
// KiB of hand-written YAML.
const MaxFileBytes = 1 << 20

// fileKind is how input names a drill file and bounds it.
var fileKind = input.Kind{Name: "a drill file", Want: "a drill file is a YAML file (drill init writes one)", MaxBytes: MaxFileBytes}

// Load reads and checks the drill file at path. Only a regular file of at
// most MaxFileBytes is read (input.ReadFile): a device, a directory or a
// named pipe is an error naming the file, never a hang or an empty drill.
func Load(path string) (*File, error) {
	data, err := input.ReadFile(path, fileKind)
	if err != nil {
		return nil, fmt.Errorf("reading the drill file: %w", err)
	}
	return Parse(path, data)
}

// Parse reads a drill file's YAML strictly and checks it (Check). name is
// used in messages. Every error it returns is an *Error or a list of
// them (errors.Join), each naming the line and column.
func Parse(name string, data []byte) (*File, error) {
	if err := checkDepth(name, data); err != nil {
		return nil, err
	}
	src, err := parser.ParseBytes(data, 0)
	if err != nil {
		return nil, yamlError(name, err)
	}
	f := &File{Path: name, src: src}
	if len(src.Docs) > 1 {
		return nil, &Error{File: name, Line: src.Docs[1].GetToken().Position.Line, Column: 1,
			Msg: "a drill file holds one YAML document; found a second one"}
	}
	if len(src.Docs) == 1 && src.Docs[0].Body != nil {
		// Every unknown key, at any depth, with the decoder's own first
		// error: the strict decoder alone stops at the first problem.
		errs := unknownKeys(name, src.Docs[0].Body, reflect.TypeFor[File]())
		if err := yaml.NodeToValue(src.Docs[0].Body, f, yaml.Strict()); err != nil {
			var e *Error
			if errors.As(yamlError(name, err), &e) {
				errs = append(errs, e)
			}
		}
		if len(errs) > 0 {
			// Every problem at once: the values that do not decode, then
			// what Check finds in the rest.
			return nil, joinErrors(name, append(errs, f.leniently(name, data)...))
		}
	}
	if f.Workload.Kind == event.WorkloadChat && f.Chat == nil {
		f.Chat = &ChatFile{} // `workload: chat` alone: a chat drill with its defaults
	}
	if err := f.Check(); err != nil {
		return nil, err
	}
	return f, nil
}

// maxDecodeRetries bounds the decodes leniently makes, one per value that
// does not decode.
const maxDecodeRetries = MaxErrors

// leniently finds the problems a strict decode hid behind its first one:
// it decodes data again without the strict check (unknown keys are
// reported apart), each value that does not decode replaced by null and
// reported, then checks what decoded (Check). A problem Check finds on a
// line whose value did not decode is left out: it is that value's
// absence, not a problem of its own.
func (f *File) leniently(name string, data []byte) []*Error {
	src, err := parser.ParseBytes(data, 0)
	if err != nil || len(src.Docs) != 1 || src.Docs[0].Body == nil {
		return nil
	}
	var errs []*Error
	bad := map[int]bool{} // lines of values that did not decode
	g := &File{Path: name, src: f.src}
	for range maxDecodeRetries {
		g = &File{Path: name, src: f.src}
		err := yaml.NodeToValue(src.Docs[0].Body, g)
		if err == nil {
			break
		}
		var e *Error
		if errors.As(yamlError(name, err), &e) && !bad[e.Line] {
			errs = append(errs, e)
			bad[e.Line] = true
		}
		if !nullValue(src.Docs[0].Body, errToken(err)) {
			return errs // nothing to check: the rest did not decode
		}
	}
	if g.Workload.Kind == event.WorkloadChat && g.Chat == nil {
		g.Chat = &ChatFile{}
	}
	var checked []error
	if err := g.Check(); err != nil {
		checked = unjoin(err)
	}
	for _, c := range checked {
		var e *Error
		if errors.As(c, &e) && !bad[e.Line] {
			errs = append(errs, e)
		}
	}
	return errs
}

// errToken is the token a decoding error is at, or nil.
func errToken(err error) *token.Token {
	var te *yaml.TypeError
	if errors.As(err, &te) {
		return te.Token
	}
	var ne *nodeError
	if errors.As(err, &ne) {
		return ne.tk
	}
	var ye yaml.Error
	if errors.As(err, &ye) {
		return ye.GetToken()
	}
	return nil
}

// nullValue takes the mapping value at tk out of the document (its key
// and value; replaced by null where it is a map's only key), reporting
// whether it found one.
func nullValue(body ast.Node, tk *token.Token) bool {
	if tk == nil {
		return false
	}
	at := func(n ast.Node) bool {
		vt := n.GetToken()
		return vt != nil && vt.Position.Line == tk.Position.Line && vt.Position.Column == tk.Position.Column
	}
	for _, n := range ast.Filter(ast.MappingType, body) {
		m, ok := n.(*ast.MappingNode)
		if !ok {
			continue
		}
		for i, mv := range m.Values {
			if mv.Value != nil && at(mv.Value) {
				m.Values = slices.Delete(m.Values, i, i+1)
				return true
			}
		}
	}
	for _, n := range ast.Filter(ast.MappingValueType, body) {
		mv, ok := n.(*ast.MappingValueNode)
		if !ok || mv.Value == nil || !at(mv.Value) {
			continue
		}
		if _, null := mv.Value.(*ast.NullNode); null {
			return false
		}
		mv.Value = ast.Null(token.New("null", "null", mv.Value.GetToken().Position))
		return true
	}
	return false
}
