package docfig

import (
	"errors"
	"strings"
	"testing"
)

// fake prints a fixed output per command, as drill would.
func fake(outputs map[string]string) Runner {
	return func(args []string) (string, error) {
		out, ok := outputs[strings.Join(args, " ")]
		if !ok {
			return "", errors.New("unknown command")
		}
		return out, nil
	}
}

const doc = `# Title

<!-- figures pool: run --json -->
With no outage it sends <!-- fig pool served.backup -->97<!-- /fig --> of <!-- fig pool emails -->120<!-- /fig --> emails
to the backup (<!-- fig pool share ×100 -->80.8<!-- /fig --> %), waiting <!-- fig pool runs.1.wait_s -->1.30<!-- /fig --> s.

<!-- figures: compare --format md -->
| a | b |
| 1 | 2 |
<!-- figures: end -->
after
`

func TestCheckAgrees(t *testing.T) {
	run := fake(map[string]string{
		"run --json":          `{"served":{"backup":97},"emails":120,"share":0.80833,"runs":[{},{"wait_s":1.2951}]}`,
		"compare --format md": "| a | b |\n| 1 | 2 |   \n",
	})
	ms, err := Check(doc, run)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 0 {
		t.Fatalf("mismatches %v, want none", ms)
	}
	if b, f := Count(doc); b != 1 || f != 4 {
		t.Fatalf("Count = %d blocks, %d figures; want 1, 4", b, f)
	}
}

func TestCheckFindsAChangedFigureAndRow(t *testing.T) {
	run := fake(map[string]string{
		"run --json":          `{"served":{"backup":12},"emails":120,"share":0.1,"runs":[{},{"wait_s":1.3}]}`,
		"compare --format md": "| a | b |\n| 1 | 3 |\n",
	})
	ms, err := Check(doc, run)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 3 {
		t.Fatalf("mismatches %v, want 3 (backup, share, the table's row)", ms)
	}
	if ms[0].Doc != "97" || ms[0].Got != "12" || ms[0].Line != 4 {
		t.Errorf("first mismatch %+v", ms[0])
	}
	if ms[1].Doc != "80.8" || ms[1].Got != "10.0" {
		t.Errorf("share mismatch %+v", ms[1])
	}
	if ms[2].Doc != "| 1 | 2 |" || ms[2].Got != "| 1 | 3 |" || ms[2].Line != 7 {
		t.Errorf("block mismatch %+v", ms[2])
	}
	got, _, err := Update(doc, run)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"-->12<!-- /fig -->", "-->10.0<!-- /fig -->", "| 1 | 3 |\n<!-- figures: end -->\nafter"} {
		if !strings.Contains(got, want) {
			t.Errorf("updated document lacks %q:\n%s", want, got)
		}
	}
	if ms, _ := Check(got, run); len(ms) != 0 {
		t.Errorf("the updated document still differs: %v", ms)
	}
}

func TestBadMarkers(t *testing.T) {
	run := fake(map[string]string{"run --json": `{"a":1}`})
	for name, d := range map[string]string{
		"unnamed command": "x <!-- fig nope a -->1<!-- /fig -->",
		"missing key":     "<!-- figures pool: run --json -->\n<!-- fig pool b -->1<!-- /fig -->",
		"unclosed block":  "<!-- figures: run --json -->\n{}",
		"failing command": "<!-- figures: other -->\n<!-- figures: end -->",
		"named twice":     "<!-- figures p: run --json -->\n<!-- figures p: run -->",
	} {
		if _, err := Check(d, run); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestQuote(t *testing.T) {
	for _, tc := range []struct {
		v    any
		have string
		pct  float64
		want string
	}{
		{12345.0, "1,000", 1, "12,345"},
		{-0.01, "0.0", 1, "0.0"},
		{0.256, "25", 100, "26"},
		{10198527.0, "9.99", 1e-6, "10.20"},
		{"hang", "busy", 1, "hang"},
		{1.25, "1.0", 1, "1.2"}, // strconv rounds half to even on the binary value
	} {
		got, err := quote(tc.v, tc.have, tc.pct)
		if err != nil || got != tc.want {
			t.Errorf("quote(%v, %q) = %q, %v; want %q", tc.v, tc.have, got, err, tc.want)
		}
	}
	if _, err := quote([]any{}, "1", 1); err == nil {
		t.Error("a list quoted as a figure")
	}
}

func TestDottedKeys(t *testing.T) {
	v := map[string]any{"a.b": map[string]any{"c": 1.0}}
	got, err := walk(v, "a..b.c")
	if err != nil || got != 1.0 {
		t.Fatalf("walk = %v, %v", got, err)
	}
}

func TestTolerance(t *testing.T) {
	d := "<!-- figures: compare ~0.3s -->\n| busy | 63 / 57 | 1.3 s | 89% |\n<!-- figures: end -->\n" +
		"<!-- figures r: run -->\nwaits <!-- fig r w ~0.3 -->1.3<!-- /fig --> s; calls <!-- fig r c -->8<!-- /fig -->"
	for _, tc := range []struct {
		table, json string
		mismatches  int
	}{
		{"| busy | 63 / 57 | 1.5 s | 89% |", `{"w":1.5,"c":8}`, 0},  // jitter within 0.3 s
		{"| busy | 63 / 57 | 1.7 s | 89% |", `{"w":1.7,"c":8}`, 2},  // a wait beyond it
		{"| busy | 63 / 58 | 1.3 s | 89% |", `{"w":1.3,"c":9}`, 2},  // counts have no tolerance here
		{"| busy | 63 / 57 | 1.3 s | 89 % |", `{"w":1.3,"c":8}`, 1}, // the words changed
	} {
		run := fake(map[string]string{"compare": tc.table + "\n", "run": tc.json})
		ms, err := Check(d, run)
		if err != nil {
			t.Fatal(err)
		}
		if len(ms) != tc.mismatches {
			t.Errorf("%s %s: mismatches %v, want %d", tc.table, tc.json, ms, tc.mismatches)
		}
		updated, _, err := Update(d, run)
		if err != nil {
			t.Fatal(err)
		}
		if (updated == d) != (tc.mismatches == 0) {
			t.Errorf("%s: Update rewrote %v, want a rewrite only beyond the tolerance", tc.table, updated != d)
		}
	}
	if _, _, err := splitTolerance("compare ~x"); err == nil {
		t.Error("~x taken as a tolerance")
	}
}

func TestFencedBlock(t *testing.T) {
	d := "<!-- figures: predict -->\n```\n$ drill predict\nfirst: 18.1 s\n```\n<!-- figures: end -->\n"
	run := fake(map[string]string{"predict": "first: 18.3 s\n"})
	got, ms, err := Update(d, run)
	if err != nil || len(ms) != 1 {
		t.Fatalf("Update: %v, %v", ms, err)
	}
	want := "<!-- figures: predict -->\n```\n$ drill predict\nfirst: 18.3 s\n```\n<!-- figures: end -->\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
