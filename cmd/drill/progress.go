package main

import (
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	bprogress "github.com/charmbracelet/bubbles/progress"
	"github.com/muesli/termenv"
	"github.com/openai/openai-go/v3/option"
)

// Progress of the long commands (compare, sweep, eval): on a terminal a
// bar (bubbles/progress) with the count and an ETA, redrawn every
// barEvery; otherwise a plain line every lineEvery, so a CI log shows the
// command is alive without filling up.
const (
	barEvery  = 200 * time.Millisecond
	lineEvery = 5 * time.Second
)

// startProgress reports poll()'s count of done out of total things (unit:
// "emails", "calls") on w until the returned stop is called; stop clears
// the bar, or prints nothing more. label starts each line ("compare").
// poll is called from one goroutine only, every tick.
func startProgress(w io.Writer, label, unit string, total int, poll func() int) (stop func()) {
	if total <= 0 {
		return func() {}
	}
	term := isTerminal(w)
	every := lineEvery
	var bar bprogress.Model
	if term {
		every = barEvery
		bar = bprogress.New(bprogress.WithDefaultGradient(), bprogress.WithWidth(40),
			bprogress.WithColorProfile(termenv.NewOutput(w).EnvColorProfile()))
	}
	start := time.Now()
	draw := func(done int) {
		done = min(max(done, 0), total)
		eta := etaText(time.Since(start), done, total)
		if term {
			fmt.Fprintf(w, "\r\x1b[2K%s %d/%d %s%s", bar.ViewAs(float64(done)/float64(total)), done, total, unit, eta)
			return
		}
		fmt.Fprintf(w, "drill %s: %d/%d %s (%d%%)%s\n", label, done, total, unit, done*100/total, eta)
	}
	quit, finished := make(chan struct{}), make(chan struct{})
	var once sync.Once
	go func() {
		defer close(finished)
		tick := time.NewTicker(every)
		defer tick.Stop()
		if term {
			draw(0)
		}
		for {
			select {
			case <-quit:
				return
			case <-tick.C:
				draw(poll())
			}
		}
	}()
	return func() {
		once.Do(func() {
			close(quit)
			<-finished
			if term {
				fmt.Fprint(w, "\r\x1b[2K")
			}
		})
	}
}

// etaText is ", ETA 42s" from the pace so far, or "" before anything is
// done or once everything is.
func etaText(elapsed time.Duration, done, total int) string {
	if done <= 0 || done >= total {
		return ""
	}
	left := time.Duration(float64(elapsed) * float64(total-done) / float64(done))
	return ", ETA " + left.Round(time.Second).String()
}

// countAnswers is an openai-go middleware that counts the calls a model
// answered (any response but a 429 or 5xx, which the SDK retries), for
// eval's progress.
func countAnswers(n *atomic.Int64) option.Middleware {
	return func(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		resp, err := next(req)
		if err == nil && resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode < 500 {
			n.Add(1)
		}
		return resp, err
	}
}
