package fakemodel_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/triage"
)

// capture records each request body the SDK sends, so the test can compute
// the latency the server will draw for it.
type capture struct {
	next   http.RoundTripper
	bodies [][]byte
}

func (c *capture) RoundTrip(r *http.Request) (*http.Response, error) {
	b, _ := io.ReadAll(r.Body)
	r.Body.Close()
	c.bodies = append(c.bodies, b)
	r.Body = io.NopCloser(bytesReader(b))
	return c.next.RoundTrip(r)
}

func TestLatencyInFakeTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := fakemodel.New(fakemodel.Options{Seed: 7})
		cap := &capture{next: srv.Transport()}
		c := openai.NewClient(option.WithBaseURL("http://fake/v1/"), option.WithAPIKey("k"),
			option.WithHTTPClient(&http.Client{Transport: cap}))
		start := time.Now()
		resp, err := c.Chat.Completions.New(context.Background(), triage.Params(fakemodel.ModelMini, marcus(t)))
		if err != nil {
			t.Fatal(err)
		}
		took := time.Since(start)
		want := srv.Latency(fakemodel.ModelMini, cap.bodies[0], 0)
		if want <= 0 || took != want {
			t.Errorf("call took %v of fake time, want the drawn latency %v", took, want)
		}
		if !bytes.Equal(cap.bodies[0], requestBody(t, fakemodel.ModelMini, marcus(t))) {
			t.Errorf("openai-go sent a body other than json.Marshal(params)")
		}
		if want != fakemodel.Latency(7, fakemodel.ModelMini, cap.bodies[0], 0) {
			t.Errorf("Server.Latency and Latency disagree")
		}
		if _, err := triage.Parse(resp.Choices[0].Message.Content); err != nil {
			t.Error(err)
		}
	})
}

func TestStreamInFakeTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := fakemodel.New(fakemodel.Options{Seed: 7})
		cap := &capture{next: srv.Transport()}
		c := openai.NewClient(option.WithBaseURL("http://fake/v1/"), option.WithAPIKey("k"),
			option.WithHTTPClient(&http.Client{Transport: cap}))
		start := time.Now()
		stream := c.Chat.Completions.NewStreaming(context.Background(), triage.Params(fakemodel.ModelNano, marcus(t)))
		var first time.Duration
		n := 0
		for stream.Next() {
			if n == 0 {
				first = time.Since(start)
			}
			n++
		}
		if err := stream.Err(); err != nil {
			t.Fatal(err)
		}
		stream.Close()
		total := time.Since(start)
		want := srv.Latency(fakemodel.ModelNano, cap.bodies[0], 0)
		if first != want {
			t.Errorf("first chunk after %v, want the drawn latency %v", first, want)
		}
		if total <= first {
			t.Errorf("stream took %v in all, no time after the first chunk (%v)", total, first)
		}
	})
}

func TestCancelPromptlyInFakeTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := fakemodel.New(fakemodel.Options{Seed: 7, LatencyScale: 100}) // every call takes minutes
		c := openai.NewClient(option.WithBaseURL("http://fake/v1/"), option.WithAPIKey("k"), option.WithMaxRetries(0),
			option.WithHTTPClient(&http.Client{Transport: srv.Transport()}))
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		start := time.Now()
		_, err := c.Chat.Completions.New(ctx, triage.Params(fakemodel.ModelMini, marcus(t)))
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("err = %v, want context.DeadlineExceeded", err)
		}
		if took := time.Since(start); took != 2*time.Second {
			t.Errorf("cancelled call returned after %v, want 2s", took)
		}

		// Cancelled in the middle of a stream: the reader sees an error, and
		// nothing is left running when the bubble ends.
		ctx2, cancel2 := context.WithCancel(context.Background())
		stream := c.Chat.Completions.NewStreaming(ctx2, triage.Params(fakemodel.ModelNano, marcus(t)))
		if !stream.Next() {
			t.Fatalf("no first chunk: %v", stream.Err())
		}
		cancel2()
		for stream.Next() {
		}
		if stream.Err() == nil {
			t.Error("stream cancelled mid-way ended without an error")
		}
		stream.Close()
	})
}

func TestTransportRawHTTP(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := fakemodel.New(fakemodel.Options{NoLatency: true})
		hc := &http.Client{Transport: srv.Transport()}
		resp, err := hc.Get("http://fake/v1/models")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var list struct {
			Data []struct{ ID string } `json:"data"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&list); err != nil || len(list.Data) != 2 {
			t.Errorf("models: %v %+v", err, list)
		}
		// A streamed body closed early stops the handler: nothing leaks.
		body := `{"model":"gpt-5.4-mini","stream":true,"messages":[{"role":"user","content":"Subject: hi\n\nwhere is order 123456?"}]}`
		req, _ := http.NewRequest("POST", "http://fake/v1/chat/completions", stringsReader(body))
		resp2, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if resp2.Header.Get("Content-Type") != "text/event-stream" {
			t.Errorf("content type %q", resp2.Header.Get("Content-Type"))
		}
		buf := make([]byte, 10)
		io.ReadFull(resp2.Body, buf)
		resp2.Body.Close()
	})
}
