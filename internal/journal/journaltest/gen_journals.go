//go:build ignore

// gen_journals writes synthetic journals through drill's own journal
// writer (journaltest.Write), for measuring readers on big inputs:
//
//	go run internal/journal/journaltest/gen_journals.go -emails 320000 -o big.jsonl
//	    one journal of about 2 million events
//	go run internal/journal/journaltest/gen_journals.go -n 2000 -dir many
//	    2,000 journals of 120 emails each, a day apart, in four drills
package main

import (
	"flag"
	"log"
	"os"
	"time"

	"github.com/drill-dev/drill/internal/journal/journaltest"
)

func main() {
	emails := flag.Int("emails", 120, "emails per journal")
	rate := flag.Float64("rate", 50, "emails a second")
	out := flag.String("o", "", "one journal at this path")
	n := flag.Int("n", 0, "this many journals in -dir")
	dir := flag.String("dir", "", "directory for -n journals")
	flag.Parse()
	start := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	switch {
	case *out != "":
		if err := journaltest.WriteVaried(*out, start, *emails, *rate, 0); err != nil {
			log.Fatal(err)
		}
	case *n > 0 && *dir != "":
		if err := os.MkdirAll(*dir, 0o755); err != nil {
			log.Fatal(err)
		}
		if _, err := journaltest.WriteMany(*dir, *n, *emails, *rate); err != nil {
			log.Fatal(err)
		}
	default:
		log.Fatal("give -o PATH, or -n N -dir DIR")
	}
}
