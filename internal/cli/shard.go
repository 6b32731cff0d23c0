package cli

import (
	"bytes"
	"io"

	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/outfile"
	"github.com/drill-dev/drill/internal/sweep"
)

// ShardFlags are --shard and -o of drill sweep and drill recommend.
type ShardFlags struct {
	// Shard is --shard as given (I/N), "" for the whole sweep.
	Shard string
	// Output is -o: where the result, or the shard file, goes ("" for stdout).
	Output string
	// Parsed is Shard read by Check.
	Parsed sweep.Shard
}

// Register adds --shard and -o to fs, output being -o's help.
func (s *ShardFlags) Register(fs *pflag.FlagSet, output string) {
	fs.StringVar(&s.Shard, "shard", "", "run only shard I of N of the drills, I/N (e.g. 2/4; run k goes to shard k mod N + 1), and write them to -o for drill sweep merge")
	fs.StringVarP(&s.Output, "output", "o", "", output)
}

// Check parses --shard, requires -o with it and refuses an -o file
// outfile.Check refuses (inputs being the command's inputs).
func (s *ShardFlags) Check(inputs []string, force bool) error {
	if s.Shard != "" {
		var err error
		if s.Parsed, err = sweep.ParseShard(s.Shard); err != nil {
			return err
		}
		if s.Output == "" {
			return exit.Usagef("--shard %s needs -o FILE: the shard file drill sweep merge reads", s.Shard)
		}
	}
	return outfile.Check("-o", s.Output, force, inputs)
}

// Write writes what fn writes to -o (whole or not at all), or to stdout
// without -o.
func (s *ShardFlags) Write(stdout io.Writer, fn func(io.Writer) error) error {
	if s.Output == "" {
		return fn(stdout)
	}
	var b bytes.Buffer
	if err := fn(&b); err != nil {
		return err
	}
	return outfile.WriteWhole(s.Output, b.Bytes())
}
