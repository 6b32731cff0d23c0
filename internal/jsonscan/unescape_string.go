package jsonscan

import "unsafe"

// UnescapeString is Unescape returning a string, with one copy of the text
// at most: text with escapes is decoded into a new buffer that becomes the
// string as it is (nothing else holds it); text without escapes is copied
// once, since raw belongs to the caller.
func UnescapeString(raw []byte) (string, bool) {
	out, ok := Unescape(raw)
	if !ok {
		return "", false
	}
	if len(out) == 0 {
		return "", true
	}
	if len(raw) > 0 && unsafe.SliceData(out) == unsafe.SliceData(raw) {
		return string(out), true
	}
	return unsafe.String(unsafe.SliceData(out), len(out)), true
}
