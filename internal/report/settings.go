package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// SettingDiff is one setting whose value is not the same in every run.
type SettingDiff struct {
	Name   string   // dotted path into the configuration, e.g. policy.primary.retries
	Values []string // one per run, "—" where the run does not have it
}

// settings flattens a run's effective configuration (the journal header's
// config, or the run's RunInfo when the header has none) into dotted names
// and display values, plus the versions that recorded it.
func settings(r *Run) map[string]string {
	out := map[string]string{}
	raw := r.Meta.Header.Config
	if len(bytes.TrimSpace(raw)) == 0 || string(raw) == "null" {
		raw, _ = json.Marshal(r.Info)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err == nil {
		flatten("", v, out)
	}
	h := r.Meta.Header
	out["drill version"] = h.DrillVersion
	out["go version"] = h.GoVersion
	out["openai-go version"] = h.OpenAIGoVersion
	return out
}

func flatten(prefix string, v any, out map[string]string) {
	join := func(k string) string {
		if prefix == "" {
			return k
		}
		return prefix + "." + k
	}
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 && prefix != "" {
			out[prefix] = "{}"
		}
		for k, val := range x {
			flatten(join(k), val, out)
		}
	case []any:
		// Lists of plain values read best on one line; lists of objects are
		// flattened by index.
		plain := true
		for _, e := range x {
			switch e.(type) {
			case map[string]any, []any:
				plain = false
			}
		}
		if plain {
			parts := make([]string, len(x))
			for i, e := range x {
				parts[i] = scalar(e)
			}
			out[prefix] = "[" + strings.Join(parts, ", ") + "]"
			return
		}
		for i, e := range x {
			flatten(join(strconv.Itoa(i)), e, out)
		}
	default:
		// Durations are recorded in nanoseconds under a name ending in _ns;
		// show them as durations under the plain name.
		if n, ok := v.(json.Number); ok && strings.HasSuffix(prefix, "_ns") {
			if ns, err := n.Int64(); err == nil {
				out[strings.TrimSuffix(prefix, "_ns")] = time.Duration(ns).String()
				return
			}
		}
		out[prefix] = scalar(v)
	}
}

func scalar(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return x
	case json.Number:
		return x.String()
	case bool:
		return strconv.FormatBool(x)
	default:
		return fmt.Sprint(x)
	}
}

// Differences lists the settings whose values differ between runs, sorted by
// name, and how many settings all runs share.
func Differences(runs []*Run) (diffs []SettingDiff, same int) {
	all := make([]map[string]string, len(runs))
	names := map[string]bool{}
	for i, r := range runs {
		all[i] = settings(r)
		for k := range all[i] {
			names[k] = true
		}
	}
	sorted := make([]string, 0, len(names))
	for k := range names {
		sorted = append(sorted, k)
	}
	slices.Sort(sorted)
	for _, k := range sorted {
		vals := make([]string, len(runs))
		differ := false
		for i := range runs {
			v, ok := all[i][k]
			if !ok {
				v = "—"
			}
			vals[i] = v
			if v != vals[0] {
				differ = true
			}
		}
		if differ {
			diffs = append(diffs, SettingDiff{Name: k, Values: vals})
		} else {
			same++
		}
	}
	return diffs, same
}
