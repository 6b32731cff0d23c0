package plan

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drill-dev/drill/internal/drillfile"
)

// TestDrillFileEmailsFileReadsOnlyAsFarAsAsked: a drill file's
// workload.emails_file with workload.emails: 3 reads the first 3 emails
// and stops, as --emails 3 --emails-file does (the drill file read the
// whole file: a million rows past 2 GB to send 3): a file broken after
// its third email runs, and the whole file is read only when every email
// is asked for.
func TestDrillFileEmailsFileReadsOnlyAsFarAsAsked(t *testing.T) {
	dir := t.TempDir()
	body := `{"id": 1, "from": "a@example.com", "subject": "Late order", "body": "Where is DR-123456?"}
{"id": 2, "from": "a@example.com", "subject": "Late order", "body": "Where is DR-123457?"}
{"id": 3, "from": "a@example.com", "subject": "Late order", "body": "Where is DR-123458?"}
` + strings.Repeat("x", 1000) + "\n"
	if err := os.WriteFile(filepath.Join(dir, "mine.jsonl"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "d.yaml")
	f, err := drillfile.Parse(path, []byte("workload: {emails_file: mine.jsonl, emails: 3}\n"))
	if err != nil {
		t.Fatal(err)
	}
	runs, err := Runs(f)
	if err != nil {
		t.Fatalf("emails: 3 from a file broken at its fourth line: %v", err)
	}
	if got := runs[0].Config; got.Emails != 3 || len(got.EmailSet) != 3 {
		t.Errorf("emails %d, set of %d; want 3 of 3", got.Emails, len(got.EmailSet))
	}
	f, err = drillfile.Parse(path, []byte("workload: {emails_file: mine.jsonl}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Runs(f); err == nil || !strings.Contains(err.Error(), "mine.jsonl:4") {
		t.Errorf("every email asked for: %v, want the broken line 4 named", err)
	}
}
