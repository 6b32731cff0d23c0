package redact

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Config removes secret-named fields (see Field) from a JSON document at
// any depth and redacts its string values as JSON does. A document with
// nothing to remove is returned unchanged, keeping its field order;
// otherwise it is re-encoded with sorted keys.
func Config(raw json.RawMessage) (json.RawMessage, error) {
	return walkJSON(raw, true, jsonString)
}

// JSON redacts every string value of a JSON document: whole values that
// look like credentials (see Value) and, with Text, the URLs and `sk-` keys
// inside them. Field names and numbers are kept; a document with nothing to
// redact is returned unchanged, keeping its field order; otherwise it is
// re-encoded with sorted keys.
func JSON(raw json.RawMessage) (json.RawMessage, error) {
	return walkJSON(raw, false, jsonString)
}

// JSONWith is JSON with then applied to every string value after its
// redaction (a journal bounds each value's length with it).
func JSONWith(raw json.RawMessage, then func(string) string) (json.RawMessage, error) {
	return walkJSON(raw, false, func(s string) string { return then(jsonString(s)) })
}

// jsonString redacts one string value of a document.
func jsonString(s string) string {
	if Value(s) {
		return Redacted
	}
	return Text(s)
}

func walkJSON(raw json.RawMessage, dropFields bool, str func(string) string) (json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("redact: reading the document: %w", err)
	}
	v, changed := value(v, dropFields, str)
	if !changed {
		return raw, nil
	}
	out, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("redact: encoding the redacted document: %w", err)
	}
	return out, nil
}

func value(v any, dropFields bool, str func(string) string) (any, bool) {
	switch x := v.(type) {
	case map[string]any:
		changed := false
		for k, val := range x {
			if dropFields && Field(k) {
				delete(x, k)
				changed = true
				continue
			}
			if nv, c := value(val, dropFields, str); c {
				x[k] = nv
				changed = true
			}
		}
		return x, changed
	case []any:
		changed := false
		for i, val := range x {
			if nv, c := value(val, dropFields, str); c {
				x[i] = nv
				changed = true
			}
		}
		return x, changed
	case string:
		if r := str(x); r != x {
			return r, true
		}
	}
	return v, false
}
