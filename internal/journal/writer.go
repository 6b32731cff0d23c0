package journal

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/redact"
	"github.com/drill-dev/drill/scoring"
)

// FlushInterval is the longest an event waits in the writer's buffer before
// it is written to the file.
const FlushInterval = time.Second

// Options tune a Writer. The zero value is ready to use.
type Options struct {
	// Secrets are values (such as the API key in use) redacted from every
	// line written, in addition to those of the API-key environment variables.
	Secrets []string
}

// Writer writes a run's journal while the run goes on. It follows the run's
// event log with its own cursor in its own goroutine, so the engine never
// waits for the disk: appending to the log never blocks on the writer.
// Buffered lines are flushed at least once every FlushInterval.
type Writer struct {
	dst     io.Writer
	file    *os.File // nil when writing to a plain io.Writer
	name    string
	log     *event.Log
	cursor  *event.Cursor
	secrets redact.Set

	mu      sync.Mutex // guards buf and err
	buf     *bufio.Writer
	scratch bytes.Buffer  // one event line being assembled
	enc     *json.Encoder // encodes events into scratch, reused
	// line is the event being encoded, redacted: encoded through a
	// pointer to it, so handing it to the encoder copies no event to the
	// heap (the bytes are the same: no type in an event has a marshaler).
	line event.Event
	fast []byte // a line appendEventLine wrote, reused
	err  error  // first write error

	cancel   context.CancelFunc
	done     chan struct{} // closed when both goroutines have returned
	finished bool
}

// Create creates (or truncates) the journal file at path, writes the header
// and starts following log. Finish must be called to write the summary and
// close the file.
func Create(path string, h Header, log *event.Log, opts Options) (*Writer, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("journal: creating %s: %w", path, err)
	}
	w, err := newWriter(f, f, path, h, log, opts)
	if err != nil {
		_ = f.Close()
		return nil, err
	}
	return w, nil
}

// NewWriter writes the header to dst and starts following log. Finish must
// be called to write the summary; it does not close dst.
func NewWriter(dst io.Writer, h Header, log *event.Log, opts Options) (*Writer, error) {
	return newWriter(dst, nil, "journal", h, log, opts)
}

func newWriter(dst io.Writer, f *os.File, name string, h Header, log *event.Log, opts Options) (*Writer, error) {
	if h.Type == "" {
		h.Type = TypeHeader
	}
	if h.Format == 0 {
		h.Format = Format
	}
	if len(h.Config) > 0 {
		clean, err := Scrub(h.Config)
		if err != nil {
			return nil, err
		}
		h.Config = clean
	}
	w := &Writer{
		dst:     dst,
		file:    f,
		name:    name,
		log:     log,
		cursor:  log.Cursor(),
		secrets: redact.Known(opts.Secrets),
		buf:     bufio.NewWriterSize(dst, 256<<10),
		done:    make(chan struct{}),
	}
	w.enc = json.NewEncoder(&w.scratch)
	line, err := json.Marshal(h)
	if err != nil {
		return nil, fmt.Errorf("journal: encoding the header of %s: %w", name, err)
	}
	w.writeLine(line)
	w.flush()
	if w.err != nil {
		return nil, w.err
	}
	ctx, cancel := context.WithCancel(context.Background())
	w.cancel = cancel
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); w.follow(ctx) }()
	go func() { defer wg.Done(); w.tick(ctx) }()
	go func() { wg.Wait(); close(w.done) }()
	return w, nil
}

// follow copies events from the log to the buffer until the log is closed
// and drained or ctx ends.
func (w *Writer) follow(ctx context.Context) {
	for {
		evs, err := w.cursor.Next(ctx)
		if len(evs) > 0 {
			w.writeEvents(evs)
		}
		if err != nil {
			return
		}
	}
}

// tick flushes the buffer every FlushInterval until ctx ends.
func (w *Writer) tick(ctx context.Context) {
	t := time.NewTicker(FlushInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			w.flush()
		}
	}
}

// eventPrefix starts every event line; the event's own JSON object follows
// without its opening brace.
var eventPrefix = []byte(`{"type":"event",`)

func (w *Writer) writeEvents(evs []event.Event) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, e := range evs {
		if w.err != nil {
			return
		}
		w.line = redactEvent(e, w.secrets)
		if line, ok := appendEventLine(w.fast[:0], &w.line); ok {
			w.fast = line
			w.writeLineLocked(line)
			continue
		}
		// The encoder writes the event's object after the prefix; its
		// opening brace and its trailing newline are cut. One buffer and
		// one encoder serve every line (json.Marshal allocates a fresh
		// slice per event); the bytes are the same as json.Marshal's.
		w.scratch.Reset()
		w.scratch.Write(eventPrefix)
		if err := w.enc.Encode(&w.line); err != nil {
			w.err = fmt.Errorf("journal: encoding event %d for %s: %w", e.Seq, w.name, err)
			return
		}
		line := w.scratch.Bytes()
		line = append(line[:len(eventPrefix)], line[len(eventPrefix)+1:len(line)-1]...)
		w.writeLineLocked(line)
	}
}

func (w *Writer) writeLine(line []byte) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.writeLineLocked(line)
}

func (w *Writer) writeLineLocked(line []byte) {
	if w.err != nil {
		return
	}
	line = w.secrets.Bytes(line)
	if _, err := w.buf.Write(line); err != nil {
		w.err = fmt.Errorf("journal: writing %s: %w", w.name, err)
		return
	}
	if err := w.buf.WriteByte('\n'); err != nil {
		w.err = fmt.Errorf("journal: writing %s: %w", w.name, err)
	}
}

func (w *Writer) flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return
	}
	if err := w.buf.Flush(); err != nil {
		w.err = fmt.Errorf("journal: flushing %s: %w", w.name, err)
	}
}

// Finish writes every event the log holds that is not yet written, then the
// summary line with status (completed, interrupted or failed), flushes,
// syncs and closes the file. Call it after the run has ended (its log is
// closed); events appended after Finish are not recorded. It returns the
// first error met while writing the journal. Calling it twice is an error.
func (w *Writer) Finish(s scoring.Summary, status string) error {
	return w.FinishJudged(s, status, nil)
}

// FinishJudged is Finish with the drill's hypotheses judged on s, written
// in the summary line beside the summary.
func (w *Writer) FinishJudged(s scoring.Summary, status string, hypotheses []scoring.Verdict) error {
	return w.finish(SummaryLine{Type: TypeSummary, Status: status, Summary: s, Hypotheses: hypotheses})
}

// FinishChat is Finish for a chat workload's run: its summary line holds
// the chat figures.
func (w *Writer) FinishChat(s scoring.ChatSummary, status string) error {
	return w.finish(SummaryLine{Type: TypeSummary, Status: status, Chat: &s})
}

// finish writes what is left of the log and the summary line, and closes.
func (w *Writer) finish(sl SummaryLine) error {
	if w.finished {
		return fmt.Errorf("journal: %s already finished", w.name)
	}
	w.finished = true
	w.stop()
	if rest := w.cursor.Poll(); len(rest) > 0 {
		w.writeEvents(rest)
	}
	line, err := json.Marshal(sl)
	if err != nil {
		err = fmt.Errorf("journal: encoding the summary of %s: %w", w.name, err)
		return errors.Join(err, w.close())
	}
	// The summary quotes the run's settings (rung models, overrides), where
	// an upstream's ?api-key= or a key sent as a model may sit, or a name
	// too long for a line (see MaxTextField).
	if line, err = redact.JSONWith(line, clipText); err != nil {
		err = fmt.Errorf("journal: redacting the summary of %s: %w", w.name, err)
		return errors.Join(err, w.close())
	}
	w.writeLine(line)
	w.flush()
	return w.close()
}

// Abort stops following the log and closes the journal without a summary
// line, flushing what was already read, as a crash would leave it (readers
// report the run as cut short). It is a no-op after Finish.
func (w *Writer) Abort() error {
	if w.finished {
		return nil
	}
	w.finished = true
	w.stop()
	if rest := w.cursor.Poll(); len(rest) > 0 {
		w.writeEvents(rest)
	}
	w.flush()
	return w.close()
}

// stop ends the writer's goroutines and waits for them.
func (w *Writer) stop() {
	// Let follow drain a closed log on its own; cancel only ends the wait.
	w.cancel()
	<-w.done
}

// close syncs and closes the file, returning the first error of the writer.
func (w *Writer) close() error {
	w.mu.Lock()
	err := w.err
	w.mu.Unlock()
	if w.file == nil {
		return err
	}
	if serr := w.file.Sync(); serr != nil && err == nil {
		err = fmt.Errorf("journal: syncing %s: %w", w.name, serr)
	}
	if cerr := w.file.Close(); cerr != nil && err == nil {
		err = fmt.Errorf("journal: closing %s: %w", w.name, cerr)
	}
	return err
}

// Err returns the first error met while writing, if any, without stopping
// the writer.
func (w *Writer) Err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}
