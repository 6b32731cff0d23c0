package emails

import (
	"strings"
	"testing"
)

// TestClassColumn: a team's file may name each email's class, in CSV and
// JSON Lines; an email without one has none.
func TestClassColumn(t *testing.T) {
	csv := "id,from,subject,body,class\n1,a@x,Hi,Body, vip \n2,b@x,Hi,Body,\n"
	got, err := ReadCSV("c.csv", strings.NewReader(csv))
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Class != "vip" || got[1].Class != "" {
		t.Errorf("CSV classes %q, %q", got[0].Class, got[1].Class)
	}
	jsonl := `{"id": 1, "from": "a@x", "subject": "Hi", "body": "B", "class": "billing"}` + "\n" +
		`{"id": 2, "from": "a@x", "subject": "Hi", "body": "B"}` + "\n"
	got, err = ReadJSONL("c.jsonl", strings.NewReader(jsonl))
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Class != "billing" || got[1].Class != "" {
		t.Errorf("JSONL classes %q, %q", got[0].Class, got[1].Class)
	}
	if _, err := ReadJSONL("c.jsonl", strings.NewReader(`{"id": 1, "from": "a", "subject": "s", "body": "b", "class": 3}`+"\n")); err == nil ||
		!strings.Contains(err.Error(), "class") {
		t.Errorf("a class that is no string: %v", err)
	}
}
