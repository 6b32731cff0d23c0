package drillfile

import (
	"bytes"
	"fmt"
)

// MaxDepth is how deeply a drill file's YAML may nest (maps, lists and
// flow brackets together). The deepest real drill file nests about six
// levels; the YAML parser's cost grows steeply with depth (40,000 levels
// took 2.45 GB), so a deeper file is refused before it is parsed.
const MaxDepth = 64

// checkDepth scans data once, in constant memory, and returns an *Error at
// the first place where the nesting passes MaxDepth or the keys MaxKeys. It over-approximates
// nothing a drill file needs: block nesting is counted by the columns of
// "- ", "? " and "key:" (the columns still open, as the parser sees
// them), flow nesting by [ and { outside quotes and comments, and the
// lines of a block scalar (| or >) are skipped.
func checkDepth(name string, data []byte) error {
	s := depthScan{name: name, scalarParent: -1}
	for lineNo := 1; len(data) > 0; lineNo++ {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if err := s.line(lineNo, bytes.TrimSuffix(line, []byte("\r"))); err != nil {
			return err
		}
	}
	return nil
}

// depthScan is checkDepth's state between lines.
type depthScan struct {
	name string
	// open holds the columns of the block collections still open.
	open []int
	// flow is how many flow brackets are open.
	flow int
	// quote is the quote character of a scalar left open at a line's end.
	quote byte
	// scalarParent is the column of the node owning a block scalar whose
	// lines are being skipped, or -1.
	scalarParent int
	// keys counts mapping keys, block and flow (see MaxKeys).
	keys int
}

// key counts a mapping key at line and column col.
func (s *depthScan) key(lineNo, col int) error {
	s.keys++
	if s.keys > MaxKeys {
		return &Error{File: s.name, Line: lineNo, Column: col + 1,
			Msg: fmt.Sprintf("more than %d keys (a drill file holds a few hundred): refused before parsing", MaxKeys)}
	}
	return nil
}

func (s *depthScan) tooDeep(line, col int) error {
	return &Error{File: s.name, Line: line, Column: col + 1,
		Msg: fmt.Sprintf("nested deeper than %d levels (a drill file needs a handful)", MaxDepth)}
}

// line scans one line.
func (s *depthScan) line(lineNo int, b []byte) error {
	indent := 0
	for indent < len(b) && b[indent] == ' ' {
		indent++
	}
	blank := indent == len(b) || b[indent] == '#'
	if s.scalarParent >= 0 {
		if blank || indent > s.scalarParent {
			return nil
		}
		s.scalarParent = -1
	}
	i := 0
	if s.flow == 0 && s.quote == 0 {
		if blank {
			return nil
		}
		for len(s.open) > 0 && s.open[len(s.open)-1] > indent {
			s.open = s.open[:len(s.open)-1]
		}
		i = indent
		if indent == 0 && (bytes.HasPrefix(b, []byte("---")) || bytes.HasPrefix(b, []byte("..."))) && (len(b) == 3 || b[3] == ' ') {
			s.open = s.open[:0]
			i = 3
		}
		// Block entries: "- " and "? ", any number on one line.
		for i < len(b) && (b[i] == '-' || b[i] == '?') && (i+1 == len(b) || b[i+1] == ' ') {
			if err := s.block(lineNo, i); err != nil {
				return err
			}
			i++
			for i < len(b) && b[i] == ' ' {
				i++
			}
		}
	}
	return s.rest(lineNo, b, i)
}

// block notes a block collection entry at column col.
func (s *depthScan) block(lineNo, col int) error {
	for len(s.open) > 0 && s.open[len(s.open)-1] > col {
		s.open = s.open[:len(s.open)-1]
	}
	if len(s.open) == 0 || s.open[len(s.open)-1] < col {
		s.open = append(s.open, col)
	}
	if len(s.open)+s.flow > MaxDepth {
		return s.tooDeep(lineNo, col)
	}
	return nil
}

// rest scans a line from i: keys, quotes, comments, flow brackets and
// block scalar indicators.
func (s *depthScan) rest(lineNo int, b []byte, i int) error {
	start := i          // where the current node began, for a key's column
	scalarStart := true // whether a quote or bracket here opens a node
	keyed := false      // whether this line has had its block key
	for ; i < len(b); i++ {
		c := b[i]
		if s.quote != 0 {
			switch {
			case s.quote == '"' && c == '\\':
				i++
			case c == s.quote && s.quote == '\'' && i+1 < len(b) && b[i+1] == '\'':
				i++
			case c == s.quote:
				s.quote = 0
			}
			continue
		}
		switch {
		case c == ' ' || c == '\t':
			continue
		case c == '#' && (i == 0 || b[i-1] == ' ' || b[i-1] == '\t'):
			return nil
		case (c == '&' || c == '!') && scalarStart:
			// An anchor or a tag comes before its node: skip it, and the
			// node may still open a quote or a bracket.
			for i+1 < len(b) && b[i+1] != ' ' && b[i+1] != '\t' && (s.flow == 0 || (b[i+1] != ',' && b[i+1] != '[' && b[i+1] != '{')) {
				i++
			}
			continue
		case (c == '"' || c == '\'') && scalarStart:
			s.quote = c
		case (c == '[' || c == '{') && (scalarStart || s.flow > 0):
			s.flow++
			if len(s.open)+s.flow > MaxDepth {
				return s.tooDeep(lineNo, i)
			}
			scalarStart = true
			continue
		case (c == ']' || c == '}') && s.flow > 0:
			s.flow--
		case c == ',' && s.flow > 0:
			scalarStart = true
			continue
		case c == ':' && (i+1 == len(b) || b[i+1] == ' ' || b[i+1] == '\t' || (s.flow > 0 && (b[i+1] == ',' || b[i+1] == ']' || b[i+1] == '}'))):
			if s.flow == 0 && !keyed {
				keyed = true
				if err := s.block(lineNo, start); err != nil {
					return err
				}
			}
			if err := s.key(lineNo, start); err != nil {
				return err
			}
			scalarStart = true
			continue
		case (c == '|' || c == '>') && scalarStart && s.flow == 0:
			// A block scalar: its lines, indented past its owner, are text.
			s.scalarParent = start
			if len(s.open) > 0 {
				s.scalarParent = s.open[len(s.open)-1]
			}
			return nil
		}
		scalarStart = false
	}
	return nil
}
