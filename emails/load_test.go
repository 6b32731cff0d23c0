package emails

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/drill-dev/drill/internal/answer"
)

func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadJSONL(t *testing.T) {
	p := writeFile(t, "mine.jsonl", `{"id": 7, "from": "a@example.com", "subject": "Pad", "body": "Return the pad, order dr 123-456.", "truth": {"intent": "Return", "order_number": "dr 123-456", "product": "cloudrest sleeping pad", "urgency": "normal"}}

{"id": 3, "from": "b@example.com", "subject": "Hi", "body": "Where is it?"}
`)
	es, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 2 || es[0].ID != 7 || es[1].ID != 3 {
		t.Fatalf("got %+v", es)
	}
	want := answer.Answer{Intent: "return", OrderNumber: "DR-123456", Product: "Cloudrest Sleeping Pad", Urgency: "normal"}
	if es[0].Truth != want || es[0].Unscored {
		t.Errorf("truth %+v unscored %v, want %+v normalised", es[0].Truth, es[0].Unscored, want)
	}
	if !es[1].Unscored || es[1].Truth != (answer.Answer{}) {
		t.Errorf("email without truth: %+v", es[1])
	}
}

func TestLoadCSV(t *testing.T) {
	p := writeFile(t, "mine.csv", "id,from,subject,body,intent,order_number,product,urgency\n"+
		"1,a@example.com,Pad,\"Two lines,\nwith a comma\",return,#123456,Cloudrest Sleeping Pad,normal\n"+
		"2,b@example.com,Hi,Thanks!,,,,\n")
	es, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 2 || es[0].Body != "Two lines,\nwith a comma" || es[0].Truth.OrderNumber != "DR-123456" || es[0].Unscored || !es[1].Unscored {
		t.Fatalf("got %+v", es)
	}
	// Sniffed without an extension, and without truth columns.
	p = writeFile(t, "mine", "id,from,subject,body\n5,c@example.com,S,B\n")
	es, err = Load(p)
	if err != nil || len(es) != 1 || es[0].ID != 5 || !es[0].Unscored {
		t.Fatalf("sniffed CSV: %+v, %v", es, err)
	}
}

// TestLoadErrors checks that each bad file names its file, line and field,
// and that closed-set errors list the valid values.
func TestLoadErrors(t *testing.T) {
	good := `{"id": 1, "from": "a", "subject": "s", "body": "b"}` + "\n"
	for _, c := range []struct {
		name, file, text string
		line             int
		field            string
		mentions         []string
	}{
		{"not json", "x.jsonl", good + "{oops\n", 2, "", []string{"not a JSON object"}},
		{"latin-1 csv", "x.csv", "id,from,subject,body\n1,a,Caf\xe9,b\n", 2, "subject", []string{"not UTF-8", "byte 3", "Latin-1"}},
		{"unknown key", "x.jsonl", `{"id": 1, "from": "a", "subject": "s", "body": "b", "colour": 1}`, 1, "colour", []string{"id, from, subject, body, truth"}},
		{"missing body", "x.jsonl", `{"id": 1, "from": "a", "subject": "s"}`, 1, "body", []string{"missing"}},
		{"id string", "x.jsonl", `{"id": "1", "from": "a", "subject": "s", "body": "b"}`, 1, "id", nil},
		{"id fraction", "x.jsonl", `{"id": 1.5, "from": "a", "subject": "s", "body": "b"}`, 1, "id", nil},
		{"id zero", "x.jsonl", `{"id": 0, "from": "a", "subject": "s", "body": "b"}`, 1, "id", []string{"positive"}},
		{"duplicate id", "x.jsonl", good + "\n" + good, 3, "id", []string{"first on line 1"}},
		{"empty body", "x.jsonl", `{"id": 1, "from": "a", "subject": "s", "body": "  "}`, 1, "body", nil},
		{"bad intent", "x.jsonl", `{"id": 1, "from": "a", "subject": "s", "body": "b", "truth": {"intent": "chat", "order_number": "", "product": "", "urgency": "low"}}`, 1, "truth.intent", answer.Intents},
		{"bad product", "x.jsonl", `{"id": 1, "from": "a", "subject": "s", "body": "b", "truth": {"intent": "return", "order_number": "", "product": "Hammock", "urgency": "low"}}`, 1, "truth.product", answer.Products},
		{"bad urgency", "x.jsonl", `{"id": 1, "from": "a", "subject": "s", "body": "b", "truth": {"intent": "return", "order_number": "", "product": "", "urgency": "asap"}}`, 1, "truth.urgency", answer.Urgencies},
		{"bad order", "x.jsonl", `{"id": 1, "from": "a", "subject": "s", "body": "b", "truth": {"intent": "return", "order_number": "DR-banana", "product": "", "urgency": "low"}}`, 1, "truth.order_number", []string{"DR-123456"}},
		{"truth missing field", "x.jsonl", `{"id": 1, "from": "a", "subject": "s", "body": "b", "truth": {"intent": "return", "product": "", "urgency": "low"}}`, 1, "truth.order_number", nil},
		{"truth unknown field", "x.jsonl", `{"id": 1, "from": "a", "subject": "s", "body": "b", "truth": {"intent": "return", "order_number": "", "product": "", "urgency": "low", "mood": "x"}}`, 1, "truth", []string{"intent, order_number"}},
		{"empty", "x.jsonl", "\n\n", 0, "", []string{"no emails"}},
		{"csv missing column", "x.csv", "id,from,body\n1,a,b\n", 1, "subject", []string{"missing column"}},
		{"csv unknown column", "x.csv", "id,from,subject,body,mood\n", 1, "mood", []string{"valid: id, from, subject, body"}},
		{"csv partial truth", "x.csv", "id,from,subject,body,intent\n", 1, "order_number", nil},
		{"csv bad urgency", "x.csv", "id,from,subject,body,intent,order_number,product,urgency\n1,a,s,b,return,,,soon\n", 2, "urgency", answer.Urgencies},
		{"csv bad id", "x.csv", "id,from,subject,body\n1,a,s,b\nx,a,s,b\n", 3, "id", nil},
		{"csv ragged", "x.csv", "id,from,subject,body\n1,a,s\n", 2, "", []string{"wrong number of fields"}},
		{"csv empty", "x.csv", "", 1, "", []string{"header"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := writeFile(t, c.file, c.text)
			_, err := Load(p)
			var le *LoadError
			if !errors.As(err, &le) {
				t.Fatalf("Load = %v, want a *LoadError", err)
			}
			if le.File != p || le.Line != c.line || le.Field != c.field {
				t.Errorf("error at %s:%d field %q, want line %d field %q: %v", le.File, le.Line, le.Field, c.line, c.field, err)
			}
			for _, m := range c.mentions {
				if !strings.Contains(err.Error(), m) {
					t.Errorf("error %q does not mention %q", err, m)
				}
			}
		})
	}
}

func TestLoadNotAFile(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{dir, filepath.Join(dir, "missing.jsonl")} {
		_, err := Load(p)
		var le *LoadError
		if !errors.As(err, &le) || le.File != p {
			t.Errorf("Load(%s) = %v, want a *LoadError naming it", p, err)
		}
	}
}

func TestLoadLongLine(t *testing.T) {
	p := writeFile(t, "big.jsonl", `{"id": 1, "from": "a", "subject": "s", "body": "`+strings.Repeat("x", MaxEmailBytes+10)+`"}`)
	_, err := Load(p)
	var le *LoadError
	if !errors.As(err, &le) || le.Line != 1 {
		t.Errorf("Load = %v, want a line-1 error", err)
	}
}

// countingReader counts the bytes read from it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// TestCSVLongFieldStopsEarly: a CSV record far past MaxEmailBytes (one
// quoted field of 64 MiB, with and without newlines in it) is refused
// having read a bounded part of it, not read whole first.
func TestCSVLongFieldStopsEarly(t *testing.T) {
	const huge = 64 << 20
	for name, fill := range map[string]string{"one line": "x", "many lines": "x\n"} {
		field := io.LimitReader(&repeatReader{b: []byte(fill)}, huge)
		src := &countingReader{r: io.MultiReader(strings.NewReader("id,from,subject,body\n1,a,s,\""), field, strings.NewReader("\"\n"))}
		_, err := ReadCSV("big.csv", src)
		var le *LoadError
		if !errors.As(err, &le) || !strings.Contains(err.Error(), "longer than") {
			t.Errorf("%s: ReadCSV = %v, want a *LoadError saying the record is too long", name, err)
		}
		if limit := int64(3 * MaxEmailBytes); src.n > limit {
			t.Errorf("%s: read %d bytes before refusing, want at most %d", name, src.n, limit)
		}
	}
}

// repeatReader repeats b without end.
type repeatReader struct{ b []byte }

func (r *repeatReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = r.b[i%len(r.b)]
	}
	return len(p) - len(p)%len(r.b), nil
}

// TestLoadNamedPipe: an email file that is a named pipe with no writer is
// an error naming it, not a hang.
func TestLoadNamedPipe(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "emails.jsonl")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(fifo)
	var le *LoadError
	if !errors.As(err, &le) || le.File != fifo || !strings.Contains(err.Error(), "named pipe") {
		t.Errorf("Load(fifo) = %v, want a *LoadError naming the pipe", err)
	}
}

// TestLoadFirstStopsReading: LoadFirst reads the first n emails and no
// further: a file whose fourth line is broken loads its first 3, as CSV and
// as JSON Lines, while Load (every email) refuses it at line 4.
func TestLoadFirstStopsReading(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"e.jsonl": `{"id": 1, "from": "a@example.com", "subject": "s", "body": "b"}
{"id": 2, "from": "a@example.com", "subject": "s", "body": "b"}
{"id": 3, "from": "a@example.com", "subject": "s", "body": "b"}
not json at all
`,
		"e.csv": "id,from,subject,body\n1,a@example.com,s,b\n2,a@example.com,s,b\n3,a@example.com,s,b\nx,a@example.com,s,b\n",
	}
	for name, body := range files {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		set, err := LoadFirst(path, 3)
		if err != nil || len(set) != 3 || set[2].ID != 3 {
			t.Errorf("%s: LoadFirst(3) = %d emails, %v; want the first 3", name, len(set), err)
		}
		if _, err := Load(path); err == nil {
			t.Errorf("%s: Load read every email without refusing the broken one", name)
		}
	}
}
