package outfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drill-dev/drill/internal/exit"
)

// TestCheck: an input is refused under any spelling (the path itself, a
// symbolic link, a hard link), --force or not; an existing file without
// --force; a missing directory; a new file passes.
func TestCheck(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.jsonl")
	if err := os.WriteFile(in, []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sym, hard := filepath.Join(dir, "sym.jsonl"), filepath.Join(dir, "hard.jsonl")
	if err := os.Symlink(in, sym); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(in, hard); err != nil {
		t.Fatal(err)
	}
	inputs := []string{in}
	for _, tc := range []struct {
		path  string
		force bool
		want  string // "" passes
	}{
		{in, true, "inputs"},
		{filepath.Join(dir, ".", "in.jsonl"), true, "inputs"},
		{sym, true, "inputs"},
		{hard, true, "inputs"},
		{hard, false, "inputs"},
		{filepath.Join(dir, "other"), false, ""},
		{filepath.Join(dir, "nodir", "x.jsonl"), true, "no such file"},
		{"", false, ""},
	} {
		err := Check("-o", tc.path, tc.force, inputs)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("Check(%q, force %v) = %v, want nil", tc.path, tc.force, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || exit.Code(err) != 2):
			t.Errorf("Check(%q, force %v) = %v, want a usage error naming %q", tc.path, tc.force, err, tc.want)
		}
	}
	existing := filepath.Join(dir, "old.html")
	if err := os.WriteFile(existing, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Check("-o", existing, false, inputs); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Errorf("an existing file without --force: %v", err)
	}
	if err := Check("-o", existing, true, inputs); err != nil {
		t.Errorf("an existing file with --force: %v", err)
	}
}
