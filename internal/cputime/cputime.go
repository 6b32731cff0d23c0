// Package cputime reads the CPU time (user + system) of this process and of
// the child processes it has waited for, so benchmarks can report CPU beside
// wall time: on a shared machine the wall time moves with other work, the
// CPU time much less.
package cputime
