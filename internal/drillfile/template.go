package drillfile

import (
	_ "embed"
	"errors"
	"fmt"
	"os"

	"github.com/drill-dev/drill/internal/exit"
)

// Template is the commented example `drill init` writes: every field, with
// the defaults, and the chapter's busy outage against two policies.
//
//go:embed template.yaml
var Template []byte

// WriteTemplate writes Template to a new file at path. An existing file is
// an error wrapping os.ErrExist unless overwrite is set; a file that
// cannot be created is a usage error (exit 2).
func WriteTemplate(path string, overwrite bool) error {
	flag := os.O_WRONLY | os.O_CREATE | os.O_EXCL
	if overwrite {
		flag = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	}
	out, err := os.OpenFile(path, flag, 0o644)
	if errors.Is(err, os.ErrExist) {
		return err
	}
	if err != nil {
		return exit.UsageError(fmt.Errorf("writing the drill file: %w", err))
	}
	if _, err := out.Write(Template); err != nil {
		_ = out.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := out.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
