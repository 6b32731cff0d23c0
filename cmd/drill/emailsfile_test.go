package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drill-dev/drill/scoring"
)

// TestEmailsFile runs drills on a team's own emails: with truth they are
// scored and any id can be followed; without it they are counted as
// unscored; a bad file exits 2 naming its line and field.
func TestEmailsFile(t *testing.T) {
	dir := t.TempDir()
	scored := filepath.Join(dir, "scored.jsonl")
	write(t, scored, `{"id": 501, "from": "a@example.com", "subject": "Refund", "body": "Please refund order DR-123456, the Summit 4 Tent arrived torn.", "truth": {"intent": "refund", "order_number": "DR-123456", "product": "Summit 4 Tent", "urgency": "normal"}}
{"id": 502, "from": "b@example.com", "subject": "Where is it", "body": "Where is my order DR-654321?", "truth": {"intent": "order_status", "order_number": "DR-654321", "product": "", "urgency": "normal"}}
`)
	unscored := filepath.Join(dir, "unscored.csv")
	write(t, unscored, "id,from,subject,body\n7,c@example.com,Hello,My stove DR-111111 will not light.\n")
	bad := filepath.Join(dir, "bad.jsonl")
	write(t, bad, `{"id": 1, "from": "a", "subject": "s", "body": "b", "truth": {"intent": "nope", "order_number": "", "product": "", "urgency": "low"}}`+"\n")

	run := func(args ...string) (scoring.Summary, string, int) {
		t.Helper()
		out, errOut, code := execute(context.Background(), append([]string{"run", "--no-tui", "--json", "--outage", "none",
			"--policy", "fallback", "--rate", "50"}, args...)...)
		var s scoring.Summary
		if code == 0 {
			if err := json.Unmarshal([]byte(out), &s); err != nil {
				t.Fatalf("summary: %v\n%s", err, out)
			}
		}
		return s, errOut, code
	}

	s, errOut, code := run("--emails-file", scored, "--follow", "502")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if s.Emails != 2 || s.EmailsAnswered != 2 || s.Unscored != 0 || s.Followed.Email != 502 || s.Followed.WaitS == nil {
		t.Errorf("scored file: emails %d answered %d unscored %d followed %+v; want 2, 2, 0, email 502 with a wait",
			s.Emails, s.EmailsAnswered, s.Unscored, s.Followed)
	}

	s, errOut, code = run("--emails-file", unscored)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if s.Unscored != 1 || s.All4Right != 0 || s.Followed.Email != 0 || !strings.Contains(errOut, "no email 35") {
		t.Errorf("unscored file: unscored %d all4 %v followed %d, stderr %q; want 1, 0, none followed and a note",
			s.Unscored, s.All4Right, s.Followed.Email, errOut)
	}

	_, errOut, code = run("--emails-file", bad)
	if code != 2 || !strings.Contains(errOut, "bad.jsonl:1") || !strings.Contains(errOut, "truth.intent") || !strings.Contains(errOut, "valid:") {
		t.Errorf("bad file: exit %d, stderr %q; want 2 naming line 1, truth.intent and the valid values", code, errOut)
	}
	_, _, code = run("--emails-file", filepath.Join(dir, "missing.jsonl"))
	if code != 2 {
		t.Errorf("missing file: exit %d, want 2", code)
	}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestEmailsFileReadOnlyAsFarAsAsked: --emails 3 reads the first 3 emails
// of --emails-file and stops (a million-row file was read whole, past
// 2 GB): a file broken after its third email runs.
func TestEmailsFileReadOnlyAsFarAsAsked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mine.jsonl")
	body := `{"id": 1, "from": "a@example.com", "subject": "Late order", "body": "Where is DR-123456?"}
{"id": 2, "from": "a@example.com", "subject": "Late order", "body": "Where is DR-123457?"}
{"id": 3, "from": "a@example.com", "subject": "Late order", "body": "Where is DR-123458?"}
` + strings.Repeat("x", 1000) + "\n"
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := execute(t.Context(), "run", "--no-tui", "--clock", "virtual", "--emails", "3", "--emails-file", path); code != 0 {
		t.Errorf("exit %d, want 0: the fourth line is never read; stderr: %s", code, stderr)
	}
	if _, _, code := execute(t.Context(), "run", "--no-tui", "--clock", "virtual", "--emails-file", path); code != 2 {
		t.Errorf("every email asked for: exit %d, want 2 for the broken fourth line", code)
	}
}
