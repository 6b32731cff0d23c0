package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/internal/session"
)

// tableFormat is --format: how compare and sweep print their tables.
type tableFormat string

var tableFormats = []string{plain.FormatAuto, plain.FormatText, plain.FormatMD}

func (f *tableFormat) String() string { return string(*f) }
func (f *tableFormat) Type() string   { return "format" }
func (f *tableFormat) Set(s string) error {
	if !slices.Contains(tableFormats, s) {
		return fmt.Errorf("unknown format %q (valid: %s)", s, strings.Join(tableFormats, ", "))
	}
	*f = tableFormat(s)
	return nil
}

// registerTableFormat adds --format to fs.
func registerTableFormat(fs *pflag.FlagSet, f *tableFormat) {
	*f = plain.FormatAuto
	fs.Var(f, "format", "the table's format: text (aligned columns, wrapped to the terminal), md (Markdown), "+
		"or auto (text on a terminal, Markdown in a file or a pipe)")
}

// width is the terminal width the table is written as text for, or -1
// when it is written as Markdown: auto is text on a terminal only.
func (f tableFormat) width(out io.Writer) int {
	w := session.TerminalWidth(out)
	switch {
	case f == plain.FormatMD, f == plain.FormatAuto && w == 0:
		return -1
	}
	return w
}

// write prints t in the format asked for: Markdown through md (the
// command's own Markdown writer), else aligned text for the terminal.
func (f tableFormat) write(out io.Writer, t plain.Table, md func() error) error {
	w := f.width(out)
	if w < 0 {
		return md()
	}
	return t.Text(out, w)
}

// writeTable writes a plain table in the format asked for, its Markdown
// being plain.Table's own.
func (f tableFormat) writeTable(out io.Writer, t plain.Table) error {
	return f.write(out, t, func() error { return t.Markdown(out) })
}
