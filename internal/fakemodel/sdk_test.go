package fakemodel_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/triage"
)

// clients returns an openai-go client for the fake model in-process (through
// Transport) and one over loopback (httptest.NewServer).
func clients(t *testing.T, opts fakemodel.Options) map[string]openai.Client {
	t.Helper()
	srv := fakemodel.New(opts)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return map[string]openai.Client{
		"in-process": openai.NewClient(
			option.WithBaseURL("http://fake-model.invalid/v1/"),
			option.WithAPIKey("test-key"),
			option.WithHTTPClient(&http.Client{Transport: srv.Transport()}),
		),
		"loopback": openai.NewClient(
			option.WithBaseURL(ts.URL+"/v1/"),
			option.WithAPIKey("test-key"),
		),
	}
}

func marcus(t *testing.T) emails.Email {
	e, ok := emails.ByID(35)
	if !ok {
		t.Fatal("no email 35")
	}
	return e
}

func TestSDKNonStreamedJSONSchema(t *testing.T) {
	for name, c := range clients(t, fakemodel.Options{NoLatency: true}) {
		t.Run(name, func(t *testing.T) {
			e := marcus(t)
			resp, err := c.Chat.Completions.New(context.Background(), triage.Params(fakemodel.ModelMini, e))
			if err != nil {
				t.Fatal(err)
			}
			if resp.Model != fakemodel.ModelMini || len(resp.Choices) != 1 || resp.Choices[0].FinishReason != "stop" {
				t.Fatalf("unexpected response %+v", resp)
			}
			a, err := triage.Parse(resp.Choices[0].Message.Content)
			if err != nil {
				t.Fatal(err)
			}
			if a != e.Truth {
				t.Errorf("mini on Marcus: %+v, want %+v", a, e.Truth)
			}
			u := resp.Usage
			if u.PromptTokens <= 0 || u.CompletionTokens <= 0 || u.TotalTokens != u.PromptTokens+u.CompletionTokens {
				t.Errorf("usage %+v", u)
			}
		})
	}
}

func TestSDKStreamedJSONSchema(t *testing.T) {
	for name, c := range clients(t, fakemodel.Options{NoLatency: true}) {
		t.Run(name, func(t *testing.T) {
			e := marcus(t)
			params := triage.Params(fakemodel.ModelNano, e)
			params.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
			stream := c.Chat.Completions.NewStreaming(context.Background(), params)
			var acc openai.ChatCompletionAccumulator
			chunks := 0
			for stream.Next() {
				acc.AddChunk(stream.Current())
				chunks++
			}
			if err := stream.Err(); err != nil {
				t.Fatal(err)
			}
			stream.Close()
			if chunks < 4 {
				t.Errorf("only %d chunks", chunks)
			}
			if len(acc.Choices) != 1 {
				t.Fatalf("accumulated %+v", acc.ChatCompletion)
			}
			a, err := triage.Parse(acc.Choices[0].Message.Content)
			if err != nil {
				t.Fatalf("%v: %q", err, acc.Choices[0].Message.Content)
			}
			if a.Urgency != "high" || a.Intent != "return" {
				t.Errorf("nano on Marcus: %+v (want return, urgency high)", a)
			}
			if acc.Usage.TotalTokens == 0 {
				t.Error("no usage in the stream")
			}
		})
	}
}

func TestSDKJSONObject(t *testing.T) {
	for name, c := range clients(t, fakemodel.Options{NoLatency: true}) {
		t.Run(name, func(t *testing.T) {
			e := marcus(t)
			params := triage.Params(fakemodel.ModelMini, e)
			params.ResponseFormat = openai.ChatCompletionNewParamsResponseFormatUnion{OfJSONObject: &openai.ResponseFormatJSONObjectParam{}}
			resp, err := c.Chat.Completions.New(context.Background(), params)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := triage.Parse(resp.Choices[0].Message.Content); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestSDKModelNotFound(t *testing.T) {
	for name, c := range clients(t, fakemodel.Options{NoLatency: true}) {
		t.Run(name, func(t *testing.T) {
			_, err := c.Chat.Completions.New(context.Background(), triage.Params("gpt-nope", marcus(t)))
			var apiErr *openai.Error
			if !errors.As(err, &apiErr) {
				t.Fatalf("error %v (%T) is not *openai.Error", err, err)
			}
			if apiErr.StatusCode != http.StatusNotFound || apiErr.Code != "model_not_found" || apiErr.Param != "model" || apiErr.Type != "invalid_request_error" {
				t.Errorf("error %+v", apiErr)
			}
			// Streaming reports it too.
			stream := c.Chat.Completions.NewStreaming(context.Background(), triage.Params("gpt-nope", marcus(t)))
			for stream.Next() {
			}
			if !errors.As(stream.Err(), &apiErr) || apiErr.StatusCode != 404 {
				t.Errorf("streaming error %v", stream.Err())
			}
		})
	}
}

func TestSDKModels(t *testing.T) {
	for name, c := range clients(t, fakemodel.Options{NoLatency: true}) {
		t.Run(name, func(t *testing.T) {
			page, err := c.Models.List(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range page.Data {
				got = append(got, m.ID)
			}
			if len(got) != 2 || got[0] != fakemodel.ModelMini || got[1] != fakemodel.ModelNano {
				t.Errorf("models %v", got)
			}
			m, err := c.Models.Get(context.Background(), fakemodel.ModelNano)
			if err != nil || m.ID != fakemodel.ModelNano {
				t.Errorf("get: %v %v", m, err)
			}
		})
	}
}

func TestSDKRequireKey(t *testing.T) {
	srv := fakemodel.New(fakemodel.Options{NoLatency: true, RequireKey: "sekret"})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	for key, want := range map[string]int{"": 401, "wrong": 401, "sekret": 200} {
		c := openai.NewClient(option.WithBaseURL(ts.URL+"/v1/"), option.WithAPIKey(key), option.WithMaxRetries(0))
		_, err := c.Chat.Completions.New(context.Background(), triage.Params(fakemodel.ModelMini, marcus(t)))
		var apiErr *openai.Error
		switch {
		case want == 200 && err != nil:
			t.Errorf("key %q: %v", key, err)
		case want == 401 && (!errors.As(err, &apiErr) || apiErr.StatusCode != 401 || apiErr.Code != "invalid_api_key"):
			t.Errorf("key %q: got %v, want 401 invalid_api_key", key, err)
		}
	}
}
