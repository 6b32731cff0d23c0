package inject

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// TestReadBodyReadsAsReadAll: readBody gives io.ReadAll's bytes and error
// whatever length is declared: right, short, long, none, or past the bound
// it allocates at once; and it passes a reader's error on.
func TestReadBodyReadsAsReadAll(t *testing.T) {
	body := strings.Repeat("abcdefghij", 100)
	for _, n := range []int64{int64(len(body)), 0, -1, 10, int64(len(body)) + 7, maxSized + 1} {
		for _, r := range []func() io.Reader{
			func() io.Reader { return strings.NewReader(body) },
			func() io.Reader { return iotest.OneByteReader(strings.NewReader(body)) },
			func() io.Reader { return iotest.DataErrReader(strings.NewReader(body)) },
		} {
			want, wantErr := io.ReadAll(r())
			got, err := readBody(r(), n)
			if !bytes.Equal(got, want) || (err == nil) != (wantErr == nil) {
				t.Errorf("declared %d: %d bytes, %v; want %d bytes, %v", n, len(got), err, len(want), wantErr)
			}
		}
	}
	boom := errors.New("boom")
	r := io.MultiReader(strings.NewReader(body[:10]), iotest.ErrReader(boom))
	if _, err := readBody(r, int64(len(body))); !errors.Is(err, boom) {
		t.Errorf("a failing reader: %v, want %v", err, boom)
	}
	r = io.MultiReader(strings.NewReader(body), iotest.ErrReader(boom))
	if _, err := readBody(r, int64(len(body))); !errors.Is(err, boom) {
		t.Errorf("a reader failing after the declared length: %v, want %v", err, boom)
	}
}
