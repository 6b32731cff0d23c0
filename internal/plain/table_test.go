package plain

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

var testTable = Table{
	Head: []string{"Outage", "Policy", "Calls to broken model, outage", "Status"},
	Rows: [][]string{
		{"busy", "primary-only", "148", "completed"},
		{"hang", "fail-fast", "11", "interrupted: 109 of 120 sent (11 not sent: run stopped), 106 answered"},
	},
}

// Text aligns every column: each cell of a column starts at the same cell
// of its line, headers wrap at their words, a rule is under them, and no
// Markdown pipe is left.
func TestTableTextAligned(t *testing.T) {
	var b bytes.Buffer
	if err := testTable.Text(&b, 0); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.Contains(out, "|") {
		t.Errorf("Markdown in the text table:\n%s", out)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	rule := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "─") {
			rule = i
		}
	}
	if rule < 1 || len(lines) != rule+3 {
		t.Fatalf("want header lines, a rule and 2 rows:\n%s", out)
	}
	if rule > 2 {
		t.Errorf("headers take %d lines where the width allows two:\n%s", rule, out)
	}
	// Every column starts where its rule segment starts.
	var starts []int
	r := []rune(lines[rule])
	for i := range r {
		if r[i] == '─' && (i == 0 || r[i-1] == ' ') {
			starts = append(starts, i)
		}
	}
	if len(starts) != 4 {
		t.Fatalf("rule %q: %d columns", lines[rule], len(starts))
	}
	for _, l := range lines[rule+1:] {
		rl := []rune(l)
		for c, s := range starts {
			if s >= len(rl) || rl[s] == ' ' || (s > 0 && rl[s-1] != ' ') {
				t.Errorf("column %d does not start at cell %d in %q", c, s, l)
			}
		}
	}
	if !strings.Contains(out, "interrupted: 109 of 120 sent (11 not sent: run stopped), 106 answered") {
		t.Errorf("a cell was changed:\n%s", out)
	}
}

// A terminal too narrow for the columns gets the table on its side: no
// line wider than the terminal, every header and every word of every cell.
func TestTableTextTransposedFitsWidth(t *testing.T) {
	var b bytes.Buffer
	if err := testTable.Text(&b, 60); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, l := range strings.Split(out, "\n") {
		if n := utf8.RuneCountInString(l); n > 60 {
			t.Errorf("line of %d cells at width 60: %q", n, l)
		}
	}
	for _, h := range testTable.Head {
		if !strings.Contains(out, h) {
			t.Errorf("header %q missing:\n%s", h, out)
		}
	}
	for _, r := range testTable.Rows {
		for _, c := range r {
			for _, w := range strings.Fields(c) {
				if !strings.Contains(out, w) {
					t.Errorf("word %q of cell %q missing:\n%s", w, c, out)
				}
			}
		}
	}
}

// Markdown is the pipe table compare and sweep always wrote.
func TestTableMarkdown(t *testing.T) {
	var b bytes.Buffer
	if err := testTable.Markdown(&b); err != nil {
		t.Fatal(err)
	}
	want := "| Outage | Policy | Calls to broken model, outage | Status |\n| --- | --- | --- | --- |\n| busy | primary-only | 148 | completed |\n"
	if !strings.HasPrefix(b.String(), want) {
		t.Errorf("got\n%s\nwant a start of\n%s", b.String(), want)
	}
}
