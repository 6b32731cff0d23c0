package exit

import (
	"errors"
	"testing"
)

// TestFlagError: a value pflag cannot parse is a usage error in drill's
// words; a message pflag did not write, or an unknown flag, stays as it
// is, a usage error all the same.
func TestFlagError(t *testing.T) {
	types := map[string]string{"outage-from": "duration", "emails": "int", "rate": "float64", "own": "outage"}
	flagType := func(name string) string { return types[name] }
	for _, tc := range []struct{ in, want string }{
		{`invalid argument "10" for "--outage-from" flag: time: missing unit in duration "10"`, "--outage-from: 10 is not a duration; write 10s"},
		{`invalid argument "soon" for "--outage-from" flag: time: invalid duration "soon"`, "--outage-from: soon is not a duration; write it with a unit, e.g. 10s, 1.5s, 2m or 500ms"},
		{`invalid argument "2.5" for "--emails" flag: strconv.ParseInt: parsing "2.5": invalid syntax`, "--emails: 2.5 is not a whole number; write e.g. 2"},
		{`invalid argument "fast" for "--rate" flag: strconv.ParseFloat: parsing "fast": invalid syntax`, "--rate: fast is not a number; write e.g. 2 or 0.5"},
		{`invalid argument "x" for "--own" flag: unknown outage "x"`, `--own: unknown outage "x"`},
		{`invalid argument "x" for "--gone" flag: bad`, `invalid argument "x" for "--gone" flag: bad`},
		{"unknown flag: --nope", "unknown flag: --nope"},
	} {
		err := FlagError(errors.New(tc.in), flagType)
		if err.Error() != tc.want || Code(err) != Usage {
			t.Errorf("%s:\n got %q (exit %d)\nwant %q (exit 2)", tc.in, err, Code(err), tc.want)
		}
	}
}
