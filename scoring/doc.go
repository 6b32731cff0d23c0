// Package scoring is drill's one fold: the only package that interprets a
// run's events. Every figure drill shows — live on the dashboard, in the
// progress lines, in drill run's table and JSON, in a journal's summary
// line, in drill replay and in reports — comes from a Fold here, so a
// number means the same everywhere.
//
// The fold is composed of small parts:
//   - emails.go: per-email records, who served each email, and quality
//     (each answer compared with the truth once, with Wilson intervals in
//     quality.go);
//   - summary.go: waits during the outage and the run Summary, whose JSON
//     keys are documented in docs/keys.md and stable;
//   - breakers.go: breaker state, changes, open spans, opens and probes;
//   - series.go: attempts and retries per second, bounded;
//   - windows.go: outage windows as the injector applied them, and each
//     model's observed failure window for outages drill did not inject.
//
// Folding never panics and never allocates without bound, whatever the
// events' offsets.
package scoring
