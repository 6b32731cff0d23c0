package scoring

import "time"

// WaitAt is how long the email has waited at the run's clock now: the
// wait its email_done event recorded once it is done, else the time since
// it was sent (never negative).
func (r *EmailRecord) WaitAt(now time.Duration) time.Duration {
	if r.Done {
		return r.Result.Wait
	}
	return max(now-r.Sent, 0)
}

// TookAt is how long the attempt took, or, while it runs, how long it has
// been running at the run's clock now (never negative).
func (a Attempt) TookAt(now time.Duration) time.Duration {
	if a.Ended {
		return max(a.End-a.Start, 0)
	}
	return max(now-a.Start, 0)
}

// TimeAt is the conversation's time: its whole time once it ended, or,
// while it runs, how long it has been running at the run's clock now.
func (r ConversationRow) TimeAt(now time.Duration) time.Duration {
	if r.Running && now > r.Start {
		return now - r.Start
	}
	return r.Time
}
