package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// fit truncates or pads s (which may hold ANSI styles) to exactly w cells.
func fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	n := ansi.StringWidth(s)
	if n > w {
		s = ansi.Truncate(s, w, "…")
		n = ansi.StringWidth(s)
	}
	if n < w {
		s += strings.Repeat(" ", w-n)
	}
	return s
}

// box draws a pane: a rounded border with the title in the top edge, and
// exactly h lines of exactly w cells. The focused pane gets a heavy border
// and a marker, so focus never relies on colour.
func box(st Styles, title string, focused bool, w, h int, content []string) []string {
	if w < 4 || h < 2 {
		out := make([]string, max(h, 0))
		for i := range out {
			out[i] = strings.Repeat(" ", max(w, 0))
		}
		return out
	}
	bs, ts := st.Border, st.Title
	tl, tr, bl, br, hz, vt := "╭", "╮", "╰", "╯", "─", "│"
	mark := " "
	if focused {
		bs, ts = st.FocusBorder, st.FocusTitle
		tl, tr, bl, br, hz, vt = "┏", "┓", "┗", "┛", "━", "┃"
		mark = "▸"
	}
	inner := w - 2
	label := mark + ts.Render(title) + " "
	lw := ansi.StringWidth(label)
	if lw > inner-1 {
		label = ansi.Truncate(label, inner-1, "")
		lw = ansi.StringWidth(label)
	}
	out := make([]string, 0, h)
	out = append(out, bs.Render(tl+hz)+label+bs.Render(strings.Repeat(hz, max(inner-1-lw, 0))+tr))
	left, right := bs.Render(vt), bs.Render(vt)
	for i := 0; i < h-2; i++ {
		line := ""
		if i < len(content) {
			line = content[i]
		}
		out = append(out, left+fit(line, inner)+right)
	}
	out = append(out, bs.Render(bl+strings.Repeat(hz, inner)+br))
	return out
}

// hjoin puts blocks of equal height side by side.
func hjoin(blocks ...[]string) []string {
	if len(blocks) == 0 {
		return nil
	}
	h := 0
	for _, b := range blocks {
		h = max(h, len(b))
	}
	out := make([]string, h)
	for i := range out {
		var sb strings.Builder
		for _, b := range blocks {
			if i < len(b) {
				sb.WriteString(b[i])
			}
		}
		out[i] = sb.String()
	}
	return out
}

// wrapSegments joins segments with sep, starting a new line whenever the
// next one would not fit in w cells.
func wrapSegments(segs []string, sep string, w int) []string {
	var lines []string
	cur := ""
	for _, s := range segs {
		if cur == "" {
			cur = s
			continue
		}
		if ansi.StringWidth(cur)+ansi.StringWidth(sep)+ansi.StringWidth(s) > w {
			lines = append(lines, cur)
			cur = s
			continue
		}
		cur += sep + s
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}
