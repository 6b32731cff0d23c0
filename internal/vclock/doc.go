// Package vclock runs drills in virtual time: `--clock virtual`.
//
// # How it works
//
// The test suite runs whole drills in a testing/synctest bubble, where the
// time package uses a fake clock that jumps ahead whenever every goroutine in
// the bubble is blocked on something only another goroutine in the bubble can
// end (a timer, a channel, a WaitGroup). Everything a drill waits on with the
// built-in fake model is of that kind: the arrival schedule, the outage
// schedule, the fake model's latencies, http.Client time limits, the
// openai-go SDK's retry backoff, breaker cooldowns and the run's ceiling. So a
// drill whose outage lasts 25 s runs in a few milliseconds, through exactly the
// code a real-time drill runs: the real SDK, unmodified, with its own timers.
//
// synctest.Test needs a *testing.T, and a *testing.T only exists inside a
// test run that testing.M started. testing.RunTests cannot be used from a
// normal binary (it runs nothing until testing.M has parsed its flags, and
// testing.M prints PASS on stdout and may only run once per process). So drill
// runs virtual-time work in a child process: Call re-executes the drill
// binary (os.Executable) with DRILL_VCLOCK_CHILD set to the name of a
// registered body and the body's input on stdin. Main, first thing in drill's
// main (and in TestMain of packages that test this), sees the variable and,
// instead of the command line, starts testing.MainStart with one synthetic
// test whose only act is synctest.Test around the body. The child's stdout
// (testing's PASS/FAIL chatter) is kept from the user; the body's output
// travels back on a pipe (fd 3) and a failure as a JSON record on another
// pipe (fd 4), so a usage error stays exit 2 and an interruption exit 130.
//
// Drills (drills.go) is the body behind `drill run`, `drill compare` and any
// future `drill sweep`: one call runs any number of workload configurations,
// concurrently, in one bubble, optionally recording each as a journal, and
// returns their summaries. Each run logs an event.RunClock event with Detail
// "virtual" right after its run_start, so the summary's "clock" (computed by
// scoring's fold), the journal (header "clock" and the event) and the reports
// built from it all say which clock a figure came from. Journals of virtual
// runs carry virtual offsets, so replay and report read them like any other.
//
// # What it cannot do
//
//   - Wait on real sockets. A goroutine blocked in a read on a network
//     connection is not durably blocked, so the bubble's clock would stop
//     while it waits and the drill would measure nothing real. Only the
//     built-in fake model, served in-process through its http.RoundTripper,
//     can be used: `--clock virtual` with --base-url (or through a proxy) is
//     a usage error (exit 2) that says so.
//   - Show the live dashboard. Reading the terminal is real IO, so the drill
//     runs to its end first; `drill run --clock virtual` on a terminal then
//     opens the recorded run in the replay dashboard.
//   - React to Ctrl-C at once. A goroutine in the bubble cannot wait on a
//     signal from outside it without stopping the clock, so a watcher in the
//     bubble looks at a flag the signal handler sets every PollInterval of
//     virtual time, then cancels the drills like a real Ctrl-C does.
//   - Measure the machine. Virtual time advances only when everything is
//     waiting; CPU time is free in it. Engine overhead, terminal speed and
//     scheduler delays that a real-time drill would see are zero.
//   - Draw real randomness from time: jitter seeded from the clock starts at
//     midnight UTC 2000-01-01, the bubble's epoch (openai-go's backoff jitter
//     uses its own random source, so it still varies from run to run).
//
// No goroutine outlives a body: synctest.Test returns only when every
// goroutine started in the bubble has returned, and a goroutine still blocked
// there when the body returns fails the child with a deadlock report.
package vclock
