package chatrun

import (
	"context"
	"errors"
	"fmt"

	"github.com/drill-dev/drill/internal/cli"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/internal/report"
	"github.com/drill-dev/drill/internal/session"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/tui"
)

// IsJournal reports whether the journal at path is a chat run's, with
// drill's exit code for a journal it cannot read.
func IsJournal(ctx context.Context, path string) (bool, error) {
	isChat, err := journal.IsChat(ctx, path)
	if err != nil {
		return false, journal.ReadError(ctx, err)
	}
	return isChat, nil
}

// ReplayOptions are drill replay's settings for a chat journal.
type ReplayOptions struct {
	// Path is the journal.
	Path string
	// Conversation, if not 0, prints that conversation's trace instead of
	// the summary.
	Conversation int
	// Expect are the hypotheses to judge on the recomputed summary.
	Expect []string
	// JSON prints JSON; Show first shows the Conversations view (a
	// terminal, no --no-tui).
	JSON, Show bool
}

// Replay prints a chat journal's figures, recomputed by the fold the live
// run used (as JSON with JSON), or one conversation's trace; with Show it
// first shows the Conversations view.
func Replay(env cli.Env, o ReplayOptions) error {
	if _, err := scoring.ParseChatExprs(o.Expect); err != nil {
		return exit.Usagef("--expect: %w", err)
	}
	j, err := journal.ReadFileContext(env.Ctx, o.Path)
	if err != nil {
		return journal.ReadError(env.Ctx, err)
	}
	if o.Show && o.Conversation == 0 {
		if err := tui.ReplayChat(env.Ctx, j.Events, tui.Options{}); err != nil {
			if env.Ctx.Err() != nil {
				return exit.ErrInterrupted
			}
			return err
		}
	}
	fold := scoring.NewChatFold(o.Conversation)
	for _, e := range j.Events {
		fold.Add(e)
	}
	if o.Conversation > 0 {
		return writeTrace(env, fold, o)
	}
	sum, differs, err := session.RejudgeChat(j, fold.Summary(), o.Path, o.Expect)
	if differs {
		fmt.Fprintln(env.Err, "drill: the figures recomputed from the events differ from the journal's summary line; showing the recomputed ones")
	}
	if err != nil {
		return err
	}
	sums := []scoring.ChatSummary{sum}
	if o.JSON {
		return errors.Join(plain.JSON(env.Out, sum), session.ChatFailed(sums))
	}
	return errors.Join(writeTables(env.Out, plain.FormatAuto, sums), plain.ChatVerdicts(env.Out, sums), session.ChatFailed(sums))
}

// writeTrace prints the trace of the conversation the fold followed.
func writeTrace(env cli.Env, fold *scoring.ChatFold, o ReplayOptions) error {
	t, ok := fold.TraceOf()
	if !ok {
		return exit.Usagef("--conversation %d: the journal has no such conversation (1..%d)", o.Conversation, len(fold.Rows()))
	}
	if o.JSON {
		return plain.JSON(env.Out, t)
	}
	return report.ChatTrace(env.Out, t)
}

// Report is `drill report` of chat journals: the comparison table and each
// run's chart of its slowest conversations and silent endings, written to
// out at dpi.
func Report(env cli.Env, paths []string, out string, dpi int) error {
	runs := make([]report.ChatRun, len(paths))
	for i, p := range paths {
		r, err := report.ReadChatRun(p)
		if err != nil {
			return exit.UsageError(err)
		}
		runs[i] = r
	}
	if err := report.WriteChatReport(out, runs, dpi); err != nil {
		if errors.Is(err, report.ErrFormat) {
			return exit.UsageError(err)
		}
		return err
	}
	fmt.Fprintf(env.Err, "drill: wrote %s (%s)\n", out, format.Plural(len(runs), "chat run"))
	return nil
}
