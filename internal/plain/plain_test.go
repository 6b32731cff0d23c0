package plain

import (
	"testing"

	"github.com/drill-dev/drill/scoring"
)

func ptr(x float64) *float64 { return &x }

func TestFigures(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{Share(0, 0), "—"},
		{Share(102, 120), "85% (78–90%)"},
		{Served(scoring.Served{Primary: 72, Backup: 48, Cancelled: 3}), "72 / 48 / 0 / 0"},
		{Followed(scoring.Followed{}), "—"},
		{Followed(scoring.Followed{Email: 35}), "not sent"},
		{Followed(scoring.Followed{Email: 35, SentS: ptr(17)}), "not answered"},
		{Followed(scoring.Followed{Email: 35, SentS: ptr(17), WaitS: ptr(2.3), ServedBy: "backup"}), "2.3 s (backup)"},
		{Followed(scoring.Followed{Email: 35, SentS: ptr(17), WaitS: ptr(1.4), ServedBy: "error"}), "error, 1.4 s"},
		{Status(scoring.Summary{Status: "completed", Emails: 120, EmailsSent: 120, EmailsAnswered: 120}), "completed"},
		{Status(scoring.Summary{Status: "interrupted", Emails: 120, EmailsSent: 74, EmailsAnswered: 45, NotSent: 46,
			NotSentReason: "run stopped", NeverAnswered: 29}), "interrupted: 74 of 120 sent (46 not sent: run stopped), 45 answered"},
		{All4(scoring.Summary{}), "—"},
		{Basis(scoring.Summary{OutageBasis: "observed"}), " (observed)"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
