package format

import (
	"testing"

	"github.com/drill-dev/drill/scoring"
)

func ptr(x float64) *float64 { return &x }

func TestFigures(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{Seconds(nil), "—"},
		{Seconds(ptr(1.24)), "1.2 s"},
		{Seconds(ptr(-0.01)), "0.0 s"},
		{Secs(16.31), "16.3 s"},
		{Percent(0.8512), "85%"},
		{PercentCI(0.85, [2]float64{0.7766, 0.9031}), "85% (78–90%)"},
		{Share(0, 0), "—"},
		{Share(102, 120), "85% (78–90%)"},
		{PValue(0.0004), "< 0.001"},
		{PValue(0.0042), "0.004"},
		{PValue(0.5), "0.50"},
		{SignedSecs(-0.04), "+0.0 s"},
		{SignedPoints(0.033), "+3.3 pp"},
		{Span(5.26, 10.3), "5.3–10.3 s"},
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
