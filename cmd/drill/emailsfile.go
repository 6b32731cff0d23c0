package main

import (
	"fmt"
	"slices"

	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/workload"
)

// loadEmailSet reads a team's emails (--emails-file, or a drill file's
// workload.emails_file): a bad file is bad input, naming its file, line and
// field.
func loadEmailSet(path string) ([]emails.Email, error) {
	set, err := emails.Load(path)
	if err != nil {
		return nil, exit.UsageError(err) // a missing, unreadable or bad file: exit 2
	}
	return set, nil
}

// useEmailSet makes cfg send set: every email of it unless --emails says
// how many, and no email followed by default when the set lacks the one
// followed by default (note says so).
func useEmailSet(cfg *workload.Config, set []emails.Email, fs *pflag.FlagSet, note func(string)) {
	cfg.EmailSet = set
	if fs == nil || !fs.Changed("emails") {
		cfg.Emails = len(set)
	}
	if fs != nil && fs.Changed("follow") {
		return
	}
	if cfg.Follow != 0 && !slices.ContainsFunc(set[:min(cfg.Emails, len(set))], func(e emails.Email) bool { return e.ID == cfg.Follow }) {
		note(fmt.Sprintf("the emails sent have no email %d, the one followed by default: no email is followed (set --follow to an id in the file)", cfg.Follow))
		cfg.Follow = 0
	}
}
