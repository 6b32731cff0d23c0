package drillfile

import (
	"cmp"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
)

// MaxKeys is the most mapping keys a drill file may hold. A hand-written
// drill file has a few hundred at most; the YAML parser's cost grows with
// the square of a mapping's keys (100,000 took 43 s), so a file with more
// is refused before it is parsed.
const MaxKeys = 5000

// MaxErrors is the most problems one decode reports; past it the message
// says how many more there were.
const MaxErrors = 20

// unknownKeys walks the document against the type it decodes into and
// returns an *Error for every key no field takes and every value of the
// wrong type, at any depth: the strict decoder stops at the first. Types
// that decode themselves (yaml.NodeUnmarshaler) check their own keys: each
// is decoded on its own, not entered.
func unknownKeys(name string, n ast.Node, t reflect.Type) []*Error {
	var out []*Error
	walkKeys(name, n, t, &out)
	return out
}

var nodeUnmarshaler = reflect.TypeFor[yaml.NodeUnmarshaler]()

// mappingDecoder is a yaml.NodeUnmarshaler that reads a word itself but a
// mapping as the plain struct mappingType returns (workload: chat, or the
// workload's settings): the walk enters that struct, so that every problem
// in the mapping is reported.
type mappingDecoder interface{ mappingType() reflect.Type }

func walkKeys(name string, n ast.Node, t reflect.Type, out *[]*Error) {
	if n == nil {
		return
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if a, ok := n.(*ast.AnchorNode); ok {
		walkKeys(name, a.Value, t, out)
		return
	}
	if _, ok := n.(*ast.AliasNode); ok {
		return // checked where its anchor is defined
	}
	if md, ok := reflect.New(t).Interface().(mappingDecoder); ok && mappingValues(n) != nil {
		walkKeys(name, n, md.mappingType(), out)
		return
	}
	if reflect.PointerTo(t).Implements(nodeUnmarshaler) {
		decodeLeaf(name, n, t, out)
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		fields := yamlFields(t)
		for _, kv := range mappingValues(n) {
			key := kv.Key.GetToken().Value
			if key == "<<" {
				continue // a merge key: its values are checked where they are defined
			}
			ft, ok := fields[key]
			if !ok {
				tk := kv.Key.GetToken()
				*out = append(*out, &Error{File: name, Line: tk.Position.Line, Column: tk.Position.Column,
					Msg: fmt.Sprintf("unknown field %q", key)})
				continue
			}
			walkKeys(name, kv.Value, ft, out)
		}
	case reflect.Slice, reflect.Array:
		if s, ok := n.(*ast.SequenceNode); ok {
			for _, v := range s.Values {
				walkKeys(name, v, t.Elem(), out)
			}
		}
	case reflect.Map:
		for _, kv := range mappingValues(n) {
			walkKeys(name, kv.Value, t.Elem(), out)
		}
	default:
		decodeLeaf(name, n, t, out)
	}
}

// decodeLeaf decodes one value on its own, so that every value of the
// wrong type is reported, not only the first the whole decode meets.
func decodeLeaf(name string, n ast.Node, t reflect.Type, out *[]*Error) {
	if err := yaml.NodeToValue(n, reflect.New(t).Interface(), yaml.Strict()); err != nil {
		var e *Error
		if errors.As(yamlError(name, err), &e) {
			*out = append(*out, e)
		}
	}
}

// mappingValues are the key-value pairs of a mapping node (none for any
// other node).
func mappingValues(n ast.Node) []*ast.MappingValueNode {
	switch m := n.(type) {
	case *ast.MappingNode:
		return m.Values
	case *ast.MappingValueNode:
		return []*ast.MappingValueNode{m}
	}
	return nil
}

// yamlFields maps the YAML keys of a struct type, inline fields' included,
// to their types.
func yamlFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("yaml")
		key, opts, _ := strings.Cut(tag, ",")
		if key == "-" {
			continue
		}
		if strings.Contains(opts, "inline") {
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			for k, v := range yamlFields(ft) {
				out[k] = v
			}
			continue
		}
		if key == "" {
			key = strings.ToLower(f.Name)
		}
		out[key] = f.Type
	}
	return out
}

// joinErrors sorts problems by place and joins them (at most MaxErrors,
// then a count of the rest); nil for none.
func joinErrors(name string, errs []*Error) error {
	if len(errs) == 0 {
		return nil
	}
	slices.SortStableFunc(errs, func(a, b *Error) int { return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column)) })
	errs = slices.CompactFunc(errs, func(a, b *Error) bool { return *a == *b })
	var out []error
	for i, e := range errs {
		if i == MaxErrors {
			out = append(out, &Error{File: name, Msg: fmt.Sprintf("and %d more problems", len(errs)-MaxErrors)})
			break
		}
		out = append(out, e)
	}
	if len(out) == 1 {
		return out[0]
	}
	return errors.Join(out...)
}
