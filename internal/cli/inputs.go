package cli

import (
	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/internal/outfile"
)

// inputFlags are the flags naming a file a command reads.
var inputFlags = []string{"file", "emails-file", "outage-from-journal"}

// InputsOf is every file a command reads that its flags fs name, and
// extra (the journals a command reads as arguments): no output may be one
// of them.
func InputsOf(fs *pflag.FlagSet, extra ...string) []string {
	var in []string
	for _, name := range inputFlags {
		if f := fs.Lookup(name); f != nil && f.Changed {
			in = append(in, f.Value.String())
		}
	}
	return append(in, extra...)
}

// NotInput refuses an output flag's path that names one of the command's
// inputs (outfile.NotInput), --force or not.
func NotInput(fs *pflag.FlagSet, flag, path string, extra ...string) error {
	return outfile.NotInput(flag, path, InputsOf(fs, extra...))
}
