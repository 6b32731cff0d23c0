package main

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// docSection is one heading of a Markdown page and the text under it, down to
// the next heading of the same level or higher (subsections included).
type docSection struct {
	level   int
	heading string
	anchor  string
	text    string
}

// docSections splits a Markdown page at its headings (lines starting with #
// outside code fences).
func docSections(page string) []docSection {
	lines := strings.Split(page, "\n")
	type head struct {
		line, level int
		text        string
	}
	var heads []head
	fence := false
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fence = !fence
			continue
		}
		if fence || !strings.HasPrefix(l, "#") {
			continue
		}
		level := len(l) - len(strings.TrimLeft(l, "#"))
		if level > 6 || !strings.HasPrefix(l[level:], " ") {
			continue
		}
		heads = append(heads, head{i, level, strings.TrimSpace(l[level:])})
	}
	var out []docSection
	for k, h := range heads {
		end := len(lines)
		for _, n := range heads[k+1:] {
			if n.level <= h.level {
				end = n.line
				break
			}
		}
		out = append(out, docSection{
			level:   h.level,
			heading: h.text,
			anchor:  headingAnchor(h.text),
			text:    strings.Join(lines[h.line:end], "\n"),
		})
	}
	return out
}

// headingAnchor is the anchor GitHub gives a heading: lower case, letters,
// digits, spaces, hyphens and underscores kept, spaces made hyphens.
func headingAnchor(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

var (
	codeSpan   = regexp.MustCompile("`([^`]+)`")
	anchorLink = regexp.MustCompile(`\]\(#([^)\s]+)\)`)
)

// headingCommands is the commands a heading names: each code span in it
// that starts with "drill", the last word of which may list alternatives
// ("drill completion bash|zsh" names drill completion bash and drill
// completion zsh).
func headingCommands(heading string) []string {
	var out []string
	for _, m := range codeSpan.FindAllStringSubmatch(heading, -1) {
		words := strings.Fields(m[1])
		if len(words) == 0 || words[0] != "drill" {
			continue
		}
		if len(words) == 1 {
			out = append(out, "drill")
			continue
		}
		prefix := strings.Join(words[:len(words)-1], " ")
		for _, alt := range strings.Split(words[len(words)-1], "|") {
			out = append(out, prefix+" "+alt)
		}
	}
	return out
}

// mentionsFlag reports whether text has --name not followed by another
// letter, digit or hyphen (so --trip is not found in --trip-failures).
func mentionsFlag(text, name string) bool {
	needle := "--" + name
	for i := 0; ; {
		j := strings.Index(text[i:], needle)
		if j < 0 {
			return false
		}
		end := i + j + len(needle)
		if end == len(text) {
			return true
		}
		c := rune(text[end])
		if !(unicode.IsLetter(c) || unicode.IsDigit(c) || c == '-' || c == '_') {
			return true
		}
		i = end
	}
}

// TestCommandsDocListsEveryFlag checks that docs/commands.md documents every
// command and every flag --help shows. A command's section is the heading
// that names it in a code span (`drill run`), down to the next heading of
// the same level or higher; a flag is documented when its --name appears in
// that section or in a section of the same page the command's section links
// to (`[the drill flags](#the-drill-flags)`): flags shared by several
// commands are written once. Hidden commands and flags, cobra's help command
// and the --help flag are not checked.
func TestCommandsDocListsEveryFlag(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "docs", "commands.md"))
	if err != nil {
		t.Fatal(err)
	}
	sections := docSections(string(raw))
	byAnchor := map[string]docSection{}
	byCommand := map[string]docSection{}
	for _, s := range sections {
		if _, dup := byAnchor[s.anchor]; !dup {
			byAnchor[s.anchor] = s
		}
		for _, c := range headingCommands(s.heading) {
			if _, dup := byCommand[c]; !dup {
				byCommand[c] = s
			}
		}
	}

	var missing []string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Hidden || c.Name() == "help" {
			return
		}
		path := c.CommandPath()
		sec, ok := byCommand[path]
		if !ok {
			missing = append(missing, path+": no section (a heading naming `"+path+"`)")
		} else {
			text := sec.text
			for _, m := range anchorLink.FindAllStringSubmatch(sec.text, -1) {
				if linked, ok := byAnchor[m[1]]; ok {
					text += "\n" + linked.text
				}
			}
			seen := map[string]bool{}
			check := func(f *pflag.Flag) {
				if f.Hidden || f.Name == "help" || seen[f.Name] {
					return
				}
				seen[f.Name] = true
				if !mentionsFlag(text, f.Name) {
					missing = append(missing, path+": --"+f.Name)
				}
			}
			c.InitDefaultHelpFlag()
			c.InitDefaultVersionFlag()
			c.Flags().VisitAll(check)
			c.InheritedFlags().VisitAll(check)
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd())
	if len(missing) > 0 {
		sort.Strings(missing)
		t.Errorf("docs/commands.md does not document %d command(s) or flag(s) in the command's section (or a section it links to):\n  %s",
			len(missing), strings.Join(missing, "\n  "))
	}
}

// TestCommandsDocSections checks the helpers the test above reads the page with.
func TestCommandsDocSections(t *testing.T) {
	page := "# Commands\nintro --a\n## `drill run`\n--b [shared](#shared-flags)\n### More\n--c\n" +
		"```sh\n# not a heading --x\n```\n## Shared flags\n--d\n## `drill completion bash|zsh`\n--e\n"
	secs := docSections(page)
	var heads []string
	for _, s := range secs {
		heads = append(heads, s.anchor)
	}
	if got, want := strings.Join(heads, ","), "commands,drill-run,more,shared-flags,drill-completion-bashzsh"; got != want {
		t.Fatalf("anchors %s, want %s", got, want)
	}
	if run := secs[1].text; !mentionsFlag(run, "c") || !mentionsFlag(run, "x") || mentionsFlag(run, "d") {
		t.Errorf("drill run's section %q", run)
	}
	if got := strings.Join(headingCommands(secs[4].heading), ","); got != "drill completion bash,drill completion zsh" {
		t.Errorf("headingCommands = %s", got)
	}
	if mentionsFlag("--trip-failures", "trip") || !mentionsFlag("`--trip`,", "trip") || !mentionsFlag("--trip", "trip") {
		t.Error("mentionsFlag")
	}
}
