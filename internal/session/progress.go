package session

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	bprogress "github.com/charmbracelet/bubbles/progress"
	"github.com/charmbracelet/x/term"
	"github.com/mattn/go-isatty"
	"github.com/muesli/termenv"

	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/scoring"
	"github.com/drill-dev/drill/workload"
)

// progress writes drill run's progress line (plain.Progress) once a
// second until the run ends, and once more at its end, reading the log
// with cur, attached by the caller before the log may release events.
func progress(run *workload.Run, cur *event.Cursor, w io.Writer) {
	f := scoring.NewFold()
	everySecond(run.Done(), func() {
		f.AddAll(cur.Poll())
		fmt.Fprintln(w, plain.Progress(f, time.Since(run.Log().Start())))
	})
}

// everySecond calls line once a second until done is closed, then once more.
func everySecond(done <-chan struct{}, line func()) {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-done:
			line()
			return
		case <-tick.C:
			line()
		}
	}
}

// Progress of the long commands (compare, sweep, eval): on a terminal a
// bar (bubbles/progress) with the count and an ETA, redrawn every
// BarEvery; otherwise a plain line every LineEvery, so a CI log shows the
// command is alive without filling up.
const (
	BarEvery  = 200 * time.Millisecond
	LineEvery = 5 * time.Second
)

// StartProgress reports poll()'s count of done out of total things (unit:
// "emails", "calls") on w until the returned stop is called; stop clears
// the bar, or prints nothing more. label starts each line ("compare").
// poll is called from one goroutine only, every tick.
func StartProgress(w io.Writer, label, unit string, total int, poll func() int) (stop func()) {
	if total <= 0 {
		return func() {}
	}
	term := IsTerminal(w)
	every := LineEvery
	var bar bprogress.Model
	if term {
		every = BarEvery
		bar = bprogress.New(bprogress.WithDefaultGradient(), bprogress.WithWidth(40),
			bprogress.WithColorProfile(termenv.NewOutput(w).EnvColorProfile()))
	}
	start := time.Now()
	draw := func(done int) {
		done = min(max(done, 0), total)
		eta := format.ETA(time.Since(start), done, total)
		if term {
			fmt.Fprintf(w, "\r\x1b[2K%s %s", bar.ViewAs(float64(done)/float64(total)), format.BarCount(unit, done, total, eta))
			return
		}
		fmt.Fprintln(w, format.ProgressCount(label, unit, done, total, eta))
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

// IsTerminal reports whether w writes to a terminal.
func IsTerminal(w io.Writer) bool {
	f, ok := File(w)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

// TerminalWidth is the width in cells of the terminal w writes to, or 0
// when w does not write to a terminal (nothing is wrapped then).
func TerminalWidth(w io.Writer) int {
	if !IsTerminal(w) {
		return 0
	}
	f, _ := File(w)
	width, _, err := term.GetSize(f.Fd())
	if err != nil {
		return 0
	}
	return width
}

// File is the file w writes to: w itself, or what a writer that passes
// its text on (one with an Unwrap method, as the redacting writer drill's
// commands print through) writes to.
func File(w io.Writer) (*os.File, bool) {
	for {
		switch v := w.(type) {
		case *os.File:
			return v, true
		case interface{ Unwrap() io.Writer }:
			w = v.Unwrap()
		default:
			return nil, false
		}
	}
}
