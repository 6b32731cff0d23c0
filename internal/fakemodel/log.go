package fakemodel

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"time"

	"github.com/drill-dev/drill/internal/format"
)

// requestInfo is what the request log line says about one request; the
// handler fills it in as it learns it.
type requestInfo struct {
	id     string
	start  time.Time
	model  string
	stream bool
	usage  Usage
}

// newRequestID returns a fresh request id in OpenAI's style: "req_" and 32
// hex digits.
func newRequestID() string {
	var b [16]byte
	rand.Read(b[:])
	// "req_" and the hex written into one buffer: one allocation, the string.
	var id [4 + 2*len(b)]byte
	copy(id[:], "req_")
	hex.Encode(id[4:], b[:])
	return string(id[:])
}

// statusWriter remembers the status code a handler wrote.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}

// Flush passes flushes through, so streams still stream when logged.
func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// logRequest writes one line for a finished request:
//
//	2026-11-30T15:04:05.123Z req_… POST /v1/chat/completions model=gpt-5.4-mini stream=false status=200 prompt_tokens=812 completion_tokens=31 duration=1.204s
func (s *Server) logRequest(r *http.Request, status int, info *requestInfo) {
	line := fmt.Sprintf("%s %s %s %s", info.start.UTC().Format("2006-01-02T15:04:05.000Z"), info.id, r.Method, r.URL.Path)
	if info.model != "" {
		line += fmt.Sprintf(" model=%s stream=%t", info.model, info.stream)
	}
	line += fmt.Sprintf(" status=%d", status)
	if info.usage.TotalTokens > 0 {
		line += fmt.Sprintf(" prompt_tokens=%d completion_tokens=%d", info.usage.PromptTokens, info.usage.CompletionTokens)
	}
	if r.Context().Err() != nil && status == http.StatusOK {
		line += " cancelled=true"
	}
	line += " duration=" + format.LogSecs(time.Since(info.start)) + "\n"
	s.logMu.Lock()
	defer s.logMu.Unlock()
	fmt.Fprint(s.opts.Log, line)
}
