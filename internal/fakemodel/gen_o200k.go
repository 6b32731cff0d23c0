//go:build ignore

// gen_o200k writes o200k_base.bpe.gz, the o200k_base encoding in the compact
// form loadO200k reads: for every token in rank order, one byte with its
// length and then its bytes, the whole gzipped. The source is the .tiktoken
// file of github.com/pkoukk/tiktoken-go-loader (a test dependency of this
// package, so `go mod download` has it), whose lines are "base64 rank".
//
// Run it with `go generate ./internal/fakemodel/`.
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

func main() {
	dir, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/pkoukk/tiktoken-go-loader").Output()
	if err != nil {
		log.Fatalf("finding github.com/pkoukk/tiktoken-go-loader: %v", err)
	}
	src := filepath.Join(strings.TrimSpace(string(dir)), "assets", "o200k_base.tiktoken")
	f, err := os.Open(src)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	var out bytes.Buffer
	zw, err := gzip.NewWriterLevel(&out, gzip.BestCompression)
	if err != nil {
		log.Fatal(err)
	}
	sc := bufio.NewScanner(f)
	want := 0
	for sc.Scan() {
		b64, rankText, ok := strings.Cut(sc.Text(), " ")
		if !ok {
			log.Fatalf("%s: line %d is not \"token rank\"", src, want+1)
		}
		rank, err := strconv.Atoi(rankText)
		if err != nil || rank != want {
			log.Fatalf("%s: line %d has rank %q; the compact form needs ranks 0, 1, 2, … in order", src, want+1, rankText)
		}
		tok, err := base64.StdEncoding.DecodeString(b64)
		if err != nil {
			log.Fatalf("%s: line %d: %v", src, want+1, err)
		}
		if len(tok) == 0 || len(tok) > 255 {
			log.Fatalf("%s: line %d: a token of %d bytes does not fit a length byte", src, want+1, len(tok))
		}
		zw.Write([]byte{byte(len(tok))})
		zw.Write(tok)
		want++
	}
	if err := sc.Err(); err != nil {
		log.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("o200k_base.bpe.gz", out.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("o200k_base.bpe.gz: %d tokens, %d bytes\n", want, out.Len())
}
