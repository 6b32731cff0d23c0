package exit

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// pflagInvalid matches pflag's message for a value that does not parse.
var pflagInvalid = regexp.MustCompile(`^invalid argument "(.*)" for "(?:-\w, )?--([\w.-]+)" flag: `)

// FlagError turns a flag parser's error into drill's own words
// ("--outage-from: 10 is not a duration; write 10s") and makes every flag
// error a usage error (exit 2). flagType gives a flag's value type
// ("duration", "int", ...) by name, "" for no such flag.
func FlagError(err error, flagType func(name string) string) error {
	m := pflagInvalid.FindStringSubmatch(err.Error())
	if m == nil {
		return UsageError(err)
	}
	val, name := m[1], m[2]
	typ := flagType(name)
	if typ == "" {
		return UsageError(err)
	}
	hint := valueHint(typ, val)
	if hint == "" {
		// A flag type of drill's own: its message already says what to write.
		hint = strings.TrimPrefix(err.Error(), m[0])
	}
	return UsageError(fmt.Errorf("--%s: %s", name, hint))
}

// valueHint says why val is not a value of the flag type typ, and how to
// write one; "" for a type it does not know.
func valueHint(typ, val string) string {
	q := strconv.Quote(val)
	if !strings.ContainsAny(val, " \t\"") && val != "" {
		q = val
	}
	switch typ {
	case "duration":
		if _, err := strconv.ParseFloat(val, 64); err == nil {
			return fmt.Sprintf("%s is not a duration; write %ss", q, val)
		}
		return fmt.Sprintf("%s is not a duration; write it with a unit, e.g. 10s, 1.5s, 2m or 500ms", q)
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "count":
		if f, err := strconv.ParseFloat(val, 64); err == nil {
			return fmt.Sprintf("%s is not a whole number; write e.g. %d", q, int(f))
		}
		return fmt.Sprintf("%s is not a whole number; write e.g. 42", q)
	case "float32", "float64":
		return fmt.Sprintf("%s is not a number; write e.g. 2 or 0.5", q)
	case "bool":
		return fmt.Sprintf("%s is not true or false", q)
	}
	return ""
}
