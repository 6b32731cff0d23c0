package session_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/drill-dev/drill/internal/eval"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/session"
)

func TestEvalUnknownModel(t *testing.T) {
	var out, errw bytes.Buffer
	err := session.Eval(context.Background(), &out, &errw, eval.Config{Models: []string{"nope"}, Concurrency: 16})
	if !exit.IsUsage(err) || exit.Code(err) != 2 {
		t.Fatalf("err %v: want a usage error (exit 2)", err)
	}
	for _, m := range fakemodel.Models() {
		if !strings.Contains(err.Error(), m) {
			t.Errorf("message %q does not list %s", err, m)
		}
	}
}

func TestEvalJSONAll(t *testing.T) {
	var out, errw bytes.Buffer
	cfg := eval.Config{Models: []string{"all"}, Concurrency: 16, JSON: true, Fake: fakemodel.Options{Seed: fakemodel.DefaultSeed, NoLatency: true}}
	if err := session.Eval(context.Background(), &out, &errw, cfg); err != nil {
		t.Fatal(err)
	}
	var res []map[string]json.RawMessage
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	if len(res) != 2 {
		t.Fatalf("%d objects, want 2", len(res))
	}
	for _, r := range res {
		// The quality figures' seven keys, and the built-in model's misses
		// by rule.
		if len(r) != 8 {
			t.Errorf("object has %d keys: %v", len(r), r)
		}
		for _, k := range []string{"model", "emails", "all4_right", "all4_right_ci95", "fields", "misses_by_field", "invalid", "misses_by_rule"} {
			if _, ok := r[k]; !ok {
				t.Errorf("no key %q", k)
			}
		}
	}
}

func TestEvalTable(t *testing.T) {
	var out, errw bytes.Buffer
	cfg := eval.Config{Models: []string{fakemodel.ModelMini, fakemodel.ModelNano}, Concurrency: 4, Misses: true, Fake: fakemodel.Options{NoLatency: true}}
	if err := session.Eval(context.Background(), &out, &errw, cfg); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, want := range []string{"Answered by", "All 4 right", "gpt-5.4-mini", "gpt-5.4-nano", "Misses by field", "urgency", "email  35"} {
		if !strings.Contains(s, want) {
			t.Errorf("table lacks %q:\n%s", want, s)
		}
	}
}

// A model that answers some emails with malformed JSON: those count as wrong
// on every field and are listed.
type readCloser struct{ *bytes.Reader }

func (readCloser) Close() error { return nil }

func TestEvalInvalidAnswers(t *testing.T) {
	fake := fakemodel.New(fakemodel.Options{NoLatency: true})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if got := r.Header.Get("Authorization"); got != "Bearer env-key" {
			http.Error(w, `{"error":{"message":"no key","type":"invalid_request_error","code":"invalid_api_key"}}`, http.StatusUnauthorized)
			return
		}
		body := new(bytes.Buffer)
		body.ReadFrom(r.Body)
		if strings.Contains(body.String(), "Marcus") {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"id":"x","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"I think this is a return."},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`)
			return
		}
		r2 := r.Clone(r.Context())
		r2.Body = readCloser{bytes.NewReader(body.Bytes())}
		fake.ServeHTTP(w, r2)
	}))
	defer ts.Close()
	t.Setenv("OPENAI_API_KEY", "env-key")
	var out, errw bytes.Buffer
	cfg := eval.Config{Models: []string{fakemodel.ModelMini}, BaseURL: ts.URL + "/v1", Concurrency: 8, JSON: true}
	if err := session.Eval(context.Background(), &out, &errw, cfg); err != nil {
		t.Fatal(err)
	}
	var res []struct {
		Invalid       int            `json:"invalid"`
		MissesByField map[string]int `json:"misses_by_field"`
		MissesByRule  map[string]int `json:"misses_by_rule"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	if res[0].Invalid != 1 || res[0].MissesByField["urgency"] < 1 {
		t.Errorf("result %+v", res[0])
	}
	// An endpoint cannot say why it answered as it did, whatever the
	// model's name: no misses by rule.
	if res[0].MissesByRule != nil || strings.Contains(out.String(), "misses_by_rule") {
		t.Errorf("misses by rule from an endpoint: %s", out.String())
	}
	if !strings.Contains(errw.String(), "email 35") {
		t.Errorf("invalid answer not listed: %q", errw.String())
	}
}

func TestEvalEmailsFile(t *testing.T) {
	dir := t.TempDir()
	file := dir + "/mine.jsonl"
	text := `{"id": 501, "from": "a@example.com", "subject": "Pad", "body": "I'd like to return the Cloudrest sleeping pad from order DR-131422, it is too thin.", "truth": {"intent": "return", "order_number": "DR-131422", "product": "Cloudrest Sleeping Pad", "urgency": "high"}}
{"id": 502, "from": "b@example.com", "subject": "Thanks", "body": "The Blaze stove is great, thank you!"}
`
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errw bytes.Buffer
	cfg := eval.Config{Models: []string{fakemodel.ModelMini}, Concurrency: 2, JSON: true, Misses: true, EmailsFile: file,
		Fake: fakemodel.Options{NoLatency: true}}
	if err := session.Eval(context.Background(), &out, &errw, cfg); err != nil {
		t.Fatal(err)
	}
	var res []struct {
		Emails   int `json:"emails"`
		Unscored int `json:"unscored"`
		Misses   []struct {
			Email int      `json:"email"`
			Wrong []string `json:"wrong"`
		} `json:"misses"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	// The truth says high (it is not), so mini misses on urgency: the miss
	// is kept in the JSON with --misses.
	if len(res) != 1 || res[0].Emails != 1 || res[0].Unscored != 1 || len(res[0].Misses) != 1 ||
		res[0].Misses[0].Email != 501 || len(res[0].Misses[0].Wrong) != 1 || res[0].Misses[0].Wrong[0] != "urgency" {
		t.Errorf("got %s", out.String())
	}

	// Without --misses the JSON has no misses key.
	out.Reset()
	cfg.Misses = false
	if err := session.Eval(context.Background(), &out, &errw, cfg); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "misses\"") {
		t.Errorf("misses printed without --misses: %s", out.String())
	}

	// A bad file: exit 2, naming file, line and field.
	bad := dir + "/bad.jsonl"
	os.WriteFile(bad, []byte(`{"id": 1, "from": "a", "subject": "s", "body": "b", "truth": {"intent": "chat", "order_number": "", "product": "", "urgency": "low"}}`), 0o644)
	cfg.EmailsFile = bad
	err := session.Eval(context.Background(), &out, &errw, cfg)
	if exit.Code(err) != 2 || !strings.Contains(err.Error(), bad+":1") || !strings.Contains(err.Error(), "truth.intent") || !strings.Contains(err.Error(), "order_status") {
		t.Errorf("bad file: %v (exit %d)", err, exit.Code(err))
	}
}

// TestEvalCalibration holds the built-in models where the lab measured the
// models they stand for, through drill eval --model all --json: mini 95–99 %
// all 4 right (the lab: 97 %, 92–99 %) with its interval around it, nano
// 70–78 % (the lab: 74 %) with at least 80 % of its misses on urgency, and
// every miss of both explained by a reading rule.
func TestEvalCalibration(t *testing.T) {
	var out, errw bytes.Buffer
	cfg := eval.Config{Models: []string{"all"}, Concurrency: 16, JSON: true, Misses: true, Fake: fakemodel.Options{NoLatency: true}}
	if err := session.Eval(context.Background(), &out, &errw, cfg); err != nil {
		t.Fatal(err)
	}
	var res []struct {
		Model         string         `json:"model"`
		Emails        int            `json:"emails"`
		All4Right     float64        `json:"all4_right"`
		CI95          [2]float64     `json:"all4_right_ci95"`
		MissesByRule  map[string]int `json:"misses_by_rule"`
		MissesByField map[string]int `json:"misses_by_field"`
		Misses        []struct {
			Wrong   []string          `json:"wrong"`
			Because map[string]string `json:"because"`
		} `json:"misses"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	bands := map[string][2]float64{fakemodel.ModelMini: {0.95, 0.99}, fakemodel.ModelNano: {0.70, 0.78}}
	for _, r := range res {
		b := bands[r.Model]
		t.Logf("%s: all 4 right %.4f (%.3f–%.3f), %d misses, by field %v, by rule %v",
			r.Model, r.All4Right, r.CI95[0], r.CI95[1], len(r.Misses), r.MissesByField, r.MissesByRule)
		if r.All4Right < b[0] || r.All4Right > b[1] {
			t.Errorf("%s: all 4 right %.4f, want %.2f–%.2f", r.Model, r.All4Right, b[0], b[1])
		}
		if r.CI95[0] > r.All4Right || r.CI95[1] < r.All4Right {
			t.Errorf("%s: interval %v does not bracket %.4f", r.Model, r.CI95, r.All4Right)
		}
		urgency, fields := 0, 0
		for _, m := range r.Misses {
			for _, f := range m.Wrong {
				if m.Because[f] == "" {
					t.Errorf("%s: a wrong %s with no rule behind it", r.Model, f)
				}
				fields++
			}
			if slices.Contains(m.Wrong, "urgency") {
				urgency++
			}
		}
		sum := 0
		for _, n := range r.MissesByRule {
			sum += n
		}
		if sum != fields {
			t.Errorf("%s: misses by rule add up to %d, the misses have %d wrong fields", r.Model, sum, fields)
		}
		if r.Model == fakemodel.ModelNano && 5*urgency < 4*len(r.Misses) {
			t.Errorf("nano: %d of %d misses on urgency, want at least 80 %%", urgency, len(r.Misses))
		}
	}
}
