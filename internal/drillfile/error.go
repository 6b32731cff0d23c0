package drillfile

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
)

// Error is a problem in a drill file, at a line and column (from 1; 0 when
// the problem has no place in the file, such as a missing section).
type Error struct {
	File         string
	Line, Column int
	Msg          string
}

// Error formats as file:line:column: message.
func (e *Error) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg)
}

// nodeError is an error raised while decoding a node; Parse gives it the
// file name.
type nodeError struct {
	tk  *token.Token
	msg string
}

func (e *nodeError) Error() string { return e.msg }

func nodeErrorf(n ast.Node, format string, a ...any) error {
	return &nodeError{tk: n.GetToken(), msg: fmt.Sprintf(format, a...)}
}

// yamlError turns a YAML syntax or decoding error into an *Error.
func yamlError(name string, err error) error {
	var ne *nodeError
	if errors.As(err, &ne) {
		return &Error{File: name, Line: ne.tk.Position.Line, Column: ne.tk.Position.Column, Msg: ne.msg}
	}
	var te *yaml.TypeError
	if errors.As(err, &te) && te.Token != nil {
		msg := fmt.Sprintf("want %s, got %q", typeWord(te.DstType), te.Token.Value)
		if key := keyOf(te.Token); key != "" {
			msg = key + ": " + msg
		}
		return &Error{File: name, Line: te.Token.Position.Line, Column: te.Token.Position.Column, Msg: msg}
	}
	var ye yaml.Error
	if errors.As(err, &ye) && ye.GetToken() != nil {
		p := ye.GetToken().Position
		return &Error{File: name, Line: p.Line, Column: p.Column, Msg: ye.GetMessage()}
	}
	return &Error{File: name, Msg: err.Error()}
}

// at returns an *Error placed at the node the YAML path names ($.outages[0].kind),
// or at the nearest enclosing node found.
func (f *File) at(path string, format string, a ...any) *Error {
	e := &Error{File: f.Path, Msg: fmt.Sprintf(format, a...)}
	if f.src == nil {
		return e
	}
	for p := path; p != "" && p != "$"; p = parentPath(p) {
		yp, err := yaml.PathString(p)
		if err != nil {
			continue
		}
		n, err := yp.FilterFile(f.src)
		if err != nil || n == nil || n.GetToken() == nil {
			continue
		}
		e.Line, e.Column = n.GetToken().Position.Line, n.GetToken().Position.Column
		return e
	}
	return e
}

// parentPath drops a YAML path's last step: $.a.b[2] -> $.a.b -> $.a.
func parentPath(p string) string {
	for i := len(p) - 1; i > 0; i-- {
		if p[i] == '.' || p[i] == '[' {
			return p[:i]
		}
	}
	return ""
}

// typeWord says in words what a Go type wants from YAML.
func typeWord(t reflect.Type) string {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil {
		return "another value"
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Bool:
		return "true or false"
	case reflect.String:
		return "text"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Struct, reflect.Map:
		return "a map of key: value"
	}
	return t.String()
}

// keyOf is the map key a value token belongs to ("emails" for the value of
// `emails: lots`), or "".
func keyOf(tk *token.Token) string {
	p := tk.Prev
	if p == nil || p.Type != token.MappingValueType || p.Prev == nil {
		return ""
	}
	return p.Prev.Value
}
