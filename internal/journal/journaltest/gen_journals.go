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
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/journal"
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
		if err := write(*out, start, *emails, *rate, 0); err != nil {
			log.Fatal(err)
		}
	case *n > 0 && *dir != "":
		if err := os.MkdirAll(*dir, 0o755); err != nil {
			log.Fatal(err)
		}
		for i := range *n {
			path := filepath.Join(*dir, fmt.Sprintf("run-%05d.jsonl", i))
			if err := write(path, start.Add(time.Duration(i)*24*time.Hour), *emails, *rate, i); err != nil {
				log.Fatal(err)
			}
		}
	default:
		log.Fatal("give -o PATH, or -n N -dir DIR")
	}
}

// write records one synthetic run; i varies its seed, outage and breaker.
func write(path string, start time.Time, emails int, rate float64, i int) error {
	outage := [...]string{"busy", "hang"}[i%2]
	dur := float64(emails) / rate
	evs := journaltest.Run(journaltest.Options{Emails: emails, Rate: rate, Outage: outage, Breaker: i/2%2 == 1,
		From: dur / 4, To: dur * 2 / 3, Seed: uint64(i + 1)})
	h, err := journal.NewHeader(nil, start)
	if err != nil {
		return err
	}
	return journaltest.Write(path, h, evs, event.StatusCompleted)
}
