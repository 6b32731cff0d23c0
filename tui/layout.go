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
// next one would not fit in w cells. A segment wider than w on its own is
// wrapped at its spaces, so no word is cut.
func wrapSegments(segs []string, sep string, w int) []string {
	parts := make([]part, len(segs))
	for i, s := range segs {
		parts[i] = part{sep: sep, text: s}
	}
	return wrapParts(parts, w)
}

// A part is a piece of a wrapped line and the separator written before it
// when it follows another part on the same line (dropped at a line start).
type part struct{ sep, text string }

// wrapParts lays parts out in lines of at most w cells, starting a new line
// whenever the next part would not fit; a part wider than w on its own is
// wrapped at its spaces (a word is broken only when it is wider than w).
func wrapParts(parts []part, w int) []string {
	var lines []string
	cur := ""
	for _, p := range parts {
		if p.text == "" {
			continue
		}
		if cur != "" && ansi.StringWidth(cur)+ansi.StringWidth(p.sep)+ansi.StringWidth(p.text) <= w {
			cur += p.sep + p.text
			continue
		}
		if cur != "" {
			lines = append(lines, cur)
		}
		cur = p.text
		if w > 0 && ansi.StringWidth(cur) > w {
			wrapped := strings.Split(ansi.Wrap(cur, w, ""), "\n")
			for i := range wrapped {
				wrapped[i] = strings.TrimRight(wrapped[i], " ")
			}
			lines = append(lines, wrapped[:len(wrapped)-1]...)
			cur = wrapped[len(wrapped)-1]
		}
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}
