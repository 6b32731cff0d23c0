package emails

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/drill-dev/drill/internal/answer"
	"github.com/drill-dev/drill/internal/input"
)

// MaxFileEmails is the most emails Load accepts from one file.
const MaxFileEmails = 1_000_000

// MaxEmailBytes is the longest line (JSONL) or record (CSV) Load accepts:
// the fake model's request limit.
const MaxEmailBytes = 4 << 20

// LoadError is a problem in a team's email file: the file, the 1-based line
// and the field (empty when the whole line is at fault). Commands report it
// as bad input (exit 2).
type LoadError struct {
	File  string
	Line  int
	Field string
	Msg   string
}

// Error reads "FILE:LINE: field F: MSG".
func (e *LoadError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	if e.Field != "" {
		fmt.Fprintf(&b, "field %q: ", e.Field)
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Load reads a team's own emails from path: JSON Lines (one object a line
// with "id", "from", "subject", "body" and an optional "truth" holding the
// four answer fields) or CSV with a header row naming the same columns
// (id, from, subject, body and optionally intent, order_number, product,
// urgency). Files ending in .csv are CSV; .jsonl, .ndjson and .json are JSON
// Lines; any other name is sniffed (a first non-blank byte '{' means JSON
// Lines).
//
// IDs are positive integers, unique in the file. An email without a truth is
// loaded with Unscored set. Truth values must be in the closed sets (the
// order number in any usual spelling of DR-123456, or empty) and are
// returned normalised. Emails keep the file's order. Every problem is a
// *LoadError naming the file, line and field; a file with no emails is an
// error too.
func Load(path string) ([]Email, error) {
	return LoadFirst(path, 0)
}

// LoadFirst is Load reading only the first n emails of the file (all of
// them when n is not above 0): it stops reading there, so a drill that
// sends 3 emails from a file of a million reads 3 (it read them all, past
// 2 GB). Problems after the n-th email are not looked for.
func LoadFirst(path string, n int) ([]Email, error) {
	f, err := input.Open(path, fileKind)
	if err != nil {
		return nil, &LoadError{File: path, Msg: errMsg(err)}
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	csvFormat := false
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv":
		csvFormat = true
	case ".jsonl", ".ndjson", ".json":
	default:
		csvFormat = !startsWithBrace(br)
	}
	if csvFormat {
		return readCSV(path, br, n)
	}
	return readJSONL(path, br, n)
}

// fileKind is how input names an email file. The file is streamed and each
// line or record bounded (MaxEmailBytes), the count by MaxFileEmails.
var fileKind = input.Kind{Name: "an email file", Want: "an email file is JSON Lines or CSV"}

// errMsg is err without the file name LoadError adds.
func errMsg(err error) string {
	var fe *input.FileError
	if errors.As(err, &fe) {
		return fe.Detail
	}
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// startsWithBrace reports whether the first non-blank byte is '{'.
func startsWithBrace(br *bufio.Reader) bool {
	for n := 1; n <= 4096; n++ {
		b, _ := br.Peek(n)
		if len(b) < n {
			return false
		}
		switch c := b[n-1]; c {
		case ' ', '\t', '\r', '\n', 0xEF, 0xBB, 0xBF: // blanks and a UTF-8 byte-order mark
			continue
		default:
			return c == '{'
		}
	}
	return false
}

// fileTruth is the truth as written in a JSONL file; every key is required
// when truth is given.
type fileTruth struct {
	Intent      *string `json:"intent"`
	OrderNumber *string `json:"order_number"`
	Product     *string `json:"product"`
	Urgency     *string `json:"urgency"`
}

// ReadJSONL reads emails in JSON Lines from r; name is the file name used in
// errors. Blank lines are skipped. See Load for the format.
func ReadJSONL(name string, r io.Reader) ([]Email, error) {
	return readJSONL(name, r, 0)
}

// readJSONL is ReadJSONL stopping after limit emails (none: 0).
func readJSONL(name string, r io.Reader, limit int) ([]Email, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	ld := newLoader(name)
	for line := 1; !ld.full(limit); line++ {
		raw, err := readLine(br)
		if err == errLineTooLong {
			return nil, &LoadError{File: name, Line: line, Msg: fmt.Sprintf("line longer than %d bytes", MaxEmailBytes)}
		}
		if err != nil && err != io.EOF {
			return nil, &LoadError{File: name, Line: line, Msg: err.Error()}
		}
		if line == 1 {
			raw = bytes.TrimPrefix(raw, []byte("\xEF\xBB\xBF"))
		}
		if t := bytes.TrimSpace(raw); len(t) > 0 {
			if e := ld.jsonLine(line, t); e != nil {
				return nil, e
			}
		}
		if err == io.EOF {
			break
		}
	}
	return ld.done()
}

var errLineTooLong = errors.New("line too long")

// readLine reads one line without its newline, at most MaxEmailBytes long.
func readLine(br *bufio.Reader) ([]byte, error) {
	var out []byte
	for {
		chunk, err := br.ReadSlice('\n')
		out = append(out, chunk...)
		if len(out) > MaxEmailBytes+1 {
			return nil, errLineTooLong
		}
		switch err {
		case nil:
			return bytes.TrimSuffix(out, []byte("\n")), nil
		case bufio.ErrBufferFull:
			continue
		default:
			return out, err
		}
	}
}

func (ld *loader) jsonLine(line int, t []byte) *LoadError {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(t, &m); err != nil || m == nil {
		msg := "not a JSON object"
		var se *json.SyntaxError
		if errors.As(err, &se) {
			msg = fmt.Sprintf("not a JSON object: %v (at byte %d)", se, se.Offset)
		}
		return ld.err(line, "", "%s", msg)
	}
	for k := range m {
		if !slices.Contains(columns, k) && k != "truth" && k != ClassColumn {
			return ld.err(line, k, "unknown field (valid: %s, truth, %s)", strings.Join(columns, ", "), ClassColumn)
		}
	}
	var e Email
	raw, ok := m["id"]
	if !ok {
		return ld.err(line, "id", "missing")
	}
	var id json.Number
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] == '"' {
		return ld.err(line, "id", "not a number: %s", short(raw))
	}
	if err := json.Unmarshal(raw, &id); err != nil {
		return ld.err(line, "id", "not a number: %s", short(raw))
	}
	n, err := strconv.Atoi(id.String())
	if err != nil {
		return ld.err(line, "id", "not a whole number: %s", id)
	}
	e.ID = n
	for _, c := range []struct {
		key string
		dst *string
	}{{"from", &e.From}, {"subject", &e.Subject}, {"body", &e.Body}} {
		raw, ok := m[c.key]
		if !ok {
			return ld.err(line, c.key, "missing")
		}
		if err := json.Unmarshal(raw, c.dst); err != nil || isNull(raw) {
			return ld.err(line, c.key, "not a string: %s", short(raw))
		}
	}
	if raw, ok := m[ClassColumn]; ok && !isNull(raw) {
		if err := json.Unmarshal(raw, &e.Class); err != nil {
			return ld.err(line, ClassColumn, "not a string: %s", short(raw))
		}
	}
	e.Unscored = true
	if raw, ok := m["truth"]; ok && !isNull(raw) {
		var ft fileTruth
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&ft); err != nil {
			msg := err.Error()
			if strings.Contains(msg, "unknown field") {
				msg = fmt.Sprintf("%s (valid: %s)", msg, strings.Join(answer.Fields[:], ", "))
			}
			return ld.err(line, "truth", "%s", msg)
		}
		vals := [4]*string{ft.Intent, ft.OrderNumber, ft.Product, ft.Urgency}
		for i, f := range answer.Fields {
			if vals[i] == nil {
				return ld.err(line, "truth."+f, "missing (a truth has all four fields; order_number and product may be \"\")")
			}
			e.Truth.SetField(f, *vals[i])
		}
		e.Unscored = false
	}
	return ld.add(line, e, "truth.")
}

func isNull(b json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(b), []byte("null")) }

func short(b []byte) string {
	s := string(bytes.TrimSpace(b))
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return s
}

// ClassColumn is the optional column of a team's email file naming the
// email's class (a form's category, a queue): routes may match on it.
const ClassColumn = "class"

// columns are the email's own columns, in file order.
var columns = []string{"id", "from", "subject", "body"}

// ReadCSV reads emails in CSV from r; name is the file name used in errors.
// The first record is the header: id, from, subject and body are required
// columns; intent, order_number, product and urgency (or truth.intent, ...)
// are optional and, when present, hold the truth (a row with all four empty
// is unscored). See Load.
func ReadCSV(name string, r io.Reader) ([]Email, error) {
	return readCSV(name, r, 0)
}

// readCSV is ReadCSV stopping after limit emails (none: 0).
func readCSV(name string, r io.Reader, limit int) ([]Email, error) {
	// encoding/csv reads a whole record before returning it: bound the
	// bytes it may take for one, so a huge field stops at the limit.
	bound := &recordBound{r: r}
	cr := csv.NewReader(bound)
	cr.FieldsPerRecord = 0
	cr.ReuseRecord = false
	header, err := cr.Read()
	if err == io.EOF {
		return nil, &LoadError{File: name, Line: 1, Msg: "empty file: want a header row with id, from, subject, body"}
	}
	if err != nil {
		return nil, csvErr(name, err)
	}
	col, truthCols, le := csvColumns(name, header)
	if le != nil {
		return nil, le
	}
	ld := newLoader(name)
	for !ld.full(limit) {
		bound.next()
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if errors.Is(err, errRecordTooLong) {
			return nil, &LoadError{File: name, Msg: fmt.Sprintf("the record at byte %d is longer than %d bytes: an email is at most %d bytes (MaxEmailBytes); the rest of the file was not read",
				cr.InputOffset(), maxRecordBytes, MaxEmailBytes)}
		}
		if err != nil {
			return nil, csvErr(name, err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue
		}
		e, le := csvEmail(ld, line, rec, col, truthCols > 0)
		if le != nil {
			return nil, le
		}
		if le := ld.add(line, e, ""); le != nil {
			return nil, le
		}
	}
	return ld.done()
}

// csvColumns reads the header row: each column's index by name (truth.
// prefixes dropped), and how many truth columns there are (all four or
// none).
func csvColumns(name string, header []string) (map[string]int, int, *LoadError) {
	col := map[string]int{}
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\xEF\xBB\xBF")))
		h = strings.TrimPrefix(h, "truth.")
		if !slices.Contains(columns, h) && !answer.IsField(h) && h != ClassColumn {
			return nil, 0, &LoadError{File: name, Line: 1, Field: header[i], Msg: fmt.Sprintf("unknown column (valid: %s, %s, %s)",
				strings.Join(columns, ", "), strings.Join(answer.Fields[:], ", "), ClassColumn)}
		}
		if _, dup := col[h]; dup {
			return nil, 0, &LoadError{File: name, Line: 1, Field: h, Msg: "column named twice"}
		}
		col[h] = i
	}
	for _, c := range columns {
		if _, ok := col[c]; !ok {
			return nil, 0, &LoadError{File: name, Line: 1, Field: c, Msg: "missing column"}
		}
	}
	truthCols := 0
	for _, f := range answer.Fields {
		if _, ok := col[f]; ok {
			truthCols++
		}
	}
	if truthCols != 0 && truthCols != len(answer.Fields) {
		for _, f := range answer.Fields {
			if _, ok := col[f]; !ok {
				return nil, 0, &LoadError{File: name, Line: 1, Field: f, Msg: "missing column: truth columns come as all four (intent, order_number, product, urgency) or none"}
			}
		}
	}
	return col, truthCols, nil
}

// csvEmail reads one record as an email; truth says whether the file has
// the truth columns (a row with all four empty is unscored).
func csvEmail(ld *loader, line int, rec []string, col map[string]int, truth bool) (Email, *LoadError) {
	get := func(c string) string { return rec[col[c]] }
	var e Email
	idText := strings.TrimSpace(get("id"))
	n, err := strconv.Atoi(idText)
	if err != nil {
		return e, ld.err(line, "id", "not a whole number: %q", idText)
	}
	e.ID, e.From, e.Subject, e.Body = n, get("from"), get("subject"), get("body")
	if c, ok := col[ClassColumn]; ok {
		e.Class = strings.TrimSpace(rec[c])
	}
	e.Unscored = true
	if truth {
		empty := true
		for _, f := range answer.Fields {
			v := get(f)
			e.Truth.SetField(f, v)
			if strings.TrimSpace(v) != "" {
				empty = false
			}
		}
		e.Unscored = empty
	}
	return e, nil
}

// maxRecordBytes is the most bytes of a CSV file one record may take: an
// email of MaxEmailBytes with every quote doubled, and its other fields.
const maxRecordBytes = 2*MaxEmailBytes + 64<<10

var errRecordTooLong = errors.New("CSV record too long")

// recordBound passes reads through until maxRecordBytes have been read
// since next was last called, then fails with errRecordTooLong. The CSV
// reader's own buffer (4 KiB) reads ahead of the record it returns, well
// inside the slack of maxRecordBytes.
type recordBound struct {
	r io.Reader
	n int64
}

// next starts counting for the next record.
func (b *recordBound) next() { b.n = 0 }

func (b *recordBound) Read(p []byte) (int, error) {
	left := maxRecordBytes - b.n
	if left <= 0 {
		return 0, errRecordTooLong
	}
	if int64(len(p)) > left {
		p = p[:left]
	}
	n, err := b.r.Read(p)
	b.n += int64(n)
	return n, err
}

func csvErr(name string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &LoadError{File: name, Line: pe.Line, Msg: pe.Err.Error()}
	}
	return &LoadError{File: name, Msg: err.Error()}
}

// invalidAt is the offset of the first byte of s that is not UTF-8.
func invalidAt(s string) int {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				return i
			}
		}
	}
	return len(s)
}

// loader checks emails as they are read.
type loader struct {
	name  string
	out   []Email
	lines map[int]int // id -> line it was first seen on
}

func newLoader(name string) *loader { return &loader{name: name, lines: map[int]int{}} }

func (ld *loader) err(line int, field, format string, a ...any) *LoadError {
	return &LoadError{File: ld.name, Line: line, Field: field, Msg: fmt.Sprintf(format, a...)}
}

// add checks e and appends it; truthPrefix prefixes truth field names in
// errors ("truth." for JSONL, "" for CSV columns).
func (ld *loader) add(line int, e Email, truthPrefix string) *LoadError {
	if e.ID < 1 {
		return ld.err(line, "id", "must be a positive whole number, got %d", e.ID)
	}
	if first, dup := ld.lines[e.ID]; dup {
		return ld.err(line, "id", "%d is used twice (first on line %d)", e.ID, first)
	}
	// Text must be UTF-8 on both clocks alike: a Latin-1 file ran on the
	// real clock with its bytes mangled and failed on the virtual one.
	for _, f := range []struct{ name, text string }{{"from", e.From}, {"subject", e.Subject}, {"body", e.Body}} {
		if !utf8.ValidString(f.text) {
			return ld.err(line, f.name, "not UTF-8 text (byte %d is not; is the file Latin-1 or Windows-1252? save it as UTF-8)", invalidAt(f.text))
		}
	}
	if strings.TrimSpace(e.Body) == "" {
		return ld.err(line, "body", "empty")
	}
	if len(e.Body)+len(e.Subject)+len(e.From) > MaxEmailBytes {
		return ld.err(line, "body", "email longer than %d bytes", MaxEmailBytes)
	}
	if !e.Unscored {
		n := answer.Normalize(e.Truth)
		switch {
		case !slices.Contains(answer.Intents, n.Intent):
			return ld.err(line, truthPrefix+"intent", "%q is not an intent (valid: %s)", e.Truth.Intent, strings.Join(answer.Intents, ", "))
		case n.Product != "" && !slices.Contains(answer.Products, n.Product):
			return ld.err(line, truthPrefix+"product", "%q is not in the catalogue (valid: %s; or empty)", e.Truth.Product, strings.Join(answer.Products, "; "))
		case !slices.Contains(answer.Urgencies, n.Urgency):
			return ld.err(line, truthPrefix+"urgency", "%q is not an urgency (valid: %s)", e.Truth.Urgency, strings.Join(answer.Urgencies, ", "))
		}
		if err := n.Valid(); err != nil {
			return ld.err(line, truthPrefix+"order_number", "%v", err)
		}
		e.Truth = n
	}
	if len(ld.out) >= MaxFileEmails {
		return ld.err(line, "", "more than %d emails", MaxFileEmails)
	}
	ld.lines[e.ID] = line
	ld.out = append(ld.out, e)
	return nil
}

// full reports whether the loader holds limit emails (never, for a limit
// not above 0).
func (ld *loader) full(limit int) bool { return limit > 0 && len(ld.out) >= limit }

func (ld *loader) done() ([]Email, error) {
	if len(ld.out) == 0 {
		return nil, &LoadError{File: ld.name, Msg: "no emails in the file"}
	}
	return ld.out, nil
}
