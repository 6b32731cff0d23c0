package sweeprun

import (
	"context"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/cli"
)

// Env is what a run takes of its command: the context, the flags parsed,
// the output streams and, on a terminal, the sweep dashboards.
type Env struct {
	// Env's flags tell what was given, the inputs no output may
	// overwrite and the command line a shard records.
	cli.Env
	// Terminal says stdout is a terminal: the dashboards show there
	// unless --no-tui or --json.
	Terminal bool
	// ShowRecorded plays recorded runs in the sweep dashboard (tui.SweepRecorded).
	ShowRecorded func(ctx context.Context, labels []string, runs [][]int, journals []string) error
	// ShowLive shows running drills in the sweep dashboard (tui.Sweep).
	ShowLive func(ctx context.Context, labels []string, logs func(int) []*event.Log) error
}
