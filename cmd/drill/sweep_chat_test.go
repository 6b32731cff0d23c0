package main

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/drill-dev/drill/internal/journal"
	"github.com/drill-dev/drill/internal/sweep"
	"github.com/drill-dev/drill/scoring"
)

// A chat sweep in virtual time: a row per setting of the chat policy's
// flags, each figure the fold's over its repeats (seeds 1 and 2), every
// run's journal a chat journal whose summary line holds its figures.
func TestSweepChatVirtual(t *testing.T) {
	t.Parallel() // CPU only, no timing bound: runs beside the others
	dir := t.TempDir()
	stdout, stderr, code := execute(t.Context(), "sweep", "--workload", "chat", "--clock", "virtual", "--json",
		"--conversations", "30", "--loop-guard", "0,3", "--turn-limit", "6", "--repeat", "2", "--record", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res sweep.ChatResult
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("decoding %s: %v", stdout, err)
	}
	if len(res.Rows) != 2 || res.Repeats != 2 || res.Clock != "virtual" {
		t.Fatalf("rows %d, repeats %d, clock %s; want 2, 2, virtual", len(res.Rows), res.Repeats, res.Clock)
	}
	for i, r := range res.Rows {
		if !slices.Equal(r.Seeds, []int64{1, 2}) || len(r.Summaries) != 2 || len(r.Journals) != 2 {
			t.Fatalf("row %s: seeds %v, %d summaries, %d journals", r.Flags, r.Seeds, len(r.Summaries), len(r.Journals))
		}
		wantGuard := map[int]string{0: "0", 1: "3"}[i]
		if r.Setting["loop-guard"] != wantGuard || r.Setting["policies"] != "agent-defaults" {
			t.Errorf("row %d setting %v", i, r.Setting)
		}
		var answered []float64
		for k, s := range r.Summaries {
			if s.Answered+s.HandedOver+s.Silent != 30 || s.Seed != r.Seeds[k] {
				t.Errorf("row %s repeat %d: %d+%d+%d endings of 30, seed %d", r.Flags, k, s.Answered, s.HandedOver, s.Silent, s.Seed)
			}
			if got := slices.Contains(s.Checks, "loop guard 3"); got != (wantGuard == "3") {
				t.Errorf("row %s: checks %v", r.Flags, s.Checks)
			}
			answered = append(answered, float64(s.Answered))
			j, err := journal.ReadFile(r.Journals[k])
			if err != nil {
				t.Fatal(err)
			}
			if !scoring.IsChat(j.Events) || j.Summary == nil || j.Summary.Chat == nil || j.Summary.Chat.Answered != s.Answered {
				t.Errorf("%s is no chat journal holding the run's figures", r.Journals[k])
			}
			if filepath.Dir(r.Journals[k]) != dir {
				t.Errorf("journal %s not in %s", r.Journals[k], dir)
			}
		}
		if got, want := r.Figures["answered"], scoring.StatOf(answered); got != want {
			t.Errorf("row %s: answered %+v, want the fold's aggregate %+v", r.Flags, got, want)
		}
	}
	table, stderr, code := execute(t.Context(), "sweep", "--workload", "chat", "--clock", "virtual",
		"--conversations", "20", "--retries", "0,2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"setting", "answered", "handed over", "silent", "turn limit", "p99", "over 2 min", "tokens", "breaker opens",
		"--retries 0", "--retries 2", "2 settings × 1 repeats, virtual clock"} {
		if !strings.Contains(table, want) {
			t.Errorf("the table lacks %q:\n%s", want, table)
		}
	}
}

// Chat flags in a triage sweep, triage flags in a chat sweep and --sort
// with chat are usage errors (exit 2).
func TestSweepChatBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"sweep", "--turn-limit", "6,10"},
		{"sweep", "--workload", "chat", "--primary-timeout", "1s,2s"},
		{"sweep", "--workload", "chat", "--turn-limit", "6,10", "--sort", "p95_wait_outage_s"},
		{"sweep", "--workload", "chatty"},
		{"sweep", "--workload", "chat", "--turn-limit", "0"},
	} {
		_, stderr, code := execute(t.Context(), args...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2: %s", args, code, stderr)
		}
	}
}
