package fakemodel

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"io"
	"path"
)

//go:generate go run gen_o200k.go

// o200kBPE is the o200k_base encoding, the only one the fake model counts
// with, in a compact form (see gen_o200k.go): every token in rank order as a
// length byte and its bytes, gzipped. It is 1 MB where the four .tiktoken
// files of the usual offline loader are 7 MB.
//
//go:embed o200k_base.bpe.gz
var o200kBPE []byte

// o200kFile is the file name tiktoken-go asks its loader for.
const o200kFile = "o200k_base.tiktoken"

// o200kLoader is a tiktoken-go BPE loader that knows o200k_base only and
// never touches the network.
type o200kLoader struct{}

// LoadTiktokenBpe returns o200k_base's ranks; any other encoding is an error.
func (o200kLoader) LoadTiktokenBpe(file string) (map[string]int, error) {
	if path.Base(file) != o200kFile {
		return nil, fmt.Errorf("fakemodel: only %s is embedded, not %s", o200kFile, path.Base(file))
	}
	return loadO200k()
}

// loadO200k decodes the embedded table into tiktoken-go's rank map.
func loadO200k() (map[string]int, error) {
	zr, err := gzip.NewReader(bytes.NewReader(o200kBPE))
	if err != nil {
		return nil, fmt.Errorf("fakemodel: reading the embedded o200k_base: %w", err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("fakemodel: reading the embedded o200k_base: %w", err)
	}
	ranks := make(map[string]int, 200_000)
	for i := 0; i < len(raw); {
		n := int(raw[i])
		if n == 0 || i+1+n > len(raw) {
			return nil, fmt.Errorf("fakemodel: the embedded o200k_base is corrupt at byte %d", i)
		}
		ranks[string(raw[i+1:i+1+n])] = len(ranks)
		i += 1 + n
	}
	return ranks, nil
}
