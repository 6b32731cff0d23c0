package cli

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/internal/session"
)

// TableFormat is --format: how compare, sweep and the other table
// commands print their tables.
type TableFormat string

// tableFormats are the valid values of --format.
var tableFormats = []string{plain.FormatAuto, plain.FormatText, plain.FormatMD}

// String is the format's name.
func (f *TableFormat) String() string { return string(*f) }

// Type is the flag's type as help shows it.
func (f *TableFormat) Type() string { return "format" }

// Set sets the format, refusing an unknown one.
func (f *TableFormat) Set(s string) error {
	if !slices.Contains(tableFormats, s) {
		return fmt.Errorf("unknown format %q (valid: %s)", s, strings.Join(tableFormats, ", "))
	}
	*f = TableFormat(s)
	return nil
}

// RegisterTableFormat adds --format to fs.
func RegisterTableFormat(fs *pflag.FlagSet, f *TableFormat) {
	*f = plain.FormatAuto
	fs.Var(f, "format", "the table's format: text (aligned columns, wrapped to the terminal), md (Markdown), "+
		"or auto (text on a terminal, Markdown in a file or a pipe)")
}

// Width is the terminal width the table is written as text for, or -1
// when it is written as Markdown: auto is text on a terminal only.
func (f TableFormat) Width(out io.Writer) int {
	w := session.TerminalWidth(out)
	switch {
	case f == plain.FormatMD, f == plain.FormatAuto && w == 0:
		return -1
	}
	return w
}

// Write prints t in the format asked for: Markdown through md (the
// command's own Markdown writer), else aligned text for the terminal.
func (f TableFormat) Write(out io.Writer, t plain.Table, md func() error) error {
	w := f.Width(out)
	if w < 0 {
		return md()
	}
	return t.Text(out, w)
}

// WriteTable writes a plain table in the format asked for, its Markdown
// being plain.Table's own.
func (f TableFormat) WriteTable(out io.Writer, t plain.Table) error {
	return f.Write(out, t, func() error { return t.Markdown(out) })
}
