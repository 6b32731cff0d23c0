package report

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ErrFormat means the output file's extension names no report format.
var ErrFormat = errors.New("report: unknown output format (want .html or .md)")

// WriteFile writes the report to out: HTML for .html or .htm, Markdown (with
// its charts beside it) for .md or .markdown.
func (r *Report) WriteFile(out string) error {
	switch strings.ToLower(filepath.Ext(out)) {
	case ".html", ".htm":
		f, err := os.Create(out)
		if err != nil {
			return fmt.Errorf("report: %w", err)
		}
		if err := r.WriteHTML(f); err != nil {
			_ = f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return fmt.Errorf("report: closing %s: %w", out, err)
		}
		return nil
	case ".md", ".markdown":
		return r.WriteMarkdown(out)
	default:
		return fmt.Errorf("%w: %s", ErrFormat, out)
	}
}
