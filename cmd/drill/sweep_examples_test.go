package main

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
	"github.com/spf13/cobra"
)

// drillCall is one drill command found in an example: its command path
// ("drill sweep merge") and the flags given, as written.
type drillCall struct {
	path  string
	flags []string
}

// shellSplit separates the commands of a shell text.
var shellSplit = regexp.MustCompile(`&&|\|\||;|\n|\||>>|>`)

// yamlTexts are the texts of a YAML document a command can be in: every
// string, and every list of strings joined by spaces (a container's
// command and args).
func yamlTexts(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case map[string]any:
		var out []string
		for _, x := range v {
			out = append(out, yamlTexts(x)...)
		}
		return out
	case []any:
		var out, words []string
		for _, x := range v {
			if s, ok := x.(string); ok {
				words = append(words, s)
			}
			out = append(out, yamlTexts(x)...)
		}
		return append(out, strings.Join(words, " "))
	}
	return nil
}

// drillCalls finds the drill commands of text, checking each command and
// flag against root; bad lists what is not real.
func drillCalls(root *cobra.Command, text string) (calls []drillCall, bad []string) {
	for _, part := range shellSplit.Split(text, -1) {
		words := strings.Fields(part)
		for i, w := range words {
			if w != "drill" {
				continue
			}
			c, j := root, i+1
			for j < len(words) {
				sub := slices.IndexFunc(c.Commands(), func(s *cobra.Command) bool { return s.Name() == words[j] })
				if sub < 0 {
					break
				}
				c, j = c.Commands()[sub], j+1
			}
			if c == root {
				continue // "drill" as a word, no command
			}
			call := drillCall{path: c.CommandPath()}
			for _, w := range words[j:] {
				if !strings.HasPrefix(w, "-") || w == "-" {
					continue
				}
				name, _, _ := strings.Cut(strings.TrimLeft(w, "-"), "=")
				flag, ok := "-"+name, len(name) == 1 && c.Flags().ShorthandLookup(name) != nil
				if strings.HasPrefix(w, "--") {
					flag, ok = "--"+name, c.Flags().Lookup(name) != nil || c.InheritedFlags().Lookup(name) != nil
				}
				if !ok {
					bad = append(bad, call.path+" "+w)
				}
				call.flags = append(call.flags, flag)
			}
			calls = append(calls, call)
			break
		}
	}
	return calls, bad
}

// TestScaleExamplesUseRealFlags: every drill command in examples/scale is
// a real command and each of its flags a real flag of it, and each file
// holds the commands it is there to show.
func TestScaleExamplesUseRealFlags(t *testing.T) {
	want := map[string][]string{ // file → "command path flag" each must hold
		"sweep-indexed-job.yaml":   {"drill sweep --shard", "drill sweep -o"},
		"sweep-merge-job.yaml":     {"drill sweep merge --json", "drill sweep merge -o"},
		"github-actions-sweep.yml": {"drill sweep --shard", "drill sweep -o", "drill sweep merge -o"},
		"proxy-fleet.yaml":         {"drill proxy --coordinate", "drill proxy --fleet", "drill proxy --member", "drill proxy --upstream"},
	}
	files, err := filepath.Glob(filepath.Join("..", "..", "examples", "scale", "*.y*ml"))
	if err != nil || len(files) != len(want) {
		t.Fatalf("examples/scale holds %v (%v), want the %d files this test knows", files, err, len(want))
	}
	root := newRootCmd()
	for _, path := range files {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			dec := yaml.NewDecoder(f)
			found := map[string]bool{}
			for {
				var doc any
				if err := dec.Decode(&doc); errors.Is(err, io.EOF) {
					break
				} else if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				for _, text := range yamlTexts(doc) {
					calls, bad := drillCalls(root, strings.ReplaceAll(text, "\\\n", " "))
					for _, b := range bad {
						t.Errorf("%s: %s is not a flag of that command", name, b)
					}
					for _, c := range calls {
						for _, fl := range c.flags {
							found[c.path+" "+fl] = true
						}
					}
				}
			}
			for _, w := range want[name] {
				if !found[w] {
					t.Errorf("%s: no %s in it (found %v)", name, w, found)
				}
			}
		})
	}
}
