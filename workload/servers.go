package workload

import "sync"

// servers runs each email's serve on its own goroutine: one an email
// already served has left idle when there is one, else a new one. An
// email's goroutine grows its stack through the SDK and the HTTP client,
// and the stack copies cost about a tenth of the CPU of a call to a fast
// endpoint; a goroutine that has served one email serves the next without
// growing again. An email never waits for a goroutine: concurrency is as
// with one new goroutine an email.
type servers struct {
	wg   sync.WaitGroup
	idle chan func() // idle goroutines receive here; closed by wait
}

func newServers() *servers { return &servers{idle: make(chan func())} }

// run starts serve: on an idle goroutine, or on a new one.
func (s *servers) run(serve func()) {
	select {
	case s.idle <- serve:
	default:
		s.wg.Go(func() {
			serve()
			for next := range s.idle {
				next()
			}
		})
	}
}

// wait returns when every serve run started has returned and every
// goroutine has ended; run must not be called after it.
func (s *servers) wait() {
	close(s.idle)
	s.wg.Wait()
}
