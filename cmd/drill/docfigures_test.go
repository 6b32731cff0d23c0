//go:build figures && !race

package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drill-dev/drill/internal/docfig"
)

var updateDocs = flag.Bool("update-docs", false, "rewrite the figures quoted in docs/ and README.md from drill's output")

// TestDocFigures runs every command the documents quote (on the virtual
// clock, so the figures are the same on every machine) and fails on a figure
// that changed. A block of `file PATH` (relative to docs/) is a frame the
// document shows from a file of the repository, a golden frame or a tmux
// capture, which other tests keep current. `go test -tags figures ./cmd/drill -run TestDocFigures -update-docs`
// rewrites them (with -tags figures); read the diff before committing it.
// Built with -tags figures: CI runs it on its own, without -race, and the
// everyday `go test ./...` leaves its minute of drills out.
func TestDocFigures(t *testing.T) {
	// The commands run from the repository's root, where a reader runs them.
	t.Chdir("../..")
	docs, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	docs = append(docs, "README.md")
	run := func(args []string) (string, error) {
		if len(args) == 2 && args[0] == "file" {
			// A frame the document shows from a file of the repository
			// (a golden frame, a tmux capture).
			b, err := os.ReadFile(filepath.Join("docs", args[1]))
			if err != nil {
				return "", err
			}
			lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
			for i, l := range lines {
				lines[i] = strings.TrimRight(l, " ")
			}
			return strings.Join(lines, "\n") + "\n", nil
		}
		out, errOut, code := execute(context.Background(), args...)
		if code != 0 {
			return "", errors.New(errOut)
		}
		return out, nil
	}
	var blocks, figures int
	for _, path := range docs {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		n, f := docfig.Count(string(b))
		blocks, figures = blocks+n, figures+f
		if n+f == 0 {
			continue
		}
		name := filepath.Base(path)
		if *updateDocs {
			doc, ms, err := docfig.Update(string(b), run)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for _, m := range ms {
				t.Logf("%s: rewrote %s", name, m)
			}
			if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		ms, err := docfig.Check(string(b), run)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, m := range ms {
			t.Errorf("%s %s (regenerate with: go test -tags figures ./cmd/drill -run TestDocFigures -update-docs)", name, m)
		}
	}
	if blocks == 0 || figures == 0 {
		t.Fatalf("the documents quote %d blocks and %d inline figures; the check checks nothing", blocks, figures)
	}
	t.Logf("%d blocks and %d inline figures checked", blocks, figures)
}

// TestDocJournalsAreCurrent plays again the drills whose recordings the
// documents and the dashboard's golden frames show, and fails when the
// recording no longer looks like what drill does now: a frame drawn from a
// stale journal quotes stale figures (a chat frame once billed a sixth of
// the tokens runs bill). Counts must agree within tol of the larger, as the
// SDK's jitter moves a few; re-record with the command named.
func TestDocJournalsAreCurrent(t *testing.T) {
	for _, tc := range []struct {
		journal string
		args    []string
		figures []string // top-level keys of the summary to compare
		tol     float64
	}{
		{"../../tui/testdata/chat/all-checks.jsonl",
			[]string{"run", "--workload", "chat", "--clock", "virtual", "--conversations", "40", "--conversation-rate", "0.1",
				"--policy", "agent-all-checks", "--tool-breakers", "--tool-outage", "carrier=hang"},
			[]string{"conversations", "answered", "handed_over", "silent", "tokens_billed", "model_calls", "tool_calls"}, 0.2},
		{"../../tui/testdata/tmux/hang-breaker.jsonl",
			[]string{"run", "--outage", "hang", "--policy", "breaker", "--clock", "virtual"},
			[]string{"emails", "emails_answered", "calls_to_broken_outage", "breaker_opens", "all4_right"}, 0.1},
	} {
		t.Run(filepath.Base(tc.journal), func(t *testing.T) {
			fresh := summaryOf(t, append(tc.args, "--no-tui", "--json")...)
			recorded := summaryOf(t, "replay", tc.journal, "--no-tui", "--json")
			for _, k := range tc.figures {
				f, okF := fresh[k].(float64)
				r, okR := recorded[k].(float64)
				if !okF || !okR {
					t.Errorf("%s: fresh %v, recorded %v: not both figures", k, fresh[k], recorded[k])
					continue
				}
				if math.Abs(f-r) > tc.tol*math.Max(math.Abs(f), math.Abs(r))+1e-9 {
					t.Errorf("%s: the recording says %v, drill %s now gives %v (re-record it: drill %s --record)",
						k, r, strings.Join(tc.args, " "), f, strings.Join(tc.args, " "))
				}
			}
		})
	}
}

func summaryOf(t *testing.T, args ...string) map[string]any {
	t.Helper()
	out, errOut, code := execute(context.Background(), args...)
	if code != 0 && code != 1 {
		t.Fatalf("drill %s: exit %d: %s", strings.Join(args, " "), code, errOut)
	}
	var s map[string]any
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("drill %s: %v", strings.Join(args, " "), err)
	}
	return s
}
