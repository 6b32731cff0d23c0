package fakemodel

import (
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	tiktoken "github.com/pkoukk/tiktoken-go"
	tiktokenloader "github.com/pkoukk/tiktoken-go-loader"

	"github.com/drill-dev/drill/emails"
)

const o200kURL = "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken"

// TestO200kMatchesTheOfflineLoader checks the compact embedded table against
// the .tiktoken file it was generated from: every token, every rank.
func TestO200kMatchesTheOfflineLoader(t *testing.T) {
	want, err := tiktokenloader.NewOfflineLoader().LoadTiktokenBpe(o200kURL)
	if err != nil {
		t.Fatal(err)
	}
	got := encoding()
	if got == nil {
		t.Fatal("o200k_base did not load")
	}
	if got.tokens() != len(want) {
		t.Fatalf("embedded o200k_base has %d tokens, the .tiktoken file %d", got.tokens(), len(want))
	}
	for tok, rank := range want {
		if g := got.rank(tok); g != rank {
			t.Fatalf("token %q: embedded rank %d, want %d", tok, g, rank)
		}
	}
	if r := got.rank("not one token at all, surely"); r != -1 {
		t.Fatalf("a long phrase has rank %d, want -1 (not a token)", r)
	}
}

// reference is tiktoken-go's o200k_base from the .tiktoken file, the
// encoder ours must agree with.
var reference = sync.OnceValues(func() (*tiktoken.Tiktoken, error) {
	tiktoken.SetBpeLoader(tiktokenloader.NewOfflineLoader())
	return tiktoken.GetEncoding("o200k_base")
})

// TestEncoderAgreesWithTiktoken counts and cuts texts of every kind the
// fake model meets — the data set's emails and rules, the agent's prompts,
// other scripts, numbers, code, stray special tokens, invalid UTF-8, random
// runes — with ours and with tiktoken-go, and wants the same answers.
func TestEncoderAgreesWithTiktoken(t *testing.T) {
	ref, err := reference()
	if err != nil {
		t.Fatal(err)
	}
	texts := []string{
		"", "hello world", "Hello, World!", "  leading and trailing  ", "\n\n\r\n tabs\tand\nlines\n",
		"I'd've thought they'll say it's the order #A-10482's fault", "ORDER A-10482 IS LATE!!!",
		"12345678901234567890 3.14159 1,000,000 2026-12-02T02:43:19Z", "café naïve résumé Ångström",
		"Привет, как дела? 你好，世界。 こんにちは 안녕하세요 مرحبا שלום नमस्ते", "emoji 🎉🚀👍🏽 and 🇫🇷 flags",
		"func main() {\n\tfmt.Println(\"hi\") // comment\n}\n", `{"order_number":"A-10482","carrier":"DHL"}`,
		"<|endoftext|> and <|endofprompt|> as plain text", "bad \xff\xfe utf-8 \xc3", strings.Repeat("ab", 300),
		strings.Repeat("supercalifragilistic", 12), "aaaaaaa", "zzz qqqq xxxxxxx", "hmmmmmmm", "!!!!!!!", "........", "=====", "https://example.com/track?id=ABC123&lang=en#top",
		emails.Rules(),
	}
	for _, e := range emails.All() {
		texts = append(texts, e.Text())
	}
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []rune("aeiou bcdfg XYZ 0123 .,;!? \n\t'\"-_/ éüß 你好 🎉 ア ñ")
	for range 300 {
		r := make([]rune, rng.IntN(120))
		for i := range r {
			r[i] = alphabet[rng.IntN(len(alphabet))]
		}
		texts = append(texts, string(r))
	}
	ours := encoding()
	for _, s := range texts {
		toks := ref.Encode(s, nil, nil)
		if got := ours.count(s); got != len(toks) {
			t.Fatalf("count(%.60q) = %d, tiktoken-go %d", s, got, len(toks))
		}
		for _, n := range []int{1, 2, 7, len(toks) / 2, len(toks) - 1, len(toks), len(toks) + 3} {
			if n <= 0 {
				continue
			}
			want, wantCut := s, false // uncut, the text itself, as truncateTokens always gave
			if n < len(toks) {
				want, wantCut = ref.Decode(toks[:n]), true
			}
			got, cut := ours.prefix(s, n)
			if got != want || cut != wantCut {
				t.Fatalf("prefix(%.60q, %d) = %q, %v; tiktoken-go %q, %v", s, n, got, cut, want, wantCut)
			}
		}
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

// TestExactlyCountable: a run of one kind longer than exactTokenRun — a
// word or white space, each one piece to the encoder — is estimated, not
// encoded, so one request cannot cost seconds of byte-pair merging.
func TestExactlyCountable(t *testing.T) {
	for s, want := range map[string]bool{
		"an ordinary sentence, with punctuation.":  true,
		strings.Repeat("a", exactTokenRun):         true,
		strings.Repeat("a", exactTokenRun+1):       false,
		strings.Repeat(" ", exactTokenRun):         true,
		strings.Repeat(" ", exactTokenRun+1):       false,
		strings.Repeat("\t\n", exactTokenRun):      false,
		strings.Repeat("ab ", exactTokenBytes/3):   true,
		strings.Repeat("ab ", exactTokenBytes/3+1): false, // too long in all
	} {
		if got := exactlyCountable(s); got != want {
			t.Errorf("exactlyCountable(%.20q… %d bytes) = %v, want %v", s, len(s), got, want)
		}
	}
}
