package plain

import (
	"io"
	"slices"
	"strings"
	"unicode/utf8"
)

// Table is a table a command prints: a header cell per column and rows of
// cells. On a terminal it is written as aligned text (Text), in a file or a
// pipe, or with --format md, as Markdown (Markdown).
type Table struct {
	Head []string
	Rows [][]string
}

// Table formats a command's --format flag accepts.
const (
	FormatAuto = "auto" // aligned text on a terminal, else Markdown
	FormatText = "text" // aligned text
	FormatMD   = "md"   // Markdown
)

// Markdown writes the table as a Markdown table: a header row, the
// delimiter row and a row per table row. Cells are written as they are.
func (t Table) Markdown(w io.Writer) error {
	var b strings.Builder
	b.WriteString("| " + strings.Join(t.Head, " | ") + " |\n|")
	b.WriteString(strings.Repeat(" --- |", len(t.Head)) + "\n")
	for _, r := range t.Rows {
		b.WriteString("| " + strings.Join(r, " | ") + " |\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Text writes the table as aligned text for a terminal width cells wide:
// columns two spaces apart, each as wide as its widest cell or the longest
// word of its header (headers wrap at their spaces onto more lines), a rule
// under the header. When the columns are wider than width (> 0) together,
// the table is written on its side instead (transposed), so no line runs
// past the terminal.
func (t Table) Text(w io.Writer, width int) error {
	n := len(t.Head)
	cols := make([]int, n)
	for c, h := range t.Head {
		for _, word := range strings.Fields(h) {
			cols[c] = max(cols[c], utf8.RuneCountInString(word))
		}
		for _, r := range t.Rows {
			if c < len(r) {
				cols[c] = max(cols[c], utf8.RuneCountInString(r[c]))
			}
		}
	}
	total := func(cols []int) int {
		sum := 2 * max(n-1, 0)
		for _, c := range cols {
			sum += c
		}
		return sum
	}
	if width > 0 && total(cols) > width {
		return t.transposed(w, width)
	}
	// Where the width allows, widen columns so every header takes at most
	// two lines.
	wider := slices.Clone(cols)
	for c, h := range t.Head {
		for len(WrapWords(h, wider[c])) > 2 {
			wider[c]++
		}
	}
	if width == 0 || total(wider) <= width {
		cols = wider
	}
	heads := make([][]string, n)
	lines := 0
	for c, h := range t.Head {
		heads[c] = WrapWords(h, cols[c])
		lines = max(lines, len(heads[c]))
	}
	var b strings.Builder
	writeRow := func(cells func(c int) string) {
		var sb strings.Builder
		for c := range n {
			cell := cells(c)
			if c > 0 {
				sb.WriteString("  ")
			}
			sb.WriteString(cell)
			if c < n-1 {
				sb.WriteString(strings.Repeat(" ", cols[c]-utf8.RuneCountInString(cell)))
			}
		}
		b.WriteString(strings.TrimRight(sb.String(), " ") + "\n")
	}
	for l := range lines {
		// Headers sit on the rule: a shorter one starts lower.
		writeRow(func(c int) string {
			if k := l - (lines - len(heads[c])); k >= 0 {
				return heads[c][k]
			}
			return ""
		})
	}
	writeRow(func(c int) string { return strings.Repeat("─", cols[c]) })
	for _, r := range t.Rows {
		writeRow(func(c int) string {
			if c < len(r) {
				return r[c]
			}
			return ""
		})
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// transposed writes the table turned on its side for a terminal too
// narrow for its columns: a line per header, a column per row, as many rows
// side by side as fit in width, the next ones in another block a blank line
// below. A cell wider than the room left wraps at its words.
func (t Table) transposed(w io.Writer, width int) error {
	keyW := 0
	for _, h := range t.Head {
		keyW = max(keyW, utf8.RuneCountInString(h))
	}
	room := max(width-keyW-2, 10)
	cell := func(r []string, c int) string {
		if c < len(r) {
			return r[c]
		}
		return ""
	}
	colW := make([]int, len(t.Rows))
	for i, r := range t.Rows {
		for c := range t.Head {
			colW[i] = max(colW[i], utf8.RuneCountInString(cell(r, c)))
		}
		colW[i] = min(colW[i], room)
	}
	var b strings.Builder
	for lo := 0; lo < len(t.Rows); {
		hi, used := lo+1, keyW+2+colW[lo]
		for hi < len(t.Rows) && used+2+colW[hi] <= width {
			used += 2 + colW[hi]
			hi++
		}
		if lo > 0 {
			b.WriteString("\n")
		}
		for c, h := range t.Head {
			cells := make([][]string, hi-lo)
			lines := 1
			for i := lo; i < hi; i++ {
				cells[i-lo] = WrapWords(cell(t.Rows[i], c), colW[i])
				lines = max(lines, len(cells[i-lo]))
			}
			for l := range lines {
				var sb strings.Builder
				k := ""
				if l == 0 {
					k = h
				}
				sb.WriteString(k + strings.Repeat(" ", keyW-utf8.RuneCountInString(k)))
				for i := lo; i < hi; i++ {
					v := ""
					if l < len(cells[i-lo]) {
						v = cells[i-lo][l]
					}
					sb.WriteString("  " + v + strings.Repeat(" ", colW[i]-utf8.RuneCountInString(v)))
				}
				b.WriteString(strings.TrimRight(sb.String(), " ") + "\n")
			}
		}
		lo = hi
	}
	_, err := io.WriteString(w, b.String())
	return err
}
