package sse

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/iotest"
)

const stream = ": a comment\n" +
	"data: {\"choices\":[{\"delta\":{\"content\":\"Hel\"}}]}\n\n" +
	"event: x\r\ndata:{\"choices\":[{\"delta\":{\"content\":\"lo\"}}]}\r\n\r\n" +
	"data: {\"choices\":[],\"usage\":{\"prompt_tokens\":7,\"completion_tokens\":2}}\n\n" +
	"data: [DONE]\n\n"

func TestReaderEvents(t *testing.T) {
	r := NewReader(iotest.OneByteReader(strings.NewReader(stream)), 0)
	var raw strings.Builder
	var datas []string
	for {
		ev, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		raw.Write(ev.Raw)
		for _, d := range ev.Data() {
			datas = append(datas, string(d))
		}
	}
	if raw.String() != stream {
		t.Errorf("events' raw bytes do not add up to the stream:\n%q", raw.String())
	}
	want := []string{`{"choices":[{"delta":{"content":"Hel"}}]}`, `{"choices":[{"delta":{"content":"lo"}}]}`,
		`{"choices":[],"usage":{"prompt_tokens":7,"completion_tokens":2}}`, "[DONE]"}
	if strings.Join(datas, "|") != strings.Join(want, "|") {
		t.Errorf("data = %q, want %q", datas, want)
	}
}

func TestReaderLastEventWithoutBlankLine(t *testing.T) {
	r := NewReader(strings.NewReader("data: a\n\ndata: b"), 0)
	for _, want := range []string{"a", "b"} {
		ev, err := r.Next()
		if err != nil || len(ev.Data()) != 1 || string(ev.Data()[0]) != want {
			t.Fatalf("Next = %q, %v; want data %q", ev.Raw, err, want)
		}
	}
	if _, err := r.Next(); !errors.Is(err, io.EOF) {
		t.Fatalf("after the last event: %v, want io.EOF", err)
	}
}

func TestReaderBoundsLines(t *testing.T) {
	long := "data: " + strings.Repeat("x", 100) + "\n\n"
	if _, err := NewReader(strings.NewReader(long), 50).Next(); !errors.Is(err, ErrLineTooLong) {
		t.Fatalf("a 106-byte line under a 50-byte bound: %v, want ErrLineTooLong", err)
	}
	// A line longer than bufio's own buffer but within the bound reads whole.
	big := "data: " + strings.Repeat("y", 10000) + "\n\n"
	ev, err := NewReader(strings.NewReader(big), 20000).Next()
	if err != nil || len(ev.Data()[0]) != 10000 {
		t.Fatalf("a 10 kB line: %v, %d bytes", err, len(ev.Raw))
	}
}

func TestScannerFollowsSplitWrites(t *testing.T) {
	var content strings.Builder
	var usage *Usage
	done := false
	s := &Scanner{OnData: func(d []byte) {
		if string(d) == string(Done) {
			done = true
			return
		}
		c, err := ParseChunk(d)
		if err != nil {
			t.Errorf("chunk %q: %v", d, err)
			return
		}
		content.WriteString(c.Content())
		if c.Usage != nil {
			usage = c.Usage
		}
	}}
	// Feed it in 3-byte pieces, so lines split across writes.
	for i := 0; i < len(stream); i += 3 {
		if _, err := s.Write([]byte(stream[i:min(i+3, len(stream))])); err != nil {
			t.Fatal(err)
		}
	}
	if content.String() != "Hello" || usage == nil || usage.PromptTokens != 7 || usage.CompletionTokens != 2 || !done {
		t.Errorf("content %q, usage %+v, done %v", content.String(), usage, done)
	}
	if s.Err() != nil {
		t.Errorf("Err = %v", s.Err())
	}
}

func TestScannerSkipsLongLine(t *testing.T) {
	var got []string
	s := &Scanner{Max: 20, OnData: func(d []byte) { got = append(got, string(d)) }}
	s.Write([]byte("data: " + strings.Repeat("z", 30)))
	s.Write([]byte("zzz\ndata: ok\n"))
	if len(got) != 1 || got[0] != "ok" {
		t.Errorf("got %q, want only the short line's data", got)
	}
	if !errors.Is(s.Err(), ErrLineTooLong) {
		t.Errorf("Err = %v, want ErrLineTooLong", s.Err())
	}
}

func TestChunkHasDelta(t *testing.T) {
	for data, want := range map[string]bool{
		`{"choices":[{"delta":{"role":"assistant"}}]}`:         false,
		`{"choices":[{"delta":{"content":"a"}}]}`:              true,
		`{"choices":[{"delta":{"refusal":"no"}}]}`:             true,
		`{"choices":[{"delta":{"tool_calls":[{"index":0}]}}]}`: true,
		`{"choices":[],"usage":{"prompt_tokens":1}}`:           false,
	} {
		c, err := ParseChunk([]byte(data))
		if err != nil || c.HasDelta() != want {
			t.Errorf("%s: HasDelta = %v (%v), want %v", data, c.HasDelta(), err, want)
		}
	}
}

func TestIsStream(t *testing.T) {
	h := http.Header{}
	h.Set("Content-Type", "Text/Event-Stream; charset=utf-8")
	if !IsStream(h) {
		t.Error("text/event-stream with a charset is a stream")
	}
	h.Set("Content-Type", "application/json")
	if IsStream(h) {
		t.Error("application/json is not a stream")
	}
}
