package triage_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/triage"
	"github.com/drill-dev/drill/scoring"
)

// TestEvaluateBands is the issues' acceptance check on quality, run
// in-process with no latency: mini at least 0.90 all-4-right, nano
// 0.60–0.80 with at least 60 % of its misses on urgency, and Marcus right
// with mini and high with nano.
func TestEvaluateBands(t *testing.T) {
	srv := fakemodel.New(fakemodel.Options{NoLatency: true})
	c := openai.NewClient(option.WithBaseURL("http://fake/v1/"), option.WithAPIKey("k"),
		option.WithHTTPClient(&http.Client{Transport: srv.Transport()}))
	for _, b := range []struct {
		model  string
		lo, hi float64
	}{
		{fakemodel.ModelMini, 0.90, 1},
		{fakemodel.ModelNano, 0.60, 0.80},
	} {
		results, err := triage.Evaluate(context.Background(), c, b.model, emails.All(), 16)
		if err != nil {
			t.Fatal(err)
		}
		q := scoring.Quality{Model: b.model}
		for i, r := range results {
			if r.Email.ID != i+1 {
				t.Fatalf("result %d is email %d: not in email order", i, r.Email.ID)
			}
			if r.Err != nil {
				t.Errorf("%s email %d: %v", b.model, r.Email.ID, r.Err)
			}
			q.Add(r.Email.ID, r.Answer, r.Email.Truth, r.Err != nil)
		}
		res := q.Result()
		t.Logf("%+v", res)
		if res.All4Right < b.lo || res.All4Right > b.hi {
			t.Errorf("%s all-4-right %.3f outside %.2f..%.2f", b.model, res.All4Right, b.lo, b.hi)
		}
		m := results[34]
		switch b.model {
		case fakemodel.ModelMini:
			if m.Answer != m.Email.Truth {
				t.Errorf("mini on Marcus: %+v", m.Answer)
			}
		case fakemodel.ModelNano:
			if m.Answer.Urgency != "high" {
				t.Errorf("nano on Marcus: %+v", m.Answer)
			}
			urgent, total := 0, 0
			for _, miss := range q.Misses() {
				total++
				for _, f := range miss.Wrong {
					if f == "urgency" {
						urgent++
					}
				}
			}
			if float64(urgent) < 0.6*float64(total) {
				t.Errorf("nano: %d of %d misses on urgency", urgent, total)
			}
			fieldMisses := 0
			for _, n := range res.MissesByField {
				fieldMisses += n
			}
			if float64(res.MissesByField["urgency"]) < 0.6*float64(fieldMisses) {
				t.Errorf("nano: %d of %d field misses on urgency", res.MissesByField["urgency"], fieldMisses)
			}
		}
	}
}

func TestEvaluateCancelled(t *testing.T) {
	srv := fakemodel.New(fakemodel.Options{NoLatency: true})
	c := openai.NewClient(option.WithBaseURL("http://fake/v1/"), option.WithAPIKey("k"),
		option.WithHTTPClient(&http.Client{Transport: srv.Transport()}))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := triage.Evaluate(ctx, c, fakemodel.ModelMini, emails.All(), 4); err == nil {
		t.Error("Evaluate with a cancelled context returned no error")
	}
}

func TestEvaluateUnknownModel(t *testing.T) {
	srv := fakemodel.New(fakemodel.Options{NoLatency: true})
	c := openai.NewClient(option.WithBaseURL("http://fake/v1/"), option.WithAPIKey("k"),
		option.WithHTTPClient(&http.Client{Transport: srv.Transport()}))
	results, err := triage.Evaluate(context.Background(), c, "nope", emails.All()[:3], 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range results {
		if r.Err == nil || triage.IsInvalid(r.Err) {
			t.Errorf("email %d: err %v, want a call error", r.Email.ID, r.Err)
		}
	}
}
