package outfile

import (
	"os"
	"path/filepath"
	"testing"
)

// TestWriteWhole: the file holds the data, readable by all, and no
// temporary file is left beside it; into a folder that does not exist it
// fails naming the file, and leaves nothing.
func TestWriteWhole(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.html")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteWhole(path, []byte("new")); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil || string(b) != "new" {
		t.Errorf("read back %q, %v; want new", b, err)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, %v; want 0644", st.Mode().Perm(), err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d entries in the folder, want the file alone", len(entries))
	}
	missing := filepath.Join(dir, "none", "out.html")
	if err := WriteWhole(missing, []byte("x")); err == nil {
		t.Error("writing into a missing folder succeeded")
	}
}
