package fakemodel

import (
	"testing"

	tiktokenloader "github.com/pkoukk/tiktoken-go-loader"
)

// TestO200kMatchesTheOfflineLoader checks the compact embedded table against
// the .tiktoken file it was generated from: every token, every rank.
func TestO200kMatchesTheOfflineLoader(t *testing.T) {
	want, err := tiktokenloader.NewOfflineLoader().LoadTiktokenBpe("https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken")
	if err != nil {
		t.Fatal(err)
	}
	got, err := o200kLoader{}.LoadTiktokenBpe("https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("embedded o200k_base has %d tokens, the .tiktoken file %d", len(got), len(want))
	}
	for tok, rank := range want {
		if g, ok := got[tok]; !ok || g != rank {
			t.Fatalf("token %q: embedded rank %d (present %v), want %d", tok, g, ok, rank)
		}
	}
}

func TestO200kLoaderRefusesOtherEncodings(t *testing.T) {
	if _, err := (o200kLoader{}).LoadTiktokenBpe("https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken"); err == nil {
		t.Fatal("cl100k_base loaded; only o200k_base is embedded")
	}
}

func TestCountTokensWithTheEmbeddedEncoding(t *testing.T) {
	// "hello world" is two tokens in o200k_base; an encoder that failed to
	// load would fall back to the four-bytes estimate, three.
	if encoding() == nil {
		t.Fatal("o200k_base did not load")
	}
	if n := countTokens("hello world"); n != 2 {
		t.Fatalf("countTokens(hello world) = %d, want 2", n)
	}
}
