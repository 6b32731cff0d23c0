package inject

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"
)

// Param describes one fault parameter, from its struct field: the key is
// the field's json tag, the help its help tag.
type Param struct {
	Key     string // as written on the command line and in files
	Type    string // duration, integer, number, boolean or text
	Default string // the value a fresh instance has
	Help    string // what it does and its valid values
}

// validator is implemented by faults whose parameters have limits beyond
// their type.
type validator interface{ validate() error }

var errUnknownKey = errors.New("unknown key")

// KindParams lists kind's parameters with their defaults.
func KindParams(kind string) ([]Param, error) {
	f, err := Lookup(kind)
	if err != nil {
		return nil, err
	}
	v := reflect.ValueOf(f).Elem()
	var ps []Param
	for i := range v.NumField() {
		sf := v.Type().Field(i)
		key := tagKey(sf)
		if key == "" {
			continue
		}
		ps = append(ps, Param{Key: key, Type: typeName(sf.Type), Default: format(v.Field(i)), Help: sf.Tag.Get("help")})
	}
	return ps, nil
}

func tagKey(sf reflect.StructField) string {
	k, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
	if k == "-" || !sf.IsExported() {
		return ""
	}
	return k
}

var durationType = reflect.TypeFor[time.Duration]()

func typeName(t reflect.Type) string {
	switch {
	case t == durationType:
		return "duration"
	case t.Kind() == reflect.Int:
		return "integer"
	case t.Kind() == reflect.Float64:
		return "number"
	case t.Kind() == reflect.Bool:
		return "boolean"
	}
	return "text"
}

// setParam sets the field tagged key on the fault f (a pointer to a
// struct) from text and returns the value in canonical form.
func setParam(f Fault, key, text string) (string, error) {
	v := reflect.ValueOf(f).Elem()
	for i := range v.NumField() {
		sf := v.Type().Field(i)
		if tagKey(sf) != key {
			continue
		}
		fv := v.Field(i)
		switch {
		case sf.Type == durationType:
			d, err := time.ParseDuration(text)
			if err != nil || d < 0 {
				return "", fmt.Errorf("bad value %q for %s: want a duration, e.g. 20s", text, key)
			}
			fv.SetInt(int64(d))
		case sf.Type.Kind() == reflect.Int:
			n, err := strconv.Atoi(text)
			if err != nil {
				return "", fmt.Errorf("bad value %q for %s: want an integer", text, key)
			}
			fv.SetInt(int64(n))
		case sf.Type.Kind() == reflect.Float64:
			x, err := strconv.ParseFloat(text, 64)
			if err != nil {
				return "", fmt.Errorf("bad value %q for %s: want a number", text, key)
			}
			fv.SetFloat(x)
		case sf.Type.Kind() == reflect.Bool:
			b, err := strconv.ParseBool(text)
			if err != nil {
				return "", fmt.Errorf("bad value %q for %s: want true or false", text, key)
			}
			fv.SetBool(b)
		case sf.Type.Kind() == reflect.String:
			fv.SetString(text)
		default:
			return "", fmt.Errorf("parameter %s has an unsupported type %s", key, sf.Type)
		}
		return format(fv), nil
	}
	return "", errUnknownKey
}

// paramValues returns every parameter of f in canonical form.
func paramValues(f Fault) map[string]string {
	v := reflect.ValueOf(f).Elem()
	out := map[string]string{}
	for i := range v.NumField() {
		if key := tagKey(v.Type().Field(i)); key != "" {
			out[key] = format(v.Field(i))
		}
	}
	return out
}

func format(v reflect.Value) string {
	switch {
	case v.Type() == durationType:
		return time.Duration(v.Int()).String()
	case v.Kind() == reflect.Int:
		return strconv.FormatInt(v.Int(), 10)
	case v.Kind() == reflect.Float64:
		return strconv.FormatFloat(v.Float(), 'g', -1, 64)
	case v.Kind() == reflect.Bool:
		return strconv.FormatBool(v.Bool())
	}
	return v.String()
}
