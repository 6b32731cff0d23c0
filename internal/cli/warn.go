package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/internal/session"
)

// Warn prints warnings on stderr, one PrintWarning each.
func Warn(stderr io.Writer, warnings []string) {
	for _, w := range warnings {
		PrintWarning(stderr, w)
	}
}

// PrintWarning prints one warning, wrapped at words to the terminal's
// width when stderr is a terminal.
func PrintWarning(stderr io.Writer, warning string) {
	text := "drill: warning: " + warning
	if w := session.TerminalWidth(stderr); w > 0 {
		text = strings.Join(plain.WrapWords(text, w), "\n")
	}
	fmt.Fprintln(stderr, text)
}

// FirstErr is err unless it is nil, then then.
func FirstErr(err, then error) error {
	if err != nil {
		return err
	}
	return then
}
