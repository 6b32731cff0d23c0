// Package cli holds what drill's commands share on the command line: the
// flag values (--clock, --format, shares), the flag groups several commands
// register (--metrics-listen and --alert-listen, --control-listen, --shard
// and -o), argument and flag errors turned into usage errors (exit 2), the
// inputs no output may overwrite, warnings on stderr, and waiting on work
// that Ctrl-C may cut short. It turns flags into values and runs no drill:
// cmd/drill wires its commands from these pieces.
package cli
