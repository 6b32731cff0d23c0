package eval

import (
	"errors"
	"testing"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/internal/answer"
	"github.com/drill-dev/drill/internal/triage"
)

func TestScore(t *testing.T) {
	truth := answer.Answer{Intent: "return", OrderNumber: "DR-123456", Product: "Ember 5 Sleeping Bag", Urgency: "normal"}
	wrong := truth
	wrong.Urgency = "high"
	results := []triage.Result{
		{Email: emails.Email{ID: 1, Truth: truth}, Answer: truth},
		{Email: emails.Email{ID: 2, Truth: truth}, Answer: wrong},
		{Email: emails.Email{ID: 3, Truth: truth}, Err: triage.ErrInvalid},
		{Email: emails.Email{ID: 4, Unscored: true}, Answer: wrong},
	}
	o, err := Score("m", results, nil)
	if err != nil {
		t.Fatal(err)
	}
	if o.Result.Emails != 3 || o.Unscored != 1 || o.Result.Invalid != 1 || len(o.Misses) != 2 || len(o.Failed) != 1 {
		t.Errorf("outcome %+v", o)
	}
	if r := o.Report(false); r.Misses != nil || r.Unscored != 1 {
		t.Errorf("report without misses %+v", r)
	}
	if r := o.Report(true); len(r.Misses) != 2 || r.Misses[0].Email != 2 {
		t.Errorf("report with misses %+v", r)
	}
}

func TestScoreAllFailed(t *testing.T) {
	down := errors.New("connection refused")
	_, err := Score("m", []triage.Result{{Email: emails.Email{ID: 1}, Err: down}, {Email: emails.Email{ID: 2}, Err: down}}, nil)
	var af *AllFailedError
	if !errors.As(err, &af) || af.Model != "m" || !errors.Is(err, down) {
		t.Errorf("err %v, want an AllFailedError wrapping the first", err)
	}
}
