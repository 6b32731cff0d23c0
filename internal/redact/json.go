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

// JSON redacts every string of a JSON document: whole values (and keys)
// that look like credentials (see Value) and, with Text, the URLs and `sk-`
// keys inside them. Other field names and numbers are kept; a document with nothing to
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
	return String(s)
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
			nv, c := value(val, dropFields, str)
			if nk := str(k); nk != k { // a key can be a secret too: a model map's FROM
				delete(x, k)
				k, c = nk, true
			}
			if c {
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

// JSONText redacts every string of a JSON text, keys included, as JSON
// does, in place: the text keeps its order and layout, so a document
// printed twice (live, then from its journal) stays byte for byte the same.
// A text with nothing to redact is returned as given.
func JSONText(text []byte) []byte {
	var out []byte // nil until something is redacted
	last := 0
	for i := 0; i < len(text); i++ {
		if text[i] != '"' {
			continue
		}
		j, escaped := i+1, false
		for j < len(text) && text[j] != '"' {
			if text[j] == '\\' {
				escaped = true
				j++
			}
			j++
		}
		if j >= len(text) {
			break // not JSON past here: left as it is
		}
		s := string(text[i+1 : j])
		if escaped && json.Unmarshal(text[i:j+1], &s) != nil {
			i = j
			continue
		}
		if r := jsonString(s); r != s {
			out = append(out, text[last:i]...)
			out = appendJSONString(out, r)
			last = j + 1
		}
		i = j
	}
	if out == nil {
		return text
	}
	return append(out, text[last:]...)
}

// appendJSONString appends s as a JSON string, without HTML escaping.
func appendJSONString(dst []byte, s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return append(dst, bytes.TrimSuffix(b.Bytes(), []byte("\n"))...)
}
