// Package archtest holds the architecture test: the rules of drill's layout
// that a test keeps, so that they hold after every change rather than only
// in docs/architecture.md.
//
//   - Imports point one way: cmd → views (tui, internal/report) → machinery
//     (internal/…) → engine (workload → chain → breaker, inject) and the fold
//     (scoring) → event, emails. The engine never imports the fold, and the
//     fold never imports the engine. Every package has a place in the map;
//     a new package must be given one.
//   - Only scoring switches on event kinds: a view that needs to know what
//     an event means asks the fold.
//   - Only internal/format formats a duration or a share for output: a figure
//     reads the same in every view. format knows no drill type; the texts
//     built from drill's types (internal/plain, the views) call its units.
//
// The package has no code of its own; run its test with
//
//	go test ./internal/archtest/
package archtest
