// Package docfig keeps the figures quoted in drill's documentation true.
//
// A document marks what it quotes with HTML comments, which Markdown renders
// as nothing:
//
//	<!-- figures: compare --clock virtual --format md -->
//	| Outage | Policy | … |
//	<!-- figures: end -->
//
// is a block: the lines between the markers are exactly what drill prints for
// those arguments. A block may sit in a code fence, with a "$ drill …" line
// under the opening fence; the fences and that line stay as written.
//
//	<!-- figures pool: run --clock virtual --outage none --json -->
//
// names a command (pool) whose JSON output inline figures read:
//
//	sends <!-- fig pool served.backup -->97<!-- /fig --> of 120 emails
//
// quotes the value at the dotted path served.backup, written at the
// precision the document gives it (a suffix ×100 reads a share as a
// percentage, ×1e-6 a count in millions).
//
// The SDK's retry backoff has random jitter that no seed reaches, so a wait
// differs by a few tenths of a second from run to run even on the virtual
// clock. A command or figure may state how far its figures may stray: ~0.3s
// lets every number followed by " s" differ by 0.3, ~1 every other number by
// 1 (fig markers take one tolerance, after the path). Beyond that, Check
// reports the figure; Update rewrites what strayed beyond it and leaves the
// rest as written, so regenerating does not churn. The commands are run by the caller (a test in cmd/drill, which CI runs
// on the virtual clock), so a figure that changes fails CI until the
// document is regenerated and read again.
package docfig

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// Runner runs drill with args and returns what it printed on stdout.
type Runner func(args []string) (string, error)

var (
	blockStart = regexp.MustCompile(`^<!-- figures: (.+) -->$`)
	blockEnd   = "<!-- figures: end -->"
	named      = regexp.MustCompile(`<!-- figures ([a-z][a-z0-9-]*): (.+?) -->`)
	inline     = regexp.MustCompile(`<!-- fig ([a-z][a-z0-9-]*) ([^ ]+?)(?: ×([0-9.e+-]+))?(?: ~([0-9.]+))? -->(.*?)<!-- /fig -->`)
	number     = regexp.MustCompile(`-?[0-9][0-9,]*(?:\.[0-9]+)?( s\b)?`)
)

// tolerance is how far a quoted number may stray from drill's.
type tolerance struct{ seconds, other float64 }

// splitTolerance takes the trailing ~ tokens off a command's arguments.
func splitTolerance(args string) (string, tolerance, error) {
	var tol tolerance
	fields := strings.Fields(args)
	for len(fields) > 0 && strings.HasPrefix(fields[len(fields)-1], "~") {
		t := strings.TrimPrefix(fields[len(fields)-1], "~")
		target := &tol.other
		if strings.HasSuffix(t, "s") {
			t, target = strings.TrimSuffix(t, "s"), &tol.seconds
		}
		v, err := strconv.ParseFloat(t, 64)
		if err != nil || v < 0 {
			return "", tol, fmt.Errorf("%q is no tolerance (~0.3s or ~1)", fields[len(fields)-1])
		}
		*target = v
		fields = fields[:len(fields)-1]
	}
	return strings.Join(fields, " "), tol, nil
}

// within reports whether the text have says what got says, each number
// allowed to stray by tol.
func within(have, got string, tol tolerance) bool {
	if have == got {
		return true
	}
	if number.ReplaceAllString(have, "#") != number.ReplaceAllString(got, "#") {
		return false
	}
	hn, gn := number.FindAllStringSubmatch(have, -1), number.FindAllStringSubmatch(got, -1)
	for i := range hn {
		a, errA := strconv.ParseFloat(strings.ReplaceAll(hn[i][0][:len(hn[i][0])-len(hn[i][1])], ",", ""), 64)
		b, errB := strconv.ParseFloat(strings.ReplaceAll(gn[i][0][:len(gn[i][0])-len(gn[i][1])], ",", ""), 64)
		if errA != nil || errB != nil {
			return false
		}
		limit := tol.other
		if hn[i][1] != "" {
			limit = tol.seconds
		}
		if math.Abs(a-b) > limit+1e-9 {
			return false
		}
	}
	return true
}

// A Mismatch is one quoted figure or block that differs from drill's output.
type Mismatch struct {
	Line int    // 1-based line of the figure or of the block's opening marker
	What string // the command and, for an inline figure, its path
	Doc  string // what the document says
	Got  string // what drill printed, at the document's precision
}

// String says where the figure is, what the document says and what drill says.
func (m Mismatch) String() string {
	return fmt.Sprintf("line %d: %s: the document says %q, drill says %q", m.Line, m.What, m.Doc, m.Got)
}

// Check returns every figure of doc that differs from what run prints.
func Check(doc string, run Runner) ([]Mismatch, error) {
	_, ms, err := process(doc, run)
	return ms, err
}

// Update returns doc with every block and inline figure rewritten from what
// run prints, and the mismatches it mended.
func Update(doc string, run Runner) (string, []Mismatch, error) {
	return process(doc, run)
}

// Count returns how many blocks and inline figures doc has.
func Count(doc string) (blocks, figures int) {
	for _, line := range strings.Split(doc, "\n") {
		if blockStart.MatchString(line) && line != blockEnd {
			blocks++
		}
		figures += len(inline.FindAllString(line, -1))
	}
	return blocks, figures
}

func process(doc string, run Runner) (string, []Mismatch, error) {
	cache := map[string]string{}
	output := func(args string) (string, error) {
		if out, ok := cache[args]; ok {
			return out, nil
		}
		out, err := run(strings.Fields(args))
		if err != nil {
			return "", fmt.Errorf("drill %s: %w", args, err)
		}
		cache[args] = out
		return out, nil
	}
	commands, err := namedCommands(doc)
	if err != nil {
		return "", nil, err
	}
	parsed := map[string]any{}
	value := func(name, path string) (any, error) {
		args, ok := commands[name]
		if !ok {
			return nil, fmt.Errorf("fig %s: no <!-- figures %s: … --> names its command", name, name)
		}
		v, ok := parsed[name]
		if !ok {
			out, err := output(args)
			if err != nil {
				return nil, err
			}
			if err := json.Unmarshal([]byte(out), &v); err != nil {
				return nil, fmt.Errorf("figures %s (drill %s): the output is not JSON: %w", name, args, err)
			}
			parsed[name] = v
		}
		return walk(v, path)
	}

	var out []string
	var mismatches []Mismatch
	lines := strings.Split(doc, "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if m := blockStart.FindStringSubmatch(line); m != nil && line != blockEnd {
			written, mm, end, err := block(lines, i, m[1], output)
			if err != nil {
				return "", nil, err
			}
			out = append(out, written...)
			if mm != nil {
				mismatches = append(mismatches, *mm)
			}
			i = end
			continue
		}
		line, ms, err := figures(line, i+1, value, commands)
		if err != nil {
			return "", nil, err
		}
		mismatches = append(mismatches, ms...)
		out = append(out, line)
	}
	return strings.Join(out, "\n"), mismatches, nil
}

// block checks the figures block whose marker (naming the command,
// marker) is line i: it returns the block as it should read, a mismatch
// when it does not read so, and the line of the block's end.
func block(lines []string, i int, marker string, output func(string) (string, error)) ([]string, *Mismatch, int, error) {
	line := lines[i]
	end := i + 1
	for end < len(lines) && lines[end] != blockEnd {
		end++
	}
	if end == len(lines) {
		return nil, nil, 0, fmt.Errorf("line %d: %q has no %q", i+1, line, blockEnd)
	}
	args, tol, err := splitTolerance(marker)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("line %d: %w", i+1, err)
	}
	got, err := output(args)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("line %d: %w", i+1, err)
	}
	head, have, tail := fenced(lines[i+1 : end])
	gotLines := strings.Split(trimLines(got), "\n")
	out := append([]string{line}, head...)
	var mm *Mismatch
	if sameLines(have, gotLines, tol) {
		out = append(out, have...)
	} else {
		h := strings.Join(have, "\n")
		mm = &Mismatch{Line: i + 1, What: "drill " + args, Doc: firstDiff(h, got), Got: firstDiff(got, h)}
		out = append(out, gotLines...)
	}
	return append(append(out, tail...), blockEnd), mm, end, nil
}

// namedCommands reads the commands a document names for its inline
// figures: name → arguments.
func namedCommands(doc string) (map[string]string, error) {
	commands := map[string]string{}
	for _, m := range named.FindAllStringSubmatch(doc, -1) {
		if prev, ok := commands[m[1]]; ok && prev != m[2] {
			return nil, fmt.Errorf("figures %s is named twice, for %q and %q", m[1], prev, m[2])
		}
		commands[m[1]] = m[2]
	}
	return commands, nil
}

// figures checks (and rewrites) the inline figures of one line, line
// number lineNo, reading each from value; commands names each figure's
// command for the mismatches.
func figures(line string, lineNo int, value func(name, path string) (any, error), commands map[string]string) (string, []Mismatch, error) {
	var lineErr error
	var mismatches []Mismatch
	line = inline.ReplaceAllStringFunc(line, func(s string) string {
		m := inline.FindStringSubmatch(s)
		v, err := value(m[1], m[2])
		if err != nil {
			lineErr = err
			return s
		}
		have := m[5]
		scale := 1.0
		if m[3] != "" {
			if scale, err = strconv.ParseFloat(m[3], 64); err != nil {
				lineErr = fmt.Errorf("fig %s %s: ×%s is no factor", m[1], m[2], m[3])
				return s
			}
		}
		got, err := quote(v, have, scale)
		if err != nil {
			lineErr = fmt.Errorf("fig %s %s: %w", m[1], m[2], err)
			return s
		}
		var tol tolerance
		if m[4] != "" {
			tol.other, _ = strconv.ParseFloat(m[4], 64)
		}
		if within(have, got, tol) {
			return s
		}
		mismatches = append(mismatches, Mismatch{Line: lineNo, What: "drill " + commands[m[1]] + " → " + m[2], Doc: have, Got: got})
		return strings.Replace(s, "-->"+have+"<!--", "-->"+got+"<!--", 1)
	})
	if lineErr != nil {
		return "", nil, fmt.Errorf("line %d: %w", lineNo, lineErr)
	}
	return line, mismatches, nil
}

// fenced splits a block's lines into the fences and "$ drill …" prompt
// line a document wrote around drill's output (kept as written) and the
// output itself.
func fenced(body []string) (head, output, tail []string) {
	for len(body) > 0 && (strings.HasPrefix(body[0], "```") || strings.HasPrefix(body[0], "$ ")) {
		head, body = append(head, body[0]), body[1:]
	}
	if len(head) > 0 && len(body) > 0 && strings.HasPrefix(body[len(body)-1], "```") {
		tail, body = body[len(body)-1:], body[:len(body)-1]
	}
	return head, body, tail
}

// sameLines reports whether a block says, line by line, what drill printed,
// each number within tol.
func sameLines(have, got []string, tol tolerance) bool {
	if len(have) != len(got) {
		return false
	}
	for j := range have {
		if !within(strings.TrimRight(have[j], " \t"), got[j], tol) {
			return false
		}
	}
	return true
}

// walk reads the dotted path in v: object keys, or indexes into arrays.
// A key holding a dot is written with the dot doubled: classes.a..b.
func walk(v any, path string) (any, error) {
	for _, key := range splitPath(path) {
		switch x := v.(type) {
		case map[string]any:
			next, ok := x[key]
			if !ok {
				return nil, fmt.Errorf("no key %q in %s", key, path)
			}
			v = next
		case []any:
			i, err := strconv.Atoi(key)
			if err != nil || i < 0 || i >= len(x) {
				return nil, fmt.Errorf("%q is no index of a list of %d in %s", key, len(x), path)
			}
			v = x[i]
		default:
			return nil, fmt.Errorf("%q: nothing to read at it in %s", key, path)
		}
	}
	return v, nil
}

func splitPath(path string) []string {
	var keys []string
	var b strings.Builder
	for i := 0; i < len(path); i++ {
		if path[i] == '.' {
			if i+1 < len(path) && path[i+1] == '.' {
				b.WriteByte('.')
				i++
				continue
			}
			keys = append(keys, b.String())
			b.Reset()
			continue
		}
		b.WriteByte(path[i])
	}
	return append(keys, b.String())
}

// quote writes v as the document wrote have: a string as it is, a number at
// have's number of decimals, with a thousands comma where have has one.
func quote(v any, have string, scale float64) (string, error) {
	switch x := v.(type) {
	case string:
		return x, nil
	case float64:
		x *= scale
		decimals := 0
		if i := strings.IndexByte(have, '.'); i >= 0 {
			decimals = len(have) - i - 1
		}
		s := strconv.FormatFloat(x, 'f', decimals, 64)
		if strings.Trim(s, "-0.") == "" {
			s = strings.TrimPrefix(s, "-") // no "-0.0"
		}
		if strings.Contains(have, ",") {
			s = thousands(s)
		}
		return s, nil
	case bool:
		return strconv.FormatBool(x), nil
	case nil:
		return "—", nil // drill's mark for a figure that does not apply
	}
	return "", fmt.Errorf("the value is a %T, not a figure", v)
}

func thousands(s string) string {
	intPart, frac, _ := strings.Cut(s, ".")
	neg := strings.HasPrefix(intPart, "-")
	intPart = strings.TrimPrefix(intPart, "-")
	var b strings.Builder
	for i, r := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	s = b.String()
	if neg {
		s = "-" + s
	}
	if frac != "" {
		s += "." + frac
	}
	return s
}

func trimLines(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	return strings.Join(lines, "\n")
}

// firstDiff returns the first line of a that differs from b's line at the
// same place, so a mismatch names the row that changed.
func firstDiff(a, b string) string {
	al, bl := strings.Split(trimLines(a), "\n"), strings.Split(trimLines(b), "\n")
	for i, l := range al {
		if i >= len(bl) || l != bl[i] {
			return l
		}
	}
	if len(bl) > len(al) {
		return "(ends before: " + bl[len(al)] + ")"
	}
	return ""
}
