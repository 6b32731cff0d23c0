package report

import "testing"

// TestMarkdownEscape: "< 0.001" stays as it is (it cannot open a tag);
// a '<' that could open one is escaped with a backslash, never as &lt;.
func TestMarkdownEscape(t *testing.T) {
	for in, want := range map[string]string{
		"< 0.001":       "< 0.001",
		"a<b":           `a\<b`,
		"</script>":     `\</script>`,
		"x | y":         `x \| y`,
		"busy_primary*": `busy\_primary\*`,
	} {
		if got := mdEscape(in); got != want {
			t.Errorf("mdEscape(%q) = %q, want %q", in, got, want)
		}
	}
}
