package journal

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/redact"
	"github.com/drill-dev/drill/scoring"
)

// MaxLine is the longest journal line a reader accepts.
const MaxLine = 16 << 20

// Reader reads a journal line by line with bounded memory: it holds one line
// at a time, so a journal of any length can be folded as it is read.
type Reader struct {
	name      string
	br        *bufio.Reader
	line      int // number of the last line read, from 1
	buf       []byte
	header    Header
	summary   *SummaryLine
	truncated bool
	nextSeq   int64
	eof       bool
	valid     *scoring.EventRules
	strs      interner // the strings its event lines repeat
}

// readBufferSize is a Reader's buffer: a line longer than it is gathered
// in pieces (up to MaxLine), so it need not hold one. 64 KiB holds every
// event line; a buffer of 1 MiB per journal cost a report of 2,000 small
// journals 2 GB of allocation and clearing for nothing.
const readBufferSize = 64 << 10

// NewReader reads the journal header from r and returns a reader positioned
// at the first event. name (usually the file name) prefixes every error. A
// first line that is not a journal header is ErrNotJournal; a format newer
// than Format is ErrNewerFormat.
func NewReader(r io.Reader, name string) (*Reader, error) {
	jr := &Reader{name: name, br: bufio.NewReaderSize(r, readBufferSize)}
	line, complete, err := jr.readLine()
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	if len(bytes.TrimSpace(line)) == 0 {
		return nil, fmt.Errorf("%s: %w: the file is empty", name, ErrNotJournal)
	}
	var h Header
	if uerr := json.Unmarshal(line, &h); uerr != nil || h.Type != TypeHeader {
		if !complete {
			return nil, fmt.Errorf("%s: %w: its first line is cut short, before the header was complete", name, ErrNotJournal)
		}
		return nil, fmt.Errorf("%s: %w: line 1 is not a journal header (want a JSON object with \"type\":\"header\")", name, ErrNotJournal)
	}
	if h.Format > Format {
		return nil, fmt.Errorf("%s: %w: it is format %d, written by drill %s; this drill (%s) reads formats up to %d — upgrade drill to read it",
			name, ErrNewerFormat, h.Format, h.DrillVersion, DrillVersion(), Format)
	}
	if h.Format < 1 {
		return nil, fmt.Errorf("%s: %w: line 1: header has no valid \"format\" (got %d)", name, ErrNotJournal, h.Format)
	}
	// A journal written before a redaction rule existed must not carry its
	// secrets into a report: scrub the configuration as the writer does.
	if len(h.Config) > 0 {
		if clean, serr := Scrub(h.Config); serr == nil {
			h.Config = json.RawMessage(redact.Known(nil).Bytes(clean))
		}
	}
	ceiling, lerr := headerCeiling(h)
	if lerr != nil {
		return nil, fmt.Errorf("%s:1: %w: %v", name, ErrInvalid, lerr)
	}
	jr.header = h
	jr.valid = scoring.NewEventRules(ceiling)
	if errors.Is(err, io.EOF) {
		jr.eof = true
	}
	return jr, nil
}

// Header is the journal's first line.
func (r *Reader) Header() Header { return r.header }

// Name is the name errors are prefixed with.
func (r *Reader) Name() string { return r.name }

// Line is the number of the last line read, from 1.
func (r *Reader) Line() int { return r.line }

// Summary returns the summary line, once Next has returned io.EOF, if the
// journal has one.
func (r *Reader) Summary() (SummaryLine, bool) {
	if r.summary == nil {
		return SummaryLine{}, false
	}
	return *r.summary, true
}

// Truncated reports whether the journal's last line was cut in the middle
// (known once Next has returned io.EOF). Everything before it was read.
func (r *Reader) Truncated() bool { return r.truncated }

// CutShort reports whether the run was cut short: the journal ends without
// a summary line (a crash or kill), known once Next has returned io.EOF.
func (r *Reader) CutShort() bool { return r.summary == nil }

// Status is how the run ended: the summary line's status, or interrupted
// when the journal was cut short.
func (r *Reader) Status() string {
	if r.summary == nil || r.summary.Status == "" {
		return event.StatusInterrupted
	}
	return r.summary.Status
}

// fastEventPrefix starts the event lines the writer writes; such lines skip
// the probe for their type.
var fastEventPrefix = eventPrefix

// Next returns the next event. It returns io.EOF after the last event (the
// summary line, if any, is then available from Summary). A line that cannot
// be read in the middle of the journal is an error wrapping ErrCorrupt that
// names the file, the line and the field; only a last line cut short is
// accepted (see Truncated). An event that reads but breaks a rule of the
// format (see scoring.EventRules: offsets not negative, in time order and within
// the run's ceiling; email ids within the configured emails) is an error
// wrapping ErrInvalid that names the file, the line and the field.
func (r *Reader) Next() (event.Event, error) {
	for {
		if r.eof {
			return event.Event{}, io.EOF
		}
		line, complete, err := r.readLine()
		if errors.Is(err, io.EOF) {
			r.eof = true
		} else if err != nil {
			return event.Event{}, err
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		ev, isEvent, perr := r.parse(line)
		if perr != nil {
			if !complete {
				// The last line, cut in the middle by a crash or a kill.
				r.truncated = true
				r.eof = true
				return event.Event{}, io.EOF
			}
			return event.Event{}, perr
		}
		if isEvent {
			if msg := r.valid.Check(ev, r.line); msg != "" {
				return event.Event{}, fmt.Errorf("%s:%d: %w: %s", r.name, r.line, ErrInvalid, msg)
			}
			return ev, nil
		}
	}
}

// parse reads one complete line. It returns the event for an event line, or
// isEvent false for the summary line.
func (r *Reader) parse(line []byte) (ev event.Event, isEvent bool, err error) {
	typ := TypeEvent
	if !bytes.HasPrefix(line, fastEventPrefix) {
		var probe struct {
			Type *string `json:"type"`
		}
		if err := json.Unmarshal(line, &probe); err != nil {
			return ev, false, r.corrupt(err, "")
		}
		if probe.Type == nil {
			return ev, false, fmt.Errorf("%s:%d: %w: field \"type\" is missing", r.name, r.line, ErrCorrupt)
		}
		typ = *probe.Type
	}
	if r.summary != nil {
		return ev, false, fmt.Errorf("%s:%d: %w: a %q line after the summary line", r.name, r.line, ErrCorrupt, typ)
	}
	switch typ {
	case TypeEvent:
		if !decodeEventLine(line, &ev, &r.strs) {
			// Anything the direct decoding does not read, encoding/json
			// decides (decode.go).
			ev = event.Event{}
			if err := json.Unmarshal(line, &ev); err != nil {
				return ev, false, r.corrupt(err, "event")
			}
		}
		if !scoring.HasKind(ev) {
			return ev, false, fmt.Errorf("%s:%d: %w: event field \"kind\" is missing", r.name, r.line, ErrCorrupt)
		}
		if ev.Seq != r.nextSeq {
			return ev, false, fmt.Errorf("%s:%d: %w: event field \"seq\" is %d, want %d (events missing or out of order)", r.name, r.line, ErrCorrupt, ev.Seq, r.nextSeq)
		}
		r.nextSeq++
		return ev, true, nil
	case TypeSummary:
		var s SummaryLine
		if err := json.Unmarshal(line, &s); err != nil {
			return ev, false, r.corrupt(err, "summary")
		}
		switch s.Status {
		case event.StatusCompleted, event.StatusInterrupted, event.StatusAborted, event.StatusFailed:
		default:
			return ev, false, fmt.Errorf("%s:%d: %w: summary field \"status\" is %q, want completed, interrupted, aborted or failed", r.name, r.line, ErrCorrupt, s.Status)
		}
		r.summary = &s
		return ev, false, nil
	case TypeHeader:
		return ev, false, fmt.Errorf("%s:%d: %w: a second header line", r.name, r.line, ErrCorrupt)
	default:
		return ev, false, fmt.Errorf("%s:%d: %w: field \"type\" is %q, want event or summary", r.name, r.line, ErrCorrupt, typ)
	}
}

// corrupt describes a JSON error on the current line, naming the field when
// the decoder knows it.
func (r *Reader) corrupt(err error, what string) error {
	if what != "" {
		what += " "
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Errorf("%s:%d: %w: %sfield %q: %s is not a %s", r.name, r.line, ErrCorrupt, what, te.Field, te.Value, te.Type)
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("%s:%d: %w: not JSON at column %d: %v", r.name, r.line, ErrCorrupt, se.Offset, err)
	}
	return fmt.Errorf("%s:%d: %w: %v", r.name, r.line, ErrCorrupt, err)
}

// readLine reads the next line without its newline. complete is false for a
// last line with no newline. The returned slice is valid until the next call.
func (r *Reader) readLine() (line []byte, complete bool, err error) {
	r.buf = r.buf[:0]
	for {
		chunk, err := r.br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			if len(r.buf)+len(chunk) > MaxLine {
				r.line++
				return nil, false, fmt.Errorf("%s:%d: %w: line longer than %d bytes", r.name, r.line, ErrCorrupt, MaxLine)
			}
			r.buf = append(r.buf, chunk...)
			continue
		}
		if len(r.buf) > 0 {
			r.buf = append(r.buf, chunk...)
			chunk = r.buf
		}
		if err == nil {
			r.line++
			chunk = chunk[:len(chunk)-1]
			if n := len(chunk); n > 0 && chunk[n-1] == '\r' {
				chunk = chunk[:n-1]
			}
			return chunk, true, nil
		}
		if errors.Is(err, io.EOF) {
			if len(chunk) > 0 {
				r.line++
			}
			return chunk, false, io.EOF
		}
		return nil, false, fmt.Errorf("%s: reading line %d: %w", r.name, r.line+1, err)
	}
}

// Meta is what a journal holds besides its events.
type Meta struct {
	Path      string
	Header    Header
	Summary   *SummaryLine // nil when the run was cut short
	Truncated bool         // the last line was cut in the middle
	CutLine   int          // the number of that cut line, when Truncated
	Events    int          // events read
}

// CutShort reports whether the journal ends without a summary line.
func (m Meta) CutShort() bool { return m.Summary == nil }

// Status is the summary line's status, or interrupted when the run was cut
// short.
func (m Meta) Status() string {
	if m.Summary == nil || m.Summary.Status == "" {
		return event.StatusInterrupted
	}
	return m.Summary.Status
}

// IsChat reports whether the journal at path is a chat drill's, from its
// first event (scoring.IsChat), reading no further.
func IsChat(ctx context.Context, path string) (bool, error) {
	isChat := false
	_, err := ScanContext(ctx, path, func(e event.Event) error {
		isChat = scoring.IsChat([]event.Event{e})
		return errStopScan
	})
	if err != nil && !errors.Is(err, errStopScan) {
		return false, err
	}
	return isChat, nil
}

// errStopScan stops a scan once it has what it needs.
var errStopScan = errors.New("enough read")

// Scan streams the journal at path, calling fn for every event in order. It
// stops at fn's first error and returns it. A path that is not a regular
// file is an error wrapping ErrNotFile (see Open).
func Scan(path string, fn func(event.Event) error) (Meta, error) {
	return ScanContext(context.Background(), path, fn)
}

// ScanContext is Scan that stops, returning ctx's error, once ctx ends.
func ScanContext(ctx context.Context, path string, fn func(event.Event) error) (Meta, error) {
	if err := ctx.Err(); err != nil {
		return Meta{Path: path}, err
	}
	f, err := Open(path)
	if err != nil {
		return Meta{Path: path}, err
	}
	defer f.Close()
	defer watch(ctx, f)()
	m, err := scan(ctx, f, path, fn)
	if cerr := ctx.Err(); cerr != nil {
		return m, cerr
	}
	return m, err
}

func scan(ctx context.Context, src io.Reader, path string, fn func(event.Event) error) (Meta, error) {
	r, err := NewReader(src, path)
	if err != nil {
		return Meta{Path: path}, err
	}
	m := Meta{Path: path, Header: r.Header()}
	for {
		if m.Events%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return m, err
			}
		}
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return m, err
		}
		m.Events++
		if err := fn(e); err != nil {
			return m, err
		}
	}
	if s, ok := r.Summary(); ok {
		m.Summary = &s
	}
	m.Truncated = r.Truncated()
	if m.Truncated {
		m.CutLine = r.Line()
	}
	return m, nil
}

// Journal is a whole journal read into memory.
type Journal struct {
	Meta
	Events []event.Event
}

// ReadFile reads the whole journal at path.
func ReadFile(path string) (*Journal, error) {
	return ReadFileContext(context.Background(), path)
}

// ReadFileContext is ReadFile that stops, returning ctx's error, once ctx
// ends.
func ReadFileContext(ctx context.Context, path string) (*Journal, error) {
	j := &Journal{}
	m, err := ScanContext(ctx, path, func(e event.Event) error {
		j.Events = append(j.Events, e)
		return nil
	})
	j.Meta = m
	if err != nil {
		return nil, err
	}
	return j, nil
}

// Summarize streams the journal at path through scoring's fold — the one the
// live run uses — and returns the recomputed summary, with bounded memory
// (it grows with the number of emails, not events).
func Summarize(path string) (scoring.Summary, Meta, error) {
	return SummarizeContext(context.Background(), path)
}

// SummarizeContext is Summarize that stops, returning ctx's error, once ctx
// ends.
func SummarizeContext(ctx context.Context, path string) (scoring.Summary, Meta, error) {
	f := scoring.NewFold()
	m, err := ScanContext(ctx, path, func(e event.Event) error {
		f.Add(e)
		return nil
	})
	if err != nil {
		return scoring.Summary{}, m, err
	}
	return f.Summary(), m, nil
}
