package proxy

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/scoring"
)

// TestRecordedSummaryMatchesTheReplayedOne: clients naming models the
// journal writes differently (two short `sk-` names, both redacted; a byte
// JSON cannot hold) leave a journal whose recorded summary is the one its
// events fold into — the unpriced list in the same order, no false
// "summary differs" warning on replay.
func TestRecordedSummaryMatchesTheReplayedOne(t *testing.T) {
	// As drill proxy runs the built-in model: other names go to its mini.
	s := start(t, Options{KnownModels: []string{fakemodel.ModelMini}, DefaultModel: fakemodel.ModelMini})
	for _, model := range []string{"zz-model", "sk-b", "sk-a", "aa\xff", "gpt-5.4-mini"} {
		body := `{"model":"` + model + `","messages":[{"role":"user","content":"Where is DR-123456?"}]}`
		resp, err := http.Post(s.url+"/chat/completions", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	evs := s.stop()
	var buf bytes.Buffer
	h, _ := journal.NewHeader(map[string]string{"upstream": "fake"}, s.p.Log().Start())
	jw, err := journal.NewWriter(&buf, h, s.p.Log(), journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	live := scoring.Summarize(evs)
	if err := jw.Finish(live, event.StatusCompleted); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), `"sk-a"`) || strings.Contains(buf.String(), `"sk-b"`) {
		t.Fatalf("the journal holds a short key:\n%s", buf.String())
	}
	r, err := journal.NewReader(&buf, "proxy.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var read []event.Event
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		read = append(read, e)
	}
	recorded, ok := r.Summary()
	if !ok {
		t.Fatal("no summary line")
	}
	replayed := scoring.Summarize(read)
	if !reflect.DeepEqual(recorded.Summary, replayed) {
		t.Errorf("recorded summary differs from the replayed one:\nunpriced recorded %q\nunpriced replayed %q",
			recorded.Summary.Cost.Unpriced, replayed.Cost.Unpriced)
	}
}
