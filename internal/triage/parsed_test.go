package triage

import (
	"strings"
	"testing"
)

// TestParseKeepsWhatItRead: Parse gives what the uncached parse gives, the
// first time and from its cache after, for right answers, wrong ones and
// contents too long to keep; the cache never holds more than maxParsed.
func TestParseKeepsWhatItRead(t *testing.T) {
	contents := []string{
		`{"intent":"refund","order_number":"DR-123456","product":"","urgency":"high"}`,
		`{"intent":"refund","order_number":"dr 123456","product":"","urgency":"high"}`,
		`{"intent":"refund"}`,
		`not json`,
		`null`,
		`{"intent":"refund","order_number":"","product":"","urgency":"high"} {}`,
		`{"intent":"refund","order_number":"","product":"","urgency":"high","x":1}`,
		`{"intent":"` + strings.Repeat("x", 2*maxParsedLen) + `"}`,
	}
	for range 2 {
		for _, c := range contents {
			want, wantErr := parse(c)
			got, gotErr := Parse(c)
			if got != want || errText(gotErr) != errText(wantErr) {
				t.Errorf("Parse(%.40q) = %+v, %v; want %+v, %v", c, got, gotErr, want, wantErr)
			}
		}
	}
	if _, ok := parsed.get(contents[len(contents)-1]); ok {
		t.Errorf("a content longer than %d bytes was kept", maxParsedLen)
	}
	for i := range maxParsed + 10 {
		_, _ = Parse(`{"n":` + strings.Repeat("1", i%50+1) + `,"i":"` + strings.Repeat("y", i%100) + `"}` + strings.Repeat(" ", i/5000))
	}
	parsed.mu.RLock()
	defer parsed.mu.RUnlock()
	if len(parsed.m) > maxParsed {
		t.Errorf("the cache holds %d answers, more than %d", len(parsed.m), maxParsed)
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
